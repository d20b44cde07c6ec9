package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.diagnostics.RunWriter;
import dev.benchplan.diagnostics.SimulatedRun;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * gate on an AIPerf directory with per-request records: the diagnostics' findings in the verdict.
 */
class GateDiagnosticsTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "one worker in eight stalled: the verdict (schema-valid) carries the finding, the exit code is unchanged")
  void stall() throws Exception {
    Path dir =
        RunWriter.write(
            tmp.resolve("stalled"),
            SimulatedRun.closedLoop(
                17,
                64,
                1000,
                8,
                (w, r) ->
                    w == 3 ? 20_000 + 20_000 * r.nextDouble() : 300 * (0.8 + 0.4 * r.nextDouble())),
            64);
    var r =
        CommandHarness.run(
                "gate", "--results", dir.toString(), "--min-throughput", "1000", "--format", "json")
            .expectOk();
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(out)).isEmpty();
    assertThat(out.get("verdict").asString()).isEqualTo("pass");
    assertThat(out.get("findings")).hasSize(1);
    JsonNode f = out.get("findings").get(0);
    assertThat(f.get("kind").asString()).isEqualTo("suspected_stalled_worker");
    assertThat(f.get("severity").asString()).isEqualTo("warning");
    assertThat(f.get("figures").get("slow_share").asDouble()).isBetween(0.12, 0.13);
    assertThat(f.get("rule").asString()).isEqualTo("benchmarking/stall-diagnosis.md");
    var text =
        CommandHarness.run("gate", "--results", dir.toString(), "--min-throughput", "1000")
            .expectOk();
    assertThat(text.out())
        .contains("finding: suspected_stalled_worker (warning): suspected stalled worker: 12.")
        .contains("  recommendation: repeat the measurement");
  }

  @Test
  @DisplayName(
      "64 claimed, 40 achieved: an error naming the load generator and the fix (exit 3), never a gate failure")
  void clientBound() throws Exception {
    Path dir =
        RunWriter.write(
            tmp.resolve("bound"),
            SimulatedRun.closedLoop(7, 40, 1000, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble())),
            64);
    var r =
        CommandHarness.run(
                "gate",
                "--results",
                dir.resolve("profile_export_aiperf.json").toString(),
                "--min-throughput",
                "1e9",
                "--format",
                "json")
            .expectExit(3);
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(out)).isEmpty();
    assertThat(out.get("verdict").asString()).isEqualTo("error");
    assertThat(out.get("message").asString())
        .contains("load generator (AIPerf)")
        .contains("Fix: give the load generator")
        .contains("agent-docs/rules/benchmarking/client-bound.md");
    assertThat(out.get("findings").get(0).get("signals").get(0).asString())
        .isEqualTo("in_flight_below_concurrency");
    // the constraint result stays on record, failed, but the verdict is the error
    assertThat(out.get("constraints").get(0).get("status").asString()).isEqualTo("fail");
  }

  @Test
  @DisplayName("64 claimed and 64 achieved: no finding, the gate decides")
  void fine() throws Exception {
    Path dir =
        RunWriter.write(
            tmp.resolve("fine"),
            SimulatedRun.closedLoop(7, 64, 1000, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble())),
            64);
    var r =
        CommandHarness.run(
                "gate", "--results", dir.toString(), "--min-throughput", "1000", "--format", "json")
            .expectOk();
    assertThat(Json.JSON.readTree(r.out()).get("findings")).isEmpty();
  }
}
