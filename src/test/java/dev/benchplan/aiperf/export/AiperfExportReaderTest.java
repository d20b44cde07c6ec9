package dev.benchplan.aiperf.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class AiperfExportReaderTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "the real export (top-level tags, nulls, telemetry) parses with exact values and its SHA-256")
  void realExport() {
    Path real = ExportVariants.real();
    AiperfExport e = AiperfExportReader.read(real);
    assertThat(e.layout()).isEqualTo(ExportLayout.TOP_LEVEL);
    assertThat(e.sha256()).isEqualTo(Sha256.ofFile(real));
    assertThat(e.aiperfVersion()).isNull();
    assertThat(e.wasCancelled()).isFalse();
    assertThat(e.errorSummary()).isEmpty();
    assertThat(e.startTime()).isEqualTo("2025-11-07T13:38:54.793124");
    MetricSummary ttft = e.metric("time_to_first_token").orElseThrow();
    assertThat(ttft.unit()).isEqualTo("ms");
    assertThat(ttft.stat("p99")).contains(new BigDecimal("34.344268879999994"));
    assertThat(ttft.pointer()).isEqualTo("/time_to_first_token");
    assertThat(e.metric("output_token_throughput").orElseThrow().stat("avg"))
        .contains(new BigDecimal("50.08213863971112"));
    assertThat(e.metric("output_token_throughput").orElseThrow().stat("p99")).isEmpty();
    // null metric blocks are absent, never zero; telemetry and input_config are not metrics
    assertThat(e.metric("goodput")).isEmpty();
    assertThat(e.metric("error_request_count")).isEmpty();
    assertThat(e.metric("telemetry_data")).isEmpty();
    assertThat(e.metric("input_config")).isEmpty();
    assertThat(e.requestCount()).contains(new BigDecimal("64.0"));
    assertThat(e.errorRequestCount()).isEqualByComparingTo("0");
  }

  @Test
  @DisplayName("AIPerf 0.1.1's records.<tag> layout gives the same metrics as the top-level layout")
  void recordsLayout() {
    ObjectNode records = ExportVariants.asRecordsLayout(ExportVariants.realTree());
    AiperfExport e = AiperfExportReader.read(ExportVariants.write(tmp, "records.json", records));
    AiperfExport real = AiperfExportReader.read(ExportVariants.real());
    assertThat(e.layout()).isEqualTo(ExportLayout.RECORDS);
    assertThat(e.metrics().keySet()).isEqualTo(real.metrics().keySet());
    assertThat(e.metric("time_to_first_token").orElseThrow().stats())
        .isEqualTo(real.metric("time_to_first_token").orElseThrow().stats());
    assertThat(e.metric("time_to_first_token").orElseThrow().pointer())
        .isEqualTo("/records/time_to_first_token");
    assertThat(e.requestCount()).isEqualTo(real.requestCount());
  }

  @Test
  @DisplayName("the versioned layout: schema_version, aiperf_version, count and sum are read")
  void versionedLayout() {
    ObjectNode v = ExportVariants.asVersionedLayout(ExportVariants.realTree(), "0.13.0");
    AiperfExport e = AiperfExportReader.read(ExportVariants.write(tmp, "v.json", v));
    assertThat(e.layout()).isEqualTo(ExportLayout.VERSIONED);
    assertThat(e.schemaVersion()).isEqualTo("1.3");
    assertThat(e.aiperfVersion()).isEqualTo("0.13.0");
    MetricSummary ttft = e.metric("time_to_first_token").orElseThrow();
    assertThat(ttft.stat("count")).map(BigDecimal::intValueExact).contains(64);
    assertThat(ttft.stat("sum").orElseThrow())
        .isEqualByComparingTo(new BigDecimal("30.814987671875").multiply(new BigDecimal("64")));
  }

  @Test
  @DisplayName("a stat written as null or left out is absent, not zero")
  void nullAndMissingStats() {
    ObjectNode t = ExportVariants.realTree();
    ((ObjectNode) t.get("time_to_first_token")).putNull("p99");
    ((ObjectNode) t.get("request_latency")).remove("p95");
    AiperfExport e = AiperfExportReader.read(ExportVariants.write(tmp, "n.json", t));
    assertThat(e.metric("time_to_first_token").orElseThrow().stat("p99")).isEmpty();
    assertThat(e.metric("time_to_first_token").orElseThrow().stat("p90")).isPresent();
    assertThat(e.metric("request_latency").orElseThrow().stat("p95")).isEmpty();
  }

  @Test
  @DisplayName(
      "failed requests: error_request_count and error_summary are read; the larger count wins")
  void errors() {
    ObjectNode t = ExportVariants.realTree();
    t.putObject("error_request_count").put("unit", "requests").put("avg", 3.0);
    ObjectNode entry = t.putArray("error_summary").addObject();
    entry
        .putObject("error_details")
        .put("code", 503)
        .put("type", "ServiceUnavailable")
        .put("message", "busy");
    entry.put("count", 3);
    AiperfExport e = AiperfExportReader.read(ExportVariants.write(tmp, "e.json", t));
    assertThat(e.errorRequestCount()).isEqualByComparingTo("3");
    assertThat(e.errorSummary())
        .containsExactly(new ErrorCount(503, "ServiceUnavailable", "busy", 3));
    assertThat(e.errorSummary().get(0).describe()).isEqualTo("503 ServiceUnavailable: busy");

    t.remove("error_request_count");
    AiperfExport onlySummary = AiperfExportReader.read(ExportVariants.write(tmp, "e2.json", t));
    assertThat(onlySummary.errorRequestCount()).isEqualByComparingTo("3");
  }

  @Test
  @DisplayName("was_cancelled is read")
  void cancelled() {
    ObjectNode t = ExportVariants.realTree();
    t.put("was_cancelled", true);
    assertThat(AiperfExportReader.read(ExportVariants.write(tmp, "c.json", t)).wasCancelled())
        .isTrue();
  }

  @Test
  @DisplayName("malformed exports are invalid input naming the file and the JSON pointer")
  void malformed() throws Exception {
    Path notJson = Files.writeString(tmp.resolve("bad.json"), "{\"a\": 1,\n \"b\": }");
    assertThatThrownBy(() -> AiperfExportReader.read(notJson))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "AIPerf export "
                + notJson
                + ":2:7: not valid JSON: unexpected character '}'; expected a JSON value"
                + " (object, array, string, number, true, false or null)")
        .satisfies(ex -> assertThat(((BenchplanException) ex).exitCode()).isEqualTo(2));

    Path array = Files.writeString(tmp.resolve("array.json"), "[1, 2]");
    assertThatThrownBy(() -> AiperfExportReader.read(array))
        .hasMessage(
            "AIPerf export "
                + array
                + ": an array at the top level; expected AIPerf's"
                + " profile_export_aiperf.json object");

    Path noMetrics = Files.writeString(tmp.resolve("none.json"), "{\"input_config\": {}}");
    assertThatThrownBy(() -> AiperfExportReader.read(noMetrics))
        .hasMessage(
            noMetrics
                + ": /: no AIPerf metrics found: expected metric blocks {\"unit\": ...,"
                + " \"avg\": ...} as top-level keys (AIPerf 0.2+) or under \"records\""
                + " (AIPerf 0.1.x)");

    ObjectNode t = ExportVariants.realTree();
    ((ObjectNode) t.get("time_to_first_token")).put("p99", "fast");
    Path stat = ExportVariants.write(tmp, "stat.json", t);
    assertThatThrownBy(() -> AiperfExportReader.read(stat))
        .hasMessage(
            stat
                + ": /time_to_first_token/p99: expected a number or null, found the"
                + " string \"fast\"");

    ObjectNode u = ExportVariants.realTree();
    ((ObjectNode) u.get("time_to_first_token")).put("unit", 5);
    Path unit = ExportVariants.write(tmp, "unit.json", u);
    assertThatThrownBy(() -> AiperfExportReader.read(unit))
        .hasMessage(
            unit
                + ": /time_to_first_token/unit: expected the metric's unit as a string,"
                + " found the number 5");

    ObjectNode c = ExportVariants.realTree();
    c.put("was_cancelled", "no");
    Path cancelled = ExportVariants.write(tmp, "cancel.json", c);
    assertThatThrownBy(() -> AiperfExportReader.read(cancelled))
        .hasMessage(
            cancelled + ": /was_cancelled: expected true or false, found the string \"no\"");

    ObjectNode s = ExportVariants.realTree();
    s.putArray("error_summary").addObject().put("count", -1);
    Path summary = ExportVariants.write(tmp, "summary.json", s);
    assertThatThrownBy(() -> AiperfExportReader.read(summary))
        .hasMessage(
            summary
                + ": /error_summary/0/count: expected a non-negative integer count of"
                + " failed requests");

    Path missing = tmp.resolve("nope.json");
    assertThatThrownBy(() -> AiperfExportReader.read(missing))
        .hasMessage(missing + ": AIPerf export not found");
  }

  @Test
  @DisplayName("a summary taken from bytes (a pod log) is named by its source and hashed as given")
  void fromBytes() throws Exception {
    byte[] bytes = Files.readAllBytes(ExportVariants.real());
    AiperfExport e = AiperfExportReader.parse(bytes, Path.of("pod.log#summary"));
    assertThat(e.path()).isEqualTo(Path.of("pod.log#summary"));
    assertThat(e.sha256()).isEqualTo(Sha256.hex(bytes));
    byte[] changed =
        new String(bytes, StandardCharsets.UTF_8)
            .replace("50.08213863971112", "51.0")
            .getBytes(StandardCharsets.UTF_8);
    assertThat(
            AiperfExportReader.parse(changed, Path.of("x"))
                .metric("output_token_throughput")
                .orElseThrow()
                .stat("avg"))
        .contains(new BigDecimal("51.0"));
    assertThat(Json.JSON).isNotNull();
  }
}
