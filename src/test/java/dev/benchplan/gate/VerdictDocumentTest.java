package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ErrorCount;
import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.diagnostics.FindingKind;
import dev.benchplan.json.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The verdict document is a typed record written by Jackson: the key order, the null/absent keys
 * and the number forms schemas/verdict.schema.json and earlier verdict.json files have.
 */
class VerdictDocumentTest {
  static final List<String> TOP_LEVEL =
      List.of(
          "schema_version",
          "verdict",
          "message",
          "constraints",
          "ignored_constraints",
          "constraints_source",
          "requests",
          "warnings",
          "findings",
          "source");

  /**
   * A grid of two load points with a finding, a one-point tree, and a verdict with every request
   * field.
   */
  static List<Verdict> samples() {
    return List.of(grid(), onePoint(), requestsInFull());
  }

  static Verdict grid() {
    AiperfExport real = AiperfExportReader.read(ExportVariants.real());
    Verdict pass =
        GateEvaluator.evaluate(
            real,
            ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35")),
            GateOptions.defaults());
    Verdict fail =
        GateEvaluator.evaluate(
            real,
            ConstraintReader.fromFlags(new BigDecimal("5000"), new BigDecimal("200")),
            GateOptions.defaults());
    RunVerdicts runs =
        RunVerdicts.of(
            List.of(
                new RunVerdicts.Entry("16", "concurrency", null, "concurrency16", pass, null, null),
                new RunVerdicts.Entry("32", "concurrency", 2, "concurrency32", fail, null, null)));
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put("requests", 3.0);
    figures.put("share", 0.125);
    figures.put("third", 1.0 / 3);
    figures.put("huge", 1e16);
    Finding stall =
        new Finding(
            FindingKind.SUSPECTED_STALLED_WORKER,
            "concurrency32",
            "one worker in eight stalled",
            List.of("ttft_split"),
            figures,
            List.of("a log line"),
            "look at the worker");
    return GateEvaluator.withFindings(runs.overall("/runs/r/aiperf"), List.of(stall));
  }

  static Verdict onePoint() {
    AiperfExport real = AiperfExportReader.read(ExportVariants.real());
    Verdict pass =
        GateEvaluator.evaluate(
            real,
            ConstraintReader.fromFlags(new BigDecimal("50"), new BigDecimal("35")),
            GateOptions.defaults());
    return RunVerdicts.of(List.of(new RunVerdicts.Entry(null, null, null, "", pass, null, null)))
        .overall("/runs/r/aiperf");
  }

  static Verdict requestsInFull() {
    return new Verdict(
        Status.FAIL,
        "fail: request error rate 2% is above the maximum 1%",
        List.of(),
        List.of("inference-foo: unknown constraint"),
        "flags",
        new RequestSummary(
            new BigDecimal("100.0"),
            new BigDecimal("2"),
            new BigDecimal("0.020"),
            new BigDecimal("0.01"),
            Status.FAIL,
            List.of(
                new ErrorCount(null, "Timeout", null, 1),
                new ErrorCount(500, "Internal", "boom", 1))),
        new VerdictSource(
            "/runs/r/profile_export_aiperf.json", "ab".repeat(32), "0.3.0", "flat", "1", true),
        List.of("a warning"));
  }

  private static List<String> keys(JsonNode o) {
    return new ArrayList<>(o.propertyNames());
  }

  @Test
  @DisplayName("a verdict on one export: the schema's keys in order, no runs and no capacity")
  void oneExport() {
    JsonNode printed =
        Json.JSON.readTree(Json.JSON.writeValueAsString(requestsInFull().document()));
    assertThat(keys(printed)).containsExactlyElementsOf(TOP_LEVEL);
    assertThat(keys(printed.get("requests")))
        .containsExactly(
            "total", "errors", "error_rate", "max_error_rate", "status", "error_summary");
    assertThat(printed.at("/requests/error_summary/0/code").isNull()).isTrue();
    assertThat(keys(printed.at("/requests/error_summary/0")))
        .containsExactly("code", "type", "message", "count");
    assertThat(keys(printed.get("source")))
        .containsExactly(
            "path", "sha256", "aiperf_version", "layout", "schema_version", "was_cancelled");
  }

  @Test
  @DisplayName(
      "numbers: integral values as integers (100, not 100.0), others without trailing zeros, in the"
          + " file and in --format json alike")
  void numbers() {
    Verdict v = requestsInFull();
    String printed = Json.JSON.writeValueAsString(v.document());
    String file =
        new String(VerdictReports.verdictBytes(v), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(printed).contains("\"total\" : 100,").contains("\"error_rate\" : 0.02,");
    assertThat(file).contains("\"total\": 100\n").contains("\"error_rate\": 0.02,");
    assertThat(printed + file).doesNotContain("100.0").doesNotContain("0.020");
  }

  @Test
  @DisplayName(
      "a grid: runs[] per measured run and the capacity after source; finding figures as counts or"
          + " 16 significant digits; the file validates against the schema")
  void gridDocument() {
    Verdict v = grid();
    JsonNode printed = Json.JSON.readTree(Json.JSON.writeValueAsString(v.document()));
    List<String> expected = new ArrayList<>(TOP_LEVEL);
    expected.addAll(List.of("runs", "capacity"));
    assertThat(keys(printed)).containsExactlyElementsOf(expected);
    assertThat(keys(printed.at("/runs/0")))
        .containsExactly(
            "load_point",
            "parameter",
            "repetition",
            "directory",
            "verdict",
            "message",
            "constraints",
            "requests",
            "warnings",
            "source");
    assertThat(printed.at("/runs/0/repetition").isNull()).isTrue();
    assertThat(printed.at("/runs/1/repetition").asInt()).isEqualTo(2);
    assertThat(printed.at("/capacity/load_point").asString()).isEqualTo("16");
    assertThat(printed.at("/capacity/load_points")).hasSize(2);
    JsonNode figures = printed.at("/findings/0/figures");
    assertThat(figures.get("requests").isIntegralNumber()).isTrue();
    assertThat(figures.get("requests").asLong()).isEqualTo(3);
    assertThat(figures.get("share").decimalValue()).isEqualByComparingTo("0.125");
    assertThat(figures.get("third").asString()).isEqualTo("0.3333333333333333");
    assertThat(figures.get("huge").toString()).isEqualTo("10000000000000000");
    JsonNode file = Json.JSON.readTree(VerdictReports.verdictBytes(v));
    assertThat(VerdictReportsTest.SCHEMA.validate(file)).isEmpty();
    assertThat(file.get("runs")).isEqualTo(printed.get("runs"));
  }

  @Test
  @DisplayName("a tree of one load point: runs[] and capacity null")
  void onePointTree() {
    JsonNode file = Json.JSON.readTree(VerdictReports.verdictBytes(onePoint()));
    assertThat(file.get("runs")).hasSize(1);
    assertThat(file.has("capacity")).isTrue();
    assertThat(file.get("capacity").isNull()).isTrue();
    assertThat(VerdictReportsTest.SCHEMA.validate(file)).isEmpty();
  }
}
