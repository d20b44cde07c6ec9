package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchplan.io.LineChunkReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random valid traces in varied formatting (numbers of 1 to 19 digits, field order, whitespace,
 * separators) against the naive Jackson oracle: exercises the parser's 8-bytes-at-a-time fast paths
 * and their fall-backs at every length and position.
 */
class RandomTracesTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4})
  @DisplayName("the scanner agrees with the oracle on random valid traces")
  void agreesWithOracle(long seed) throws Exception {
    Random random = new Random(seed);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      rows.add(randomRow(random));
      if (random.nextInt(50) == 0) {
        rows.add(random.nextBoolean() ? "" : " \t\r");
      }
    }
    Path trace = TraceFiles.lines(dir, rows.toArray(String[]::new));

    TraceReport r = TraceScanner.scan(trace, TraceScanOptions.defaults());
    JacksonTraceOracle oracle = JacksonTraceOracle.of(trace, 512);

    assertThat(r.problems()).isEmpty();
    assertThat(r.rows()).isEqualTo(oracle.rows());
    assertThat(r.timestampMs().min()).isEqualTo(oracle.minTimestamp());
    assertThat(r.timestampMs().max()).isEqualTo(oracle.maxTimestamp());
    for (int p : new int[] {50, 90, 95, 99}) {
      long expected = JacksonTraceOracle.percentile(oracle.inputs(), p);
      assertThat(
              p == 50
                  ? r.inputLength().p50()
                  : p == 90
                      ? r.inputLength().p90()
                      : p == 95 ? r.inputLength().p95() : r.inputLength().p99())
          .isEqualTo(expected);
    }
    assertThat(r.inputLength().max()).isEqualTo(oracle.inputs().get(oracle.inputs().size() - 1));
    assertThat(r.inputLength().mean())
        .isCloseTo(JacksonTraceOracle.mean(oracle.inputs()), within(1e-6));
    assertThat(r.outputLength().mean())
        .isCloseTo(JacksonTraceOracle.mean(oracle.outputs()), within(1e-6));
    assertThat(r.hashIds().uniqueBlocks()).isEqualTo(oracle.uniqueBlocks());
    assertThat(r.hashIds().infiniteCacheHitRate()).isCloseTo(oracle.hitRate(), within(1e-12));
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {5, 6})
  @DisplayName("an id of any length (1-19 digits) parses to the same block in every layout")
  void idsParseTheSameInEveryLayout(long seed) {
    Random random = new Random(seed);
    java.util.Set<Long> distinct = new java.util.HashSet<>();
    List<Long> ids = new ArrayList<>();
    for (int digits = 1; digits <= 19; digits++) {
      for (int k = 0; k < 20; k++) {
        long id = number(random, digits, Long.MAX_VALUE);
        if (distinct.add(id)) {
          ids.add(id);
        }
      }
    }
    List<String> rows = new ArrayList<>();
    // the fast paths (", "), then the general paths, each layout a row of the same ids
    for (String separator : List.of(", ", ",", " , ", " ,", ",\t", ",  ")) {
      StringBuilder row =
          new StringBuilder(
              "{\"input_length\": "
                  + ids.size() * 512L
                  + ", \"output_length\": 1, \"hash_ids\": [");
      for (int i = 0; i < ids.size(); i++) {
        row.append(i == 0 ? "" : separator).append(ids.get(i));
      }
      rows.add(row.append("]}").toString());
    }
    TraceReport r = TraceFiles.scan(TraceFiles.lines(dir, rows.toArray(String[]::new)));
    assertThat(r.problems()).isEmpty();
    assertThat(r.hashIds().uniqueBlocks()).isEqualTo(ids.size());
    // every row after the first hits on every block
    assertThat(r.hashIds().hitTokens()).isEqualTo(5L * ids.size() * 512);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {7, 8})
  @DisplayName(
      "rows parsed on the reader thread (ids written straight into its batch) report exactly what"
          + " the scanning thread reports: bad elements, duplicate keys, a row of 100,000 ids")
  void laneRowsAgree(long seed) throws Exception {
    Random random = new Random(seed);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      String row = randomRow(random);
      switch (random.nextInt(12)) {
        case 0 -> row = row.replace("\"hash_ids\": [", "\"hash_ids\": [-1, ");
        case 1 -> row = row.replace("\"hash_ids\": [", "\"hash_ids\": [1.5, ");
        case 2 -> row = row.replace("\"hash_ids\": [", "\"hash_ids\": [\"x\", 3, ");
        case 3 -> row = row.replace("{", "{\"hash_ids\": [9, 8], ");
        case 4 -> row = row.replace("]", ", 99999999999999999999]");
        default -> {}
      }
      rows.add(row);
      if (i == 1500) { // more ids than a batch starts with: the parser grows the batch's array
        StringBuilder big = new StringBuilder("{\"input_length\": 51200000, \"hash_ids\": [");
        for (int k = 0; k < 100_000; k++) {
          big.append(k == 0 ? "" : ", ").append(5_000_000 + k);
        }
        rows.add(big.append("]}").toString());
      }
    }
    Path trace = TraceFiles.lines(dir, rows.toArray(String[]::new));
    TraceScanOptions options = TraceScanOptions.defaults();
    TraceReport one = TraceScanner.scan(trace, options, ScanProgress.NONE, Integer.MAX_VALUE - 64);
    assertThat(one.problems()).as("the trace has bad rows").isNotEmpty();
    for (LineChunkReader.Split split : LineChunkReader.Split.values()) {
      for (int chunk : new int[] {4096, 65536}) {
        assertThat(TraceScanner.scan(trace, options, ScanProgress.NONE, chunk, split))
            .as("split %s, chunk %d", split, chunk)
            .isEqualTo(one);
      }
    }
  }

  private static String randomRow(Random random) {
    long input = number(random, 1 + random.nextInt(9), Integer.MAX_VALUE / 1000);
    input = Math.max(1, input);
    int blocks = (int) ((input + 511) / 512);
    List<String> fields = new ArrayList<>();
    fields.add(key(random, "timestamp") + number(random, 1 + random.nextInt(19), Long.MAX_VALUE));
    fields.add(key(random, "input_length") + input);
    fields.add(
        key(random, "output_length")
            + Math.max(1, number(random, 1 + random.nextInt(6), 1_000_000)));
    if (blocks <= 200) {
      StringBuilder ids = new StringBuilder("[");
      for (int j = 0; j < blocks; j++) {
        if (j > 0) {
          ids.append(List.of(",", ", ", " ,", " , ", ",\t").get(random.nextInt(5)));
        }
        ids.append(
            random.nextInt(4) == 0
                ? number(random, 1 + random.nextInt(19), Long.MAX_VALUE)
                : random.nextInt(2000));
      }
      fields.add(key(random, "hash_ids") + ids.append(random.nextBoolean() ? "]" : " ]"));
    }
    if (random.nextInt(5) == 0) {
      fields.add(key(random, "session_id") + "\"s" + random.nextInt(100) + "\"");
    }
    Collections.shuffle(fields, random);
    return (random.nextBoolean() ? "{" : "{ ")
        + String.join(random.nextBoolean() ? ", " : ",", fields)
        + (random.nextBoolean() ? "}" : " }");
  }

  private static String key(Random random, String name) {
    return "\"" + name + "\"" + List.of(":", ": ", " : ", ":  ").get(random.nextInt(4));
  }

  /** A number of about {@code digits} digits, at most {@code max}. */
  private static long number(Random random, int digits, long max) {
    long low = digits == 1 ? 0 : pow10(digits - 1);
    long high = digits >= 19 ? Long.MAX_VALUE : pow10(digits) - 1;
    long v = low + (long) (random.nextDouble() * (double) (high - low));
    return Math.min(Math.max(v, 0), max);
  }

  private static long pow10(int n) {
    long v = 1;
    for (int i = 0; i < n; i++) {
      v *= 10;
    }
    return v;
  }
}
