package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * validate's plan and render, without a cluster: AICR's load lands in the plan and
 * aiperf-config.yaml.
 */
class AiperfBenchmarkRunnerTest {
  @TempDir Path dir;

  @Test
  @DisplayName(
      "AICR's load rendered: 256/GPU x 8 GPUs = 2048, 16,384 requests, 2048 warmup, ISL=OSL=128 stddev 0,"
          + " ignore_eos, 100 entries, seed 100, temperature 0")
  void aicrLoadRendered() throws Exception {
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    ValidateRun run = ValidateRun.start(clock.instant());
    ValidateOptions options =
        ValidateOptions.builder(dir.resolve("report")).aiperfVersion("0.11.0").build();
    FrontendTarget target =
        new FrontendTarget(
            "discovered",
            "team-a",
            "vllm-agg",
            "uid-1",
            "nvidia.com/v1alpha1",
            "vllm-agg-frontend",
            8000,
            "name",
            "Qwen/Qwen3-8B",
            "recipe",
            4,
            null);
    BenchmarkShape shape = BenchmarkShape.perGpu(4, 8, 256, 128, 128);
    ObjectNode dgd = Json.JSON.createObjectNode();
    dgd.putObject("metadata").put("name", "vllm-agg").put("namespace", "team-a");
    ValidateInputs inputs = ValidateInputs.resolve(options, RecipeSettings.none(), false);
    BenchmarkRunner.BenchmarkRequest req =
        new BenchmarkRunner.BenchmarkRequest(
            run,
            options,
            target,
            shape,
            PerformanceRequest.defaults(),
            dgd,
            "H100",
            dir.resolve("work"),
            new CreatedObjects(),
            inputs);
    AiperfBenchmarkRunner runner =
        new AiperfBenchmarkRunner(
            h -> {
              throw new AssertionError("no run here");
            },
            clock,
            Map.of());

    BenchmarkRunner.PlannedBenchmark planned = runner.plan(req);
    JsonNode plan = Json.JSON.readTree(Files.readString(planned.planPath()));
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(16_384);
    assertThat(plan.at("/experiment/warmup_requests").asInt()).isEqualTo(2048);
    assertThat(plan.at("/experiment/seed").asLong()).isEqualTo(100);
    assertThat(plan.at("/workload/synthetic/dataset_entries").asInt()).isEqualTo(100);
    assertThat(plan.at("/workload/synthetic/temperature").asDouble()).isZero();
    assertThat(plan.at("/workload/synthetic/isl_stddev").asInt()).isZero();

    BenchmarkRunner.RenderedBenchmark rendered = runner.render(req, planned);
    JsonNode config =
        Json.YAML.readTree(
            Files.readString(
                rendered.deployRoot().resolve("benchmark").resolve("aiperf-config.yaml")));
    assertThat(config.path("randomSeed").asLong()).isEqualTo(100);
    JsonNode b = config.path("benchmark");
    assertThat(b.at("/endpoint/extra/temperature").asDouble()).isZero();
    assertThat(b.at("/endpoint/extra/temperature").isMissingNode()).isFalse();
    assertThat(b.at("/endpoint/extra/ignore_eos").asBoolean()).isTrue();
    assertThat(b.at("/endpoint/streaming").asBoolean()).isTrue();
    assertThat(b.at("/dataset/entries").asInt()).isEqualTo(100);
    assertThat(b.at("/dataset/prompts/isl/mean").asInt()).isEqualTo(128);
    assertThat(b.at("/dataset/prompts/isl/stddev").asInt()).isZero();
    assertThat(b.at("/dataset/prompts/osl/mean").asInt()).isEqualTo(128);
    assertThat(b.at("/dataset/prompts/osl/stddev").asInt()).isZero();
    JsonNode warmup = b.path("phases").get(0);
    JsonNode profiling = b.path("phases").get(1);
    assertThat(warmup.path("name").asString()).isEqualTo("warmup");
    assertThat(warmup.path("requests").asInt()).isEqualTo(2048);
    assertThat(profiling.path("concurrency").asInt()).isEqualTo(2048);
    assertThat(profiling.path("requests").asInt()).isEqualTo(16_384);

    // the Job's readiness: each request may take 120 s by default, above the ~45 s first completion
    // of a
    // fresh worker AICR measured (the old 30 s cut never let it finish); ValidateAicrIT runs it
    // scaled down
    assertThat(ValidateTimeouts.defaults().readyRequest())
        .isEqualTo(java.time.Duration.ofSeconds(120))
        .isGreaterThan(java.time.Duration.ofSeconds(45));
    String perf = Files.readString(rendered.perfYaml());
    assertThat(perf)
        .containsPattern("name: BENCHPLAN_READY_REQUEST_TIMEOUT_SECONDS\\s+value: \"120\"");
  }
}
