package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.lines;
import static dev.benchplan.trace.TraceFiles.row;
import static dev.benchplan.trace.TraceFiles.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.benchplan.error.BenchplanException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prefix reuse, context limit, window and percentiles through the whole scanner. */
class TraceStatisticsTest {
  @TempDir Path dir;

  private static String hashed(long t, long input, long... ids) {
    StringBuilder s =
        new StringBuilder(
            "{\"timestamp\": "
                + t
                + ", \"input_length\": "
                + input
                + ", \"output_length\": 10, \"hash_ids\": [");
    for (int i = 0; i < ids.length; i++) {
      s.append(i == 0 ? "" : ", ").append(ids[i]);
    }
    return s.append("]}").toString();
  }

  @Test
  @DisplayName("every block repeating: the hit rate approaches 1 (all but the first row hit)")
  void allBlocksRepeat() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      rows.add(hashed(i, 1024, 7, 8));
    }
    TraceReport r = scan(lines(dir, rows.toArray(String[]::new)));
    assertThat(r.valid()).isTrue();
    assertThat(r.hashIds().uniqueBlocks()).isEqualTo(2);
    assertThat(r.hashIds().rowsWithHashIds()).isEqualTo(1000);
    assertThat(r.hashIds().infiniteCacheHitRate()).isEqualTo(999.0 / 1000.0);
    assertThat(r.hashIds().hitTokens()).isEqualTo(999L * 1024);
  }

  @Test
  @DisplayName("no block ever repeating (nor repeating inside one row): hit rate 0")
  void noBlockRepeats() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(hashed(i, 1500, 3L * i, 3L * i + 1, 3L * i + 2));
    }
    TraceReport r = scan(lines(dir, rows.toArray(String[]::new)));
    assertThat(r.hashIds().infiniteCacheHitRate()).isZero();
    assertThat(r.hashIds().uniqueBlocks()).isEqualTo(300);
  }

  @Test
  @DisplayName("hit tokens: a hit last block counts its partial size; repeats inside a row miss")
  void partialBlocksAndInRowRepeats() {
    TraceReport r =
        scan(
            lines(
                dir,
                hashed(0, 700, 1, 2), // 512 + 188 tokens, all new
                hashed(1, 600, 1, 2), // both hit: 512 + 88
                hashed(2, 1100, 5, 5, 1))); // 5 twice in one row: not a hit; 1 hits with 76 tokens
    assertThat(r.hashIds().hashedTokens()).isEqualTo(700 + 600 + 1100);
    assertThat(r.hashIds().hitTokens()).isEqualTo(512 + 88 + 76);
    assertThat(r.hashIds().infiniteCacheHitRate()).isCloseTo(676.0 / 2400, within(1e-15));
  }

  @Test
  @DisplayName("huge, sparse block ids (beyond the bitset) are counted exactly")
  void largeIds() {
    TraceReport r =
        scan(
            lines(
                dir,
                hashed(0, 1024, 0, Long.MAX_VALUE),
                hashed(1, 1024, 2147483648L, Long.MAX_VALUE),
                hashed(2, 1024, 2147483647L, 0)));
    assertThat(r.hashIds().uniqueBlocks()).isEqualTo(4);
    assertThat(r.hashIds().hitTokens()).isEqualTo(512 + 512);
  }

  @Test
  @DisplayName("no hash ids at all: rate null, zero counts")
  void noHashIds() {
    TraceReport r = scan(lines(dir, row(0, 5, 5)));
    assertThat(r.hashIds().infiniteCacheHitRate()).isNull();
    assertThat(r.hashIds().rowsWithHashIds()).isZero();
    assertThat(r.toJson().get("hash_ids").get("infinite_cache_hit_rate").isNull()).isTrue();
  }

  @Test
  @DisplayName("--max-context counts rows over the limit and lists the first 10 lines, drops none")
  void contextLimit() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      rows.add(row(i, i % 2 == 0 ? 4000 : 100, 97)); // even rows: 4097 tokens
    }
    rows.add("{\"timestamp\": 30, \"input_length\": 4000}"); // no output: 4000, fits
    Path trace = lines(dir, rows.toArray(String[]::new));
    TraceReport r = TraceScanner.scan(trace, TraceScanOptions.defaults().withMaxContext(4096L));
    assertThat(r.valid()).isTrue();
    assertThat(r.rows()).isEqualTo(31);
    assertThat(r.inputLength().count()).isEqualTo(31);
    assertThat(r.context().limit()).isEqualTo(4096);
    assertThat(r.context().rowsOverLimit()).isEqualTo(15);
    assertThat(r.context().firstOverLimitLines())
        .containsExactly(1L, 3L, 5L, 7L, 9L, 11L, 13L, 15L, 17L, 19L);

    TraceReport exact = TraceScanner.scan(trace, TraceScanOptions.defaults().withMaxContext(4097L));
    assertThat(exact.context().rowsOverLimit()).isZero();
  }

  @Test
  @DisplayName(
      "window: rows whose timestamp lies in [start, end], inclusive; open bounds; the"
          + " window's lengths, rate and rows over the context are its own rows', beside the whole"
          + " trace's")
  void window() {
    Path trace =
        lines(dir, row(0, 5, 5), row(100, 50, 5), row(200, 7, 5), row(300, 90, 5), row(150, 60, 6));
    TraceReport r =
        TraceScanner.scan(
            trace, TraceScanOptions.defaults().withWindow(100L, 200L).withMaxContext(20L));
    TraceReport.WindowSummary w = r.window();
    assertThat(w.rows()).isEqualTo(3);
    assertThat(w.firstMs()).isEqualTo(100L);
    assertThat(w.lastMs()).isEqualTo(200L);
    assertThat(w.spanMs()).isEqualTo(100L);
    assertThat(w.requestsPerSecond()).isEqualTo(30.0);
    assertThat(w.inputLength().count()).isEqualTo(3);
    assertThat(w.inputLength().max()).isEqualTo(60L);
    assertThat(w.inputLength().min()).isEqualTo(7L);
    assertThat(w.outputLength().max()).isEqualTo(6L);
    assertThat(w.context().rowsOverLimit()).isEqualTo(2);
    assertThat(w.context().firstOverLimitLines()).containsExactly(2L, 5L);
    assertThat(r.context().rowsOverLimit()).isEqualTo(3); // the whole trace: lines 2, 4 and 5
    assertThat(r.toJson().get("window").get("rows").asLong()).isEqualTo(3);
    assertThat(r.toJson().at("/window/context/rows_over_limit").asLong()).isEqualTo(2);
    assertThat(r.toJson().at("/context/rows_over_limit").asLong()).isEqualTo(3);
    TraceReport.WindowSummary empty =
        TraceScanner.scan(trace, TraceScanOptions.defaults().withWindow(400L, 500L)).window();
    assertThat(empty.rows()).isZero();
    assertThat(empty.firstMs()).isNull();
    assertThat(empty.requestsPerSecond()).isNull();
    assertThat(
            TraceScanner.scan(trace, TraceScanOptions.defaults().withWindow(200L, null))
                .window()
                .rows())
        .isEqualTo(2);
    assertThat(scan(trace).window()).isNull();
    assertThat(scan(trace).toJson().has("window")).isFalse();
  }

  @Test
  @DisplayName("bad options are invalid input naming the option")
  void badOptions() {
    assertThatThrownBy(() -> new TraceScanOptions(0, null, null, null))
        .isInstanceOf(BenchplanException.class)
        .hasMessage("--block-size: expected a positive number of tokens, got 0");
    assertThatThrownBy(() -> new TraceScanOptions(512, 0L, null, null))
        .hasMessage("--max-context: expected a positive number of tokens, got 0");
    assertThatThrownBy(() -> new TraceScanOptions(512, null, 10L, 5L))
        .hasMessage("window: expected start <= end, got start 10 ms, end 5 ms")
        .extracting(e -> ((BenchplanException) e).location())
        .isEqualTo(dev.benchplan.error.ErrorLocation.option("--window"));
    assertThatThrownBy(() -> new TraceScanOptions(512, null, -1L, null))
        .extracting(e -> ((BenchplanException) e).location().field())
        .isEqualTo("--window");
  }

  @Test
  @DisplayName("percentiles through the scanner: n = 101 input lengths 1..101 in reverse order")
  void percentilesThroughScanner() {
    List<String> rows = new ArrayList<>();
    for (int i = 101; i >= 1; i--) {
      rows.add(row(101 - i, i, 1));
    }
    TraceReport r = scan(lines(dir, rows.toArray(String[]::new)));
    assertThat(r.inputLength().p50()).isEqualTo(51);
    assertThat(r.inputLength().p90()).isEqualTo(91);
    assertThat(r.inputLength().p95()).isEqualTo(96);
    assertThat(r.inputLength().p99()).isEqualTo(100);
    assertThat(r.inputLength().mean()).isEqualTo(51.0);
    assertThat(r.outputLength().p99()).isEqualTo(1);
  }
}
