package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * issue 20 item 4: gate applies plan's percentile sample rule (rules/PercentileSamples) and says so
 * in every report, without changing the verdict.
 */
class GateSampleWarningsTest {
  @TempDir Path tmp;

  private Verdict gate(String requestCount) {
    var tree =
        ExportVariants.withStat(ExportVariants.realTree(), "request_count", "avg", requestCount);
    AiperfExport e =
        AiperfExportReader.read(ExportVariants.write(tmp, "e" + System.nanoTime() + ".json", tree));
    // thresholds the real export meets: throughput >= 50 tokens/s, TTFT p99 <= 35 ms
    return GateEvaluator.evaluate(
        e,
        ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35")),
        GateOptions.defaults());
  }

  @Test
  @DisplayName(
      "a p99 on the real export's 64 requests passes with a warning giving the count, in"
          + " JSON, CTRF and JUnit; the verdict document still matches its schema")
  void p99OnSixtyFour() {
    Verdict v = gate("64");
    assertThat(v.verdict()).isEqualTo(Status.PASS);
    assertThat(v.warnings())
        .singleElement()
        .asString()
        .contains("inference-ttft-p99")
        .contains("p99")
        .contains("64 measured requests")
        .contains("at least 100");
    JsonNode json = Json.JSON.readTree(VerdictReports.verdictBytes(v));
    assertThat(json.get("warnings").get(0).asString()).isEqualTo(v.warnings().get(0));
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(json)).isEmpty();
    ReportTiming timing =
        new ReportTiming(
            Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-01T00:00:01Z"));
    JsonNode ctrf = CtrfReport.toJson(v, timing);
    assertThat(ctrf.at("/results/extra/warnings/0").asString()).isEqualTo(v.warnings().get(0));
    String junit = new String(JunitReport.toXml(v, timing), StandardCharsets.UTF_8);
    assertThat(junit).contains("name=\"warning.1\"").contains("64 measured requests");
  }

  @ParameterizedTest(name = "{0} requests -> {1}")
  @DisplayName("fewer than 100: too few; fewer than 10 beyond the p99: few beyond; 1000: silent")
  @CsvSource({
    "64, 64 measured requests, 0.64 beyond the p99",
    "99, 99 measured requests, at least 100",
    "100, 1 beyond the p99, fewer than 10",
    "999, 9.99 beyond the p99, 1000 requests",
  })
  void levels(String count, String first, String second) {
    assertThat(gate(count).warnings()).singleElement().asString().contains(first).contains(second);
  }

  @Test
  @DisplayName(
      "1,000 requests put 10 beyond a p99: no warning; the JSON still carries an empty list")
  void enough() {
    Verdict v = gate("1000");
    assertThat(v.warnings()).isEmpty();
    assertThat(v.document().warnings()).isEmpty();
    JsonNode written = Json.JSON.readTree(VerdictReports.verdictBytes(v));
    assertThat(written.get("warnings").isArray()).isTrue();
    assertThat(written.get("warnings").size()).isZero();
  }

  @Test
  @DisplayName(
      "gate on the real export (64 requests) with a p99 constraint: exit 0, and the text and"
          + " JSON outputs carry the warning with the count")
  void command() {
    String export = ExportVariants.real().toString();
    var text =
        dev.benchplan.testing.CommandHarness.run(
                "gate", "--results", export, "--min-throughput", "50", "--max-ttft-p99", "35")
            .expectOk();
    assertThat(text.out())
        .contains(
            "warning: constraint inference-ttft-p99 (p99) rests on 64" + " measured requests");
    var json =
        dev.benchplan.testing.CommandHarness.run(
                "gate",
                "--results",
                export,
                "--min-throughput",
                "50",
                "--max-ttft-p99",
                "35",
                "--format",
                "json")
            .expectOk();
    assertThat(Json.JSON.readTree(json.out()).toString()).contains("rests on 64 measured requests");
  }
}
