package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * analyze of what the real AIPerf 0.11 writes (../shared/data/aiperf/real-0.11.0-tiny: a real run
 * against llama-server with the tiny model, concurrency 2, 2 warmup and 20 profiling requests).
 */
class RealAiperf011AnalyzeTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "a real 0.11 run: its load point named, ISL/OSL checked against the workload, no unit"
          + " warned about, the warmup phase understood, the client load judged")
  void analyzesARealAiperf011Run() throws Exception {
    Path run = SharedData.require("aiperf/real-0.11.0-tiny/profile_export_aiperf.json").getParent();
    Path out = tmp.resolve("out");
    var r =
        CommandHarness.run(
                "analyze",
                run.toString(),
                "--exp-root",
                tmp.resolve("exp").toString(),
                "--report-dir",
                out.toString(),
                "--format",
                "json")
            .expectOk();
    JsonNode o = Json.JSON.readTree(r.out());
    assertThat(o.path("runs").get(0).path("load_point").asString()).isEqualTo("concurrency=2");
    AnalyzeCommandTest.assertSchemas(out);

    Path auditFile;
    try (Stream<Path> s = Files.walk(out.resolve("runs"))) {
      auditFile =
          s.filter(p -> p.getFileName().toString().equals("benchmark_audit.json"))
              .findFirst()
              .orElseThrow();
    }
    Map<String, JsonNode> checks = new HashMap<>();
    for (JsonNode c : Json.JSON.readTree(Files.readAllBytes(auditFile)).path("checks")) {
      checks.put(c.path("id").asString(), c);
    }
    assertThat(checks.get("units").path("status").asString()).isEqualTo("pass");
    assertThat(checks.get("units").path("detail").asString())
        .isEqualTo("every unit known and consistent");
    JsonNode shape = checks.get("isl_osl_vs_workload");
    assertThat(shape.path("status").asString()).isIn("pass", "warn");
    assertThat(shape.path("detail").asString())
        .contains("(workload 32.0)")
        .contains("(workload 16.0)");
    assertThat(checks.get("warmup_separated").path("status").asString()).isEqualTo("pass");
    assertThat(checks.get("warmup_separated").path("detail").asString())
        .contains("2 warmup requests ran in AIPerf's warmup phase");
    assertThat(checks.get("request_counts").path("detail").asString()).contains("20 configured");
    // the load target is known, so the client-load check judges the run (20 requests of ~5 ms on a
    // busy 2-core machine: it may well find AIPerf itself the bottleneck, which is its job)
    assertThat(checks.get("client_bound").path("status").asString()).isNotEqualTo("not_checked");
    assertThat(checks.get("client_bound").path("detail").asString())
        .contains("concurrency 2")
        .doesNotContain("no load target");
  }
}
