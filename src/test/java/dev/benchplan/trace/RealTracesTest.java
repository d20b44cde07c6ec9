package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchplan.io.LineChunkReader;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.SharedData;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The scanner on the real third-party traces in ../shared/data. */
class RealTracesTest {

  @ParameterizedTest(name = "{0}: {1} rows, mean input {2} / output {3} as Mooncake publishes")
  @CsvSource({
    "mooncake/conversation_trace.jsonl, 12031, 12035, 343",
    "mooncake/synthetic_trace.jsonl, 3993, 15325, 149"
  })
  void mooncakeTraces(String file, long rows, long meanInput, long meanOutput) throws Exception {
    Path trace = SharedData.require(file);

    TraceReport report = TraceScanner.scan(trace, TraceScanOptions.defaults());

    assertThat(report.valid()).as("problems: %s", report.problems()).isTrue();
    assertThat(report.rows()).isEqualTo(rows);
    assertThat(report.blankLines()).isZero();
    assertThat(Math.round(report.inputLength().mean())).isEqualTo(meanInput);
    assertThat(Math.round(report.outputLength().mean())).isEqualTo(meanOutput);
    assertThat(report.sha256()).isEqualTo(Sha256.ofFile(trace));
    assertThat(report.bytes()).isEqualTo(java.nio.file.Files.size(trace));
    assertThat(report.timestampMs().presentRows()).isEqualTo(rows);
    assertThat(report.hashIds().rowsWithHashIds()).isEqualTo(rows);
    assertThat(report.hashIds().blockRuleViolations()).isZero();

    JacksonTraceOracle oracle = JacksonTraceOracle.of(trace, 512);
    assertThat(report.rows()).isEqualTo(oracle.rows());
    assertLengths(report.inputLength(), oracle.inputs());
    assertLengths(report.outputLength(), oracle.outputs());
    assertThat(report.hashIds().uniqueBlocks()).isEqualTo(oracle.uniqueBlocks());
    assertThat(report.hashIds().infiniteCacheHitRate()).isCloseTo(oracle.hitRate(), within(1e-12));
    assertThat(report.timestampMs().min()).isEqualTo(oracle.minTimestamp());
    assertThat(report.timestampMs().max()).isEqualTo(oracle.maxTimestamp());
    assertThat(report.timestampMs().span())
        .isEqualTo(oracle.maxTimestamp() - oracle.minTimestamp());
  }

  @ParameterizedTest(name = "{0}, chunks of {1} bytes")
  @CsvSource({
    "mooncake/conversation_trace.jsonl, 4096",
    "mooncake/conversation_trace.jsonl, 65536",
    "mooncake/conversation_trace.jsonl, 1000003",
    "mooncake/synthetic_trace.jsonl, 77777",
    "aiperf/production_trace.jsonl, 97",
  })
  @DisplayName(
      "the reader thread's lane (chunks the scanning thread has not reached parsed there, replayed"
          + " in order) gives exactly the one-chunk report, whichever thread parses which chunk")
  void parallelLaneAgrees(String file, int chunk) throws Exception {
    Path trace = SharedData.require(file);
    TraceScanOptions options =
        TraceScanOptions.defaults().withMaxContext(40960L).withWindow(100_000L, 900_000L);
    TraceReport one = TraceScanner.scan(trace, options, ScanProgress.NONE, Integer.MAX_VALUE - 64);
    for (LineChunkReader.Split split : LineChunkReader.Split.values()) {
      TraceReport chunked = TraceScanner.scan(trace, options, ScanProgress.NONE, chunk, split);
      assertThat(chunked).as("split %s", split).isEqualTo(one);
    }
  }

