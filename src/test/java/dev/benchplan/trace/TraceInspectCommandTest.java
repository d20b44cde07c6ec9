package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.lines;
import static dev.benchplan.trace.TraceFiles.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code benchplan trace inspect}: exit codes, the JSON key contract, the text summary. */
class TraceInspectCommandTest {
  @TempDir Path dir;

  private static List<String> keys(JsonNode node) {
    List<String> keys = new ArrayList<>();
    node.propertyNames().forEach(keys::add);
    return keys;
  }

  @Test
  @DisplayName("--format json on a valid trace: exit 0, one document with the contract's keys")
  void jsonContract() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    var r =
        CommandHarness.run(
                "trace", "inspect", trace.toString(), "--format", "json", "--max-context", "32768")
            .expectOk();
    assertThat(r.err()).isEmpty();
    JsonNode json = Json.JSON.readTree(r.out());
    assertThat(keys(json))
        .containsSubsequence(
            "path",
            "sha256",
            "bytes",
            "rows",
            "blank_lines",
            "timestamp_ms",
            "input_length",
            "output_length",
            "hash_ids",
            "context",
            "problems_total",
            "problems");
    assertThat(keys(json.get("timestamp_ms")))
        .contains("present_rows", "min", "max", "span", "non_monotonic_rows");
    for (String lengths : List.of("input_length", "output_length")) {
      assertThat(keys(json.get(lengths)))
          .contains("min", "max", "mean", "p50", "p90", "p95", "p99");
    }
    assertThat(keys(json.get("hash_ids")))
        .contains(
            "block_size",
            "rows_with_hash_ids",
            "unique_blocks",
            "block_rule_violations",
            "infinite_cache_hit_rate");
    assertThat(keys(json.get("context")))
        .contains("limit", "rows_over_limit", "first_over_limit_lines");
    assertThat(json.get("rows").asLong()).isEqualTo(12031);
    assertThat(json.get("sha256").asString())
        .isEqualTo("b8cbb061a85206d729d91cdc2981f43c9e0d99209dce588d3af5f7934408b9df");
    assertThat(json.get("context").get("limit").asLong()).isEqualTo(32768);
    assertThat(json.get("context").get("rows_over_limit").asLong()).isPositive();
    assertThat(json.get("context").get("first_over_limit_lines")).hasSizeBetween(1, 10);
    assertThat(json.get("problems_total").asLong()).isZero();
    assertThat(json.get("problems").isArray()).isTrue();
    assertThat(json.has("window")).isFalse();
  }

  @Test
  @DisplayName(
      "--window: the window's rows, rate, lengths and rows over --max-context-length"
          + " beside the whole trace's, in JSON and text")
  void window() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    var r =
        CommandHarness.run(
                "trace",
                "inspect",
                trace.toString(),
                "--format",
                "json",
                "--max-context-length",
                "40960",
                "--window",
                "0:1500000")
            .expectOk();
    JsonNode json = Json.JSON.readTree(r.out());
    assertThat(json.at("/context/rows_over_limit").asLong()).isEqualTo(574);
    assertThat(json.at("/window/start_ms").asLong()).isZero();
    assertThat(json.at("/window/end_ms").asLong()).isEqualTo(1_500_000);
    assertThat(json.at("/window/rows").asLong()).isEqualTo(4673);
    assertThat(json.at("/window/context/rows_over_limit").asLong()).isEqualTo(265);
    assertThat(json.at("/window/context/limit").asLong()).isEqualTo(40960);
    assertThat(json.at("/window/requests_per_s").asDouble()).isBetween(3.0, 3.2);
    assertThat(keys(json.get("window")))
        .containsExactly(
            "start_ms",
            "end_ms",
            "rows",
            "first_ms",
            "last_ms",
            "span_ms",
            "requests_per_s",
            "input_length",
            "output_length",
            "context");

    var text =
        CommandHarness.run(
                "trace",
                "inspect",
                trace.toString(),
                "--max-context-length",
                "40960",
                "--window",
                "0:1500000")
            .expectOk();
    assertThat(text.out())
        .contains("whole trace:\n")
        .contains("context   574 rows over 40,960 tokens")
        .contains("window 0 .. 1,500,000 ms (the rows a replay sends):\nrows      4,673 of 12,031")
        .contains("context   265 rows over 40,960 tokens");
  }

  @Test
  @DisplayName("--window that is not START_MS:END_MS: exit 2 naming the option")
  void badWindow() {
    var r = CommandHarness.run("trace", "inspect", "whatever.jsonl", "--window", "5:1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .contains("--window: trace window must satisfy 0 <= START_MS <= END_MS," + " got 5:1");
    assertThat(r.out()).isEmpty();
  }

  @Test
  @DisplayName("problems: exit 2 and the report still printed (json and text)")
  void invalidTraceExit2() {
    Path trace = SharedData.require("aiperf/production_trace.jsonl");
    var json =
        CommandHarness.run("trace", "inspect", "--format=json", trace.toString()).expectExit(2);
    JsonNode doc = Json.JSON.readTree(json.out());
    assertThat(doc.get("problems_total").asLong()).isEqualTo(1);
    assertThat(doc.get("problems").get(0).get("line").asLong()).isEqualTo(3);
    assertThat(doc.get("problems").get(0).get("field").asString()).isEqualTo("hash_ids");

    var text = CommandHarness.run("trace", "inspect", trace.toString()).expectExit(2);
    assertThat(text.out())
        .contains("problems  1: the trace is INVALID")
        .contains("line 3: hash_ids: 3 hash ids for input_length 1024");
  }

  @Test
  @DisplayName("text: rows, span, ISL/OSL distribution, prefix reuse, problems")
  void textSummary() {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    var r =
        CommandHarness.run("trace", "inspect", trace.toString(), "--block-size", "512").expectOk();
    assertThat(r.out().lines().map(l -> l.split("\\s+")[0]).toList())
        .containsExactly(
            "trace",
            "sha256",
            "size",
            "rows",
            "span",
            "input",
            "output",
            "prefix",
            "context",
            "problems");
    assertThat(r.out())
        .contains("rows      3,993 (0 blank lines)")
        .contains("span      0 .. 1,022,025 ms (17m02s) on 3,993 rows; 0 going backwards")
        .containsPattern("input +mean 15,325\\.5 +p50 [0-9,]+ +p90")
        .containsPattern("output +mean 149\\.1 ")
        .contains(
            "43,924 unique 512-token blocks; infinite-cache hit rate 65.1%; block-rule violations: 0")
        .contains("problems  none: the trace is valid");
  }

  @Test
  @DisplayName("the listing is capped: the text says how many of how many are shown")
  void textCap() {
    String[] rows = new String[150];
    java.util.Arrays.fill(rows, "{\"input_length\": -1}");
    var r = CommandHarness.run("trace", "inspect", lines(dir, rows).toString()).expectExit(2);
    assertThat(r.out()).contains("problems  150 (first 100 listed): the trace is INVALID");
    assertThat(r.out().lines().filter(l -> l.startsWith("  line ")).count()).isEqualTo(100);
  }

  @Test
  @DisplayName("a missing file: exit 2 with a one-line error naming it, nothing on stdout")
  void missingFile() {
    Path missing = dir.resolve("absent.jsonl");
    var r = CommandHarness.run("trace", "inspect", missing.toString()).expectExit(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "benchplan: "
                + missing
                + ": cannot read the trace: no such file"
                + System.lineSeparator());
  }

  @Test
  @DisplayName("bad options: exit 2 naming the option")
  void badOptions() {
    Path trace = lines(dir, row(0, 5, 5));
    CommandHarness.run("trace", "inspect", trace.toString(), "--block-size", "0")
        .expectError(
            2,
            "Invalid value for option '--block-size': '0' is out of range; expected a whole number"
                + " from 1 to 10000000");
    CommandHarness.run("trace", "inspect", trace.toString(), "--max-context", "x")
        .expectError(
            2,
            "Invalid value for option '--max-context-length': 'x' is not a whole number; expected a"
                + " whole number from 1 to 10000000");
    CommandHarness.run("trace", "inspect").expectError(2, "Missing required parameter: 'TRACE'");
  }

  @Test
  @DisplayName("no progress on stderr when it is not a terminal")
  void noProgressOffTerminal() {
    Path trace = lines(dir, row(0, 5, 5));
    assertThat(CommandHarness.run("trace", "inspect", trace.toString()).expectOk().err()).isEmpty();
  }
}
