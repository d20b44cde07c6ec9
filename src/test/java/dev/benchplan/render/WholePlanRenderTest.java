package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** render without --load-point renders every load point and every repetition into one Job. */
class WholePlanRenderTest {
  @TempDir Path tmp;

  private Map<String, String> env(Rendered r) {
    return java.util.stream.StreamSupport.stream(r.container().path("env").spliterator(), false)
        .filter(e -> e.has("value"))
        .collect(Collectors.toMap(e -> e.path("name").asString(), e -> e.path("value").asString()));
  }

  @Test
  @DisplayName(
      "a 3-point grid: one AIPerf config per point (AIPerf's schema holds), run one after another, deadline covers the sum")
  void grid() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic().closedLoop(1, 2, 4).requestCount(64).write(tmp.resolve("p.json"));
    Path root = Files.createDirectories(tmp.resolve("deploy"));
    Rendered r = Rendered.render(plan, root);
    List<JsonNode> configs = YamlDocuments.read(r.configText());
    assertThat(configs).hasSize(3);
    String runId = r.result().runId();
    for (int i = 0; i < 3; i++) {
      JsonNode c = configs.get(i);
      assertThat(Rendered.Schemas.aiperf().validate(c)).as("document %d", i).isEmpty();
      int point = List.of(1, 2, 4).get(i);
      assertThat(c.at("/benchmark/artifacts/dir").asString())
          .isEqualTo("/artifacts/" + runId + "/concurrency_" + point);
      assertThat(c.at("/benchmark/phases").toString()).contains("\"concurrency\":" + point);
      assertThat(c.has("multiRun")).isFalse();
    }
    Map<String, String> env = env(r);
    assertThat(env)
        .containsEntry("BENCHPLAN_RUN_DIRS", "concurrency_1 concurrency_2 concurrency_4")
        .containsEntry("BENCHPLAN_CONFIG_DIR", "/benchplan/config")
        .containsEntry(
            "BENCHPLAN_ARTIFACT_LOG_MAX_BYTES",
            Long.toString(ArtifactEstimate.LOG_CHANNEL_MAX_BYTES));
    JsonNode annotations = r.job().at("/metadata/annotations");
    MeasuredRuns runs = MeasuredRuns.parse(annotations.path(JobContract.MEASURED_RUNS).asString());
    assertThat(runs.mechanism()).isEqualTo(MeasuredRuns.SEQUENCE);
    assertThat(runs.count()).isEqualTo(3);
    assertThat(runs.points())
        .extracting(MeasuredRuns.Point::loadPoint)
        .containsExactly("1", "2", "4");
    assertThat(annotations.path(JobContract.LOAD_POINT).asString()).isEqualTo("[1, 2, 4]");
    // readiness and setup once, then each point's own limit and margin, as one point's Job has
    Rendered single =
        Rendered.render(plan, Files.createDirectories(tmp.resolve("one")), "--load-point", "1");
    long once = JobBudget.MODEL_WAIT_SECONDS + JobBudget.SETUP_SECONDS;
    long perRun = single.job().at("/spec/activeDeadlineSeconds").asLong() - once;
    assertThat(perRun).isGreaterThan(limit(plan));
    assertThat(r.job().at("/spec/activeDeadlineSeconds").asLong()).isEqualTo(once + 3 * perRun);
    assertThat(r.result().measuredRuns()).isEqualTo(3);
    assertThat(r.result().artifactEstimateBytes()).isPositive();
    assertThat(r.perfText())
        .contains("# artifacts: estimated ", "shipped back through the pod log");
    r.assertKubernetesValid();
  }

  @Test
  @DisplayName("a pilot (n = 3) at one point: AIPerf's own multiRun.numRuns, marked as the pilot")
  void pilot() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic().requestCount(64).repetitions(3, true).write(tmp.resolve("p.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("deploy")));
    List<JsonNode> configs = YamlDocuments.read(r.configText());
    assertThat(configs).hasSize(1);
    assertThat(configs.get(0).at("/multiRun/numRuns").asInt()).isEqualTo(3);
    assertThat(Rendered.Schemas.aiperf().validate(configs.get(0))).isEmpty();
    assertThat(env(r)).doesNotContainKey("BENCHPLAN_RUN_DIRS");
    MeasuredRuns runs =
        MeasuredRuns.parse(
            r.job().at("/metadata/annotations").path(JobContract.MEASURED_RUNS).asString());
    assertThat(runs.mechanism()).isEqualTo(MeasuredRuns.MULTI_RUN);
    assertThat(runs.pilot()).isTrue();
    assertThat(runs.count()).isEqualTo(3);
  }

  @Test
  @DisplayName(
      "a grid repeated: one config per point, each repeating through multiRun; --load-point still picks one point")
  void gridRepeated() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic()
            .closedLoop(1, 2)
            .requestCount(64)
            .repetitions(2, false)
            .write(tmp.resolve("p.json"));
    Rendered r = Rendered.render(plan, Files.createDirectories(tmp.resolve("deploy")));
    assertThat(YamlDocuments.read(r.configText()))
        .hasSize(2)
        .allSatisfy(c -> assertThat(c.at("/multiRun/numRuns").asInt()).isEqualTo(2));
    assertThat(r.result().mechanism()).isEqualTo(MeasuredRuns.SEQUENCE_MULTI_RUN);
    assertThat(r.result().measuredRuns()).isEqualTo(4);

    Rendered one =
        Rendered.render(plan, Files.createDirectories(tmp.resolve("deploy2")), "--load-point", "2");
    assertThat(YamlDocuments.read(one.configText())).hasSize(1);
    assertThat(one.config().at("/benchmark/artifacts/dir").asString())
        .isEqualTo("/artifacts/" + one.result().runId());
    assertThat(one.result().mechanism()).isEqualTo(MeasuredRuns.MULTI_RUN);
  }

  @Test
  @DisplayName("the artifact estimate grows with the planned requests and input length")
  void estimate() throws Exception {
    long small =
        Rendered.render(
                PlanFixture.userStatic().requestCount(64).warmup(0).write(tmp.resolve("a.json")),
                Files.createDirectories(tmp.resolve("d1")))
            .result()
            .artifactEstimateBytes();
    long large =
        Rendered.render(
                PlanFixture.userStatic().requestCount(640).warmup(0).write(tmp.resolve("b.json")),
                Files.createDirectories(tmp.resolve("d2")))
            .result()
            .artifactEstimateBytes();
    assertThat(large - ArtifactEstimate.FIXED_BYTES)
        .isEqualTo(10 * (small - ArtifactEstimate.FIXED_BYTES));
  }

  private static int limit(PlanFixture.Written plan) throws Exception {
    return dev.benchplan.json.Json.JSON
        .readTree(plan.path().toFile())
        .at("/experiment/measurement_limit_s")
        .asInt();
  }
}