  @Test
  @DisplayName(
      "issue 20: the conversation trace's window 0:1500000 replays 4,673 rows, 265 of them"
          + " over a 40,960-token context (574 in the whole trace)")
  void conversationWindow() throws Exception {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");

    TraceReport r =
        TraceScanner.scan(
            trace, TraceScanOptions.defaults().withMaxContext(40960L).withWindow(0L, 1_500_000L));

    assertThat(r.rows()).isEqualTo(12031);
    assertThat(r.context().rowsOverLimit()).isEqualTo(574);
    TraceReport.WindowSummary w = r.window();
    assertThat(w.rows()).isEqualTo(4673);
    assertThat(w.context().rowsOverLimit()).isEqualTo(265);
    assertThat(w.inputLength().count()).isEqualTo(4673);
    assertThat(w.outputLength().count()).isEqualTo(4673);
    // the window's figures against an independent reading of the same rows
    java.util.List<Long> inputs = new java.util.ArrayList<>();
    long over = 0;
    long last = Long.MIN_VALUE;
    for (String line : java.nio.file.Files.readAllLines(trace)) {
      tools.jackson.databind.JsonNode row = dev.benchplan.json.Json.JSON.readTree(line);
      long t = row.get("timestamp").asLong();
      if (t <= 1_500_000L) {
        long in = row.get("input_length").asLong();
        inputs.add(in);
        over += in + row.get("output_length").asLong() > 40960 ? 1 : 0;
        last = Math.max(last, t);
      }
    }
    java.util.Collections.sort(inputs);
    assertLengths(w.inputLength(), inputs);
    assertThat(over).isEqualTo(265);
    assertThat(w.lastMs()).isEqualTo(last);
    assertThat(w.requestsPerSecond()).isCloseTo(4673 * 1000.0 / (last - w.firstMs()), within(1e-9));
  }

  private static void assertLengths(TraceReport.LengthSummary s, java.util.List<Long> sorted) {
    assertThat(s.count()).isEqualTo(sorted.size());
    assertThat(s.min()).isEqualTo(sorted.get(0));
    assertThat(s.max()).isEqualTo(sorted.get(sorted.size() - 1));
    assertThat(s.mean()).isCloseTo(JacksonTraceOracle.mean(sorted), within(1e-9));
    assertThat(s.p50()).isEqualTo(JacksonTraceOracle.percentile(sorted, 50));
    assertThat(s.p90()).isEqualTo(JacksonTraceOracle.percentile(sorted, 90));
    assertThat(s.p95()).isEqualTo(JacksonTraceOracle.percentile(sorted, 95));
    assertThat(s.p99()).isEqualTo(JacksonTraceOracle.percentile(sorted, 99));
  }

  @Test
  @DisplayName("the conversation trace spans about 59 minutes and reuses prefixes")
  void conversationShape() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    TraceReport report = TraceScanner.scan(trace, TraceScanOptions.defaults());
    assertThat(report.timestampMs().span()).isBetween(58 * 60_000L, 60 * 60_000L);
    assertThat(report.hashIds().infiniteCacheHitRate()).isBetween(0.1, 0.9);
  }

  @Test
  @DisplayName(
      "AIPerf's production_trace.jsonl: line 3 breaks the block rule, named with its field")
  void aiperfProductionTraceBreaksTheBlockRule() {
    Path trace = SharedData.require("aiperf/production_trace.jsonl");

    TraceReport report = TraceScanner.scan(trace, TraceScanOptions.defaults());

    assertThat(report.valid()).isFalse();
    assertThat(report.hashIds().blockRuleViolations()).isEqualTo(1);
    assertThat(report.problems()).hasSize(1);
    TraceProblem p = report.problems().get(0);
    assertThat(p.line()).isEqualTo(3);
    assertThat(p.field()).isEqualTo("hash_ids");
    assertThat(p.message()).contains("input_length 1024").contains("expected 1..512");
  }

  @Test
  @DisplayName("small chunks give the same report as large ones (lines across chunk borders)")
  void chunkBordersDoNotChangeTheReport() {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    TraceReport big = TraceScanner.scan(trace, TraceScanOptions.defaults());
    for (int chunk : new int[] {997, 4093, 65536}) {
      TraceReport small =
          TraceScanner.scan(trace, TraceScanOptions.defaults(), ScanProgress.NONE, chunk);
      assertThat(small).as("chunk size %d", chunk).isEqualTo(big);
    }
  }
}
