package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** render follows the plan's load_generator: runtime.workers and the Job's resources. */
class LoadSizingRenderTest {
  @TempDir Path tmp;

  private Rendered render(PlanFixture f, String... options) throws Exception {
    Path planDir = Files.createDirectories(tmp.resolve("plans"));
    PlanFixture.Written plan = f.write(planDir.resolve("plan.json"));
    return Rendered.render(plan, Files.createDirectories(tmp.resolve("deploy")), options);
  }

  @Test
  @DisplayName(
      "a sized point sets benchmark.runtime.workers and the container's requests and memory limit")
  void sizedPoint() throws Exception {
    Rendered r =
        render(
            PlanFixture.userStatic()
                .closedLoop(1024)
                .aiperf("0.13.0")
                .sizedPoints("concurrency=1024=11"));
    JsonNode config = r.config();
    assertThat(config.at("/benchmark/runtime/workers").asInt()).isEqualTo(11);
    // AIPerf's own count for 11 workers (one per 4), pinned so it waits for them
    assertThat(config.at("/benchmark/runtime/recordProcessors").asInt()).isEqualTo(2);
    assertThat(config.at("/benchmark/runtime/ui").asString()).isEqualTo("none");
    assertThat(Rendered.Schemas.aiperf().validate(config)).as("AIPerf config schema").isEmpty();
    JsonNode res = r.container().path("resources");
    assertThat(res.at("/requests/cpu").asString()).isEqualTo("6");
    assertThat(res.at("/requests/memory").asString()).isEqualTo("4864Mi");
    assertThat(res.at("/limits/memory").asString()).isEqualTo("9728Mi");
    assertThat(res.at("/limits/cpu").isMissingNode()).as("no CPU limit").isTrue();
    r.assertKubernetesValid();
  }

  @Test
  @DisplayName(
      "a Job measuring several points is sized for the largest; each config keeps its own workers")
  void largestPointSizesTheJob() throws Exception {
    Rendered r =
        render(
            PlanFixture.userStatic()
                .closedLoop(16, 250, 3200)
                .aiperf("0.13.0")
                .sizedPoints("concurrency=16=1", "concurrency=250=3", "concurrency=3200=32"));
    List<Integer> workers = new ArrayList<>();
    List<Integer> recordProcessors = new ArrayList<>();
    for (JsonNode doc : dev.benchplan.render.manifest.YamlDocuments.read(r.configText())) {
      workers.add(doc.at("/benchmark/runtime/workers").asInt());
      recordProcessors.add(doc.at("/benchmark/runtime/recordProcessors").asInt());
    }
    assertThat(workers).containsExactly(1, 3, 32);
    assertThat(recordProcessors).containsExactly(1, 1, 8);
    JsonNode res = r.container().path("resources");
    assertThat(res.at("/requests/cpu").asString()).isEqualTo("14");
    assertThat(res.at("/requests/memory").asString()).isEqualTo("10240Mi");
  }

  @Test
  @DisplayName("--load-point renders that point's size")
  void onePointOfAGrid() throws Exception {
    Rendered r =
        render(
            PlanFixture.userStatic()
                .closedLoop(16, 250)
                .aiperf("0.13.0")
                .sizedPoints("concurrency=16=1", "concurrency=250=3"),
            "--load-point",
            "16");
    assertThat(r.config().at("/benchmark/runtime/workers").asInt()).isEqualTo(1);
    assertThat(r.container().at("/resources/requests/cpu").asString()).isEqualTo("2");
    assertThat(r.container().at("/resources/requests/memory").asString()).isEqualTo("2304Mi");
  }

  @Test
  @DisplayName(
      "a plan written before the rule (no load_generator) renders as before: AIPerf's own worker count, 4 CPU, 8Gi")
  void unsizedPlan() throws Exception {
    Rendered r = render(PlanFixture.userStatic().aiperf("0.13.0"));
    assertThat(r.config().at("/benchmark/runtime/workers").isMissingNode()).isTrue();
    assertThat(r.config().at("/benchmark/runtime/recordProcessors").isMissingNode()).isTrue();
    assertThat(r.container().at("/resources/requests/cpu").asString()).isEqualTo("4");
    assertThat(r.container().at("/resources/requests/memory").asString()).isEqualTo("8Gi");
    assertThat(r.container().at("/resources/limits/memory").asString()).isEqualTo("16Gi");
  }
}
