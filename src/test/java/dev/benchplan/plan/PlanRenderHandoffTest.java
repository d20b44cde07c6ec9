package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** The plan -> render contract: every kind of plan `plan` writes is one `render` accepts. */
class PlanRenderHandoffTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1} {2}")
  @DisplayName("plans of every source and experiment render")
  @CsvSource(
      delimiter = '|',
      value = {
        "workload-static.yaml||",
        "workload-trace.yaml||",
        "workload-proxy.yaml||--artifacts-pvc bench-artifacts",
        "workload-static.yaml|--experiment capacity --max-concurrency 8 --measurement-mode closed_loop|",
        "workload-static.yaml|--experiment capacity --max-request-rate 4 --measurement-mode open_loop"
            + "|--load-point 2",
        "workload-trace.yaml|--trace-window 1000:300000|",
      })
  void renders(String workload, String extra, String renderExtra) throws Exception {
    java.util.List<String> args =
        new java.util.ArrayList<>(
            java.util.List.of(
                "plan",
                "--workload",
                EXAMPLES.resolve(workload).toString(),
                "--ledger",
                EXAMPLES.resolve("deployment-ledger.yaml").toString(),
                "--question",
                "Does it render?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                dir.resolve("exp").toString(),
                "--format",
                "json"));
    if (extra != null) {
      args.addAll(java.util.List.of(extra.split(" ")));
    }
    JsonNode planned =
        Json.JSON.readTree(CommandHarness.run(args.toArray(String[]::new)).expectOk().out());
    Path deployRoot = Files.createDirectories(dir.resolve("deploy"));
    java.util.List<String> render =
        new java.util.ArrayList<>(
            java.util.List.of(
                "render",
                "--plan",
                planned.get("plan_path").asString(),
                "--plan-sha256",
                planned.get("sha256").asString(),
                "--deploy-root",
                deployRoot.toString(),
                "--format",
                "json"));
    if (renderExtra != null) {
      render.addAll(java.util.List.of(renderExtra.split(" ")));
    }
    var r = CommandHarness.run(render.toArray(String[]::new)).expectOk();
    assertThat(deployRoot.resolve("benchmark/perf.yaml")).isRegularFile();
    assertThat(r.out()).contains(planned.get("series_id").asString().substring(0, 10));
  }
}
