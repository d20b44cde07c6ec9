package dev.benchplan.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.diagnostics.RequestTimeline;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte-level pass ({@link RecordScanner#bytes}) against the Jackson passes it replaced: on
 * every input, {@link RecordScanner#scan} gives exactly what the Jackson stream (and, when that
 * gives up, the line-by-line pass) gives, down to the last bit of every value and the first problem
 * named; and on clean input the byte-level pass takes the file itself.
 */
class RecordScannerTest {
  @TempDir Path dir;

  private static final String META =
      "\"metadata\": {\"session_num\": 0, \"x_request_id\": \"%s\", \"x_correlation_id\":"
          + " \"c-1\", \"conversation_id\": null, \"turn_index\": 0, \"request_start_ns\": %d,"
          + " \"request_ack_ns\": 1, \"request_end_ns\": %d, \"worker_id\": \"w\","
          + " \"benchmark_phase\": \"%s\", \"was_cancelled\": %s, \"cancellation_time_ns\": null}";

  /** A record line shaped like AIPerf's, with the given metrics and error JSON. */
  private static String record(
      String id,
      long start,
      long end,
      String phase,
      boolean cancelled,
      String metrics,
      String err) {
    return "{"
        + String.format(META, id, start, end, phase, cancelled)
        + ", \"metrics\": {"
        + metrics
        + "}, \"error\": "
        + err
        + "}";
  }

  private static String metric(String tag, String value, String unit) {
    return "\"" + tag + "\": {\"value\": " + value + ", \"unit\": \"" + unit + "\"}";
  }

  private static String clean(int i, SplittableRandom r) {
    double ttft = 20 + 80 * r.nextDouble();
    double itl = 9 + 2 * r.nextDouble();
    StringBuilder icl = new StringBuilder("[");
    for (int k = 0; k < 1 + r.nextInt(20); k++) {
      icl.append(k == 0 ? "" : ", ").append(itl * (0.9 + 0.2 * r.nextDouble()));
    }
    icl.append("]");
    long start = 1_762_551_534_797_067_827L + i * 10_000_000L;
    return record(
        "req-" + i,
        start,
        start + (long) (ttft * 1e6) + 5_000_000,
        "profiling",
        false,
        String.join(
            ", ",
            metric("output_sequence_length", String.valueOf(1 + r.nextInt(300)), "tokens"),
            metric("input_sequence_length", "100", "tokens"),
            metric("time_to_first_token", String.valueOf(ttft), "ms"),
            metric("time_to_second_token", String.valueOf(itl), "ms"),
            metric("request_latency", String.valueOf(ttft + 200 * itl), "ms"),
            metric("inter_token_latency", String.valueOf(itl), "ms"),
            metric(
                "output_token_throughput_per_user", String.valueOf(1000 / itl), "tokens/sec/user"),
            metric("inter_chunk_latency", icl.toString(), "ms")),
        "null");
  }

  /** Clean records with one line replaced by each variant (the case's name says what). */
  static Stream<Arguments> variants() {
    String base = clean(99, new SplittableRandom(7));
    String m = "\"metrics\": {";
    return Stream.of(
        Arguments.of("clean", base),
        Arguments.of("warmup", base.replace("\"profiling\"", "\"warmup\"")),
        Arguments.of("other phase", base.replace("\"profiling\"", "\"cooldown\"")),
        Arguments.of("phase null", base.replace("\"profiling\"", "null")),
        Arguments.of("phase escaped", base.replace("\"profiling\"", "\"warm\\u0075p\"")),
        Arguments.of(
            "cancelled", base.replace("\"was_cancelled\": false", "\"was_cancelled\": true")),
        Arguments.of(
            "cancelled 1", base.replace("\"was_cancelled\": false", "\"was_cancelled\": 1")),
        Arguments.of(
            "cancelled object",
            base.replace("\"was_cancelled\": false", "\"was_cancelled\": {\"a\": 1}")),
        Arguments.of("duplicate id", base.replace("req-99", "req-3")),
        Arguments.of("id null", base.replace("\"req-99\"", "null")),
        Arguments.of("id number", base.replace("\"req-99\"", "99")),
        Arguments.of("id object", base.replace("\"req-99\"", "{\"x_request_id\": \"req-3\"}")),
        Arguments.of("id list", base.replace("\"req-99\"", "[\"req-3\"]")),
        Arguments.of("id escaped", base.replace("\"req-99\"", "\"req-\\u0033\"")),
        Arguments.of("id unicode", base.replace("\"req-99\"", "\"r\u00e9q-\u4e2d-\uD83D\uDE00\"")),
        Arguments.of(
            "error object",
            base.replace(
                "\"error\": null",
                "\"error\": {\"code\": 500, \"type\": \"InternalServerError\", \"message\": \"boom \\\"x\\\" \u00e9\"}")),
        Arguments.of(
            "error string code",
            base.replace("\"error\": null", "\"error\": {\"code\": \"E1\", \"type\": \"T\"}")),
        Arguments.of(
            "error negative code",
            base.replace("\"error\": null", "\"error\": {\"code\": -0, \"type\": \"T\"}")),
        Arguments.of(
            "error big code",
            base.replace(
                "\"error\": null", "\"error\": {\"code\": 123456789012345, \"type\": \" T \"}")),
        Arguments.of(
            "error float code",
            base.replace("\"error\": null", "\"error\": {\"code\": 5.5, \"type\": \"T\"}")),
        Arguments.of(
            "error null code",
            base.replace("\"error\": null", "\"error\": {\"code\": null, \"type\": \"T\"}")),
        Arguments.of(
            "error null type", base.replace("\"error\": null", "\"error\": {\"type\": null}")),
        Arguments.of(
            "error number type",
            base.replace("\"error\": null", "\"error\": {\"type\": 7, \"code\": 1}")),
        Arguments.of("error empty", base.replace("\"error\": null", "\"error\": {}")),
        Arguments.of(
            "error blank type", base.replace("\"error\": null", "\"error\": {\"type\": \"  \"}")),
        Arguments.of(
            "error only code", base.replace("\"error\": null", "\"error\": {\"code\": 404}")),
        Arguments.of(
            "error twice type",
            base.replace("\"error\": null", "\"error\": {\"type\": \"A\", \"type\": \"B\"}")),
        Arguments.of("error string", base.replace("\"error\": null", "\"error\": \"timeout\"")),
        Arguments.of("error false", base.replace("\"error\": null", "\"error\": false")),
        Arguments.of("error list", base.replace("\"error\": null", "\"error\": [1, {\"a\": []}]")),
        Arguments.of("negative value", base.replace("\"value\": 100,", "\"value\": -100,")),
        Arguments.of("minus zero", base.replace("\"value\": 100,", "\"value\": -0,")),
        Arguments.of("minus zero float", base.replace("\"value\": 100,", "\"value\": -0.0,")),
        Arguments.of("negative in list", base.replace("\"value\": [", "\"value\": [-1.5e-3, ")),
        Arguments.of("minus zero in list", base.replace("\"value\": [", "\"value\": [-0, -0.0, ")),
        Arguments.of("huge in list", base.replace("\"value\": [", "\"value\": [1e400, -1e400, ")),
        Arguments.of("overflow value", base.replace("\"value\": 100,", "\"value\": 1e400,")),
        Arguments.of("NaN value", base.replace("\"value\": 100,", "\"value\": NaN,")),
        Arguments.of(
            "Infinity in list", base.replace("\"value\": [", "\"value\": [Infinity, -Infinity, ")),
        Arguments.of("exponents", base.replace("\"value\": 100,", "\"value\": 1.25E+2,")),
        Arguments.of(
            "long mantissa",
            base.replace("\"value\": 100,", "\"value\": 31.742933999999998123456789,")),
        Arguments.of(
            "big integer",
            base.replace("\"value\": 100,", "\"value\": 123456789012345678901234567890,")),
        Arguments.of(
            "19 digits", base.replace("\"value\": 100,", "\"value\": 9223372036854775807,")),
        Arguments.of("tiny", base.replace("\"value\": 100,", "\"value\": 4.9e-324,")),
        Arguments.of("leading zero", base.replace("\"value\": 100,", "\"value\": 0100,")),
        Arguments.of("leading plus", base.replace("\"value\": 100,", "\"value\": +100,")),
        Arguments.of("trailing dot", base.replace("\"value\": 100,", "\"value\": 100.,")),
        Arguments.of("value string", base.replace("\"value\": 100,", "\"value\": \"100\",")),
        Arguments.of("value null", base.replace("\"value\": 100,", "\"value\": null,")),
        Arguments.of("value object", base.replace("\"value\": 100,", "\"value\": {\"v\": 1},")),
        Arguments.of(
            "nested lists",
            base.replace("\"value\": [", "\"value\": [[1, [-2]], \"x\", null, true, {}, ")),
        Arguments.of("seconds", base.replace("\"unit\": \"ms\"", "\"unit\": \"s\"")),
        Arguments.of(
            "unknown unit", base.replace("\"unit\": \"tokens\"", "\"unit\": \"furlongs\"")),
        Arguments.of(
            "unit escaped", base.replace("\"unit\": \"tokens\"", "\"unit\": \"tok\\u0065ns\"")),
        Arguments.of("unit unicode", base.replace("\"unit\": \"tokens\"", "\"unit\": \"\u00b5s\"")),
        Arguments.of("unit number", base.replace("\"unit\": \"tokens\"", "\"unit\": 5")),
        Arguments.of(
            "metric twice", base.replace(m, m + metric("time_to_first_token", "1", "s") + ", ")),
        Arguments.of("metric not object", base.replace(m, m + "\"time_to_first_token\": 5, ")),
        Arguments.of(
            "tag escaped",
            base.replace("\"time_to_first_token\"", "\"time_to_first_t\\u006fken\"")),
        Arguments.of("tag unicode", base.replace("\"time_to_first_token\"", "\"t\u00efme\"")),
        Arguments.of("metrics null", base.replace(m, "\"metrics\": null, \"m\": {")),
        Arguments.of("no metadata", base.replace("\"metadata\"", "\"meta\"")),
        Arguments.of(
            "metadata list", base.replace("\"metadata\": {", "\"metadata\": [], \"x\": {")),
        Arguments.of(
            "metadata twice",
            base.replace(
                "{\"metadata\"", "{\"metadata\": {\"x_request_id\": \"a\"}, \"metadata\"")),
        Arguments.of("start missing", base.replace("\"request_start_ns\"", "\"request_begin_ns\"")),
        Arguments.of(
            "start float", base.replace("\"request_start_ns\": 1", "\"request_start_ns\": 1.0")),
        Arguments.of(
            "start string",
            base.replace("\"request_start_ns\": ", "\"request_start_ns\": \"1\", \"z\": ")),
        Arguments.of(
            "start big",
            base.replace("\"request_start_ns\": 1", "\"request_start_ns\": 99999999999999999999")),
        Arguments.of(
            "start negative", base.replace("\"request_start_ns\": 1", "\"request_start_ns\": -1")),
        Arguments.of(
            "end before start", base.replace("\"request_end_ns\": 1", "\"request_end_ns\": 0")),
        Arguments.of(
            "end null",
            base.replace("\"request_end_ns\": 1", "\"request_end_ns\": null, \"q\": 1")),
        Arguments.of(
            "extra fields",
            base.replace(
                "{\"metadata\"", "{\"x\": {\"y\": [1, 2.5e3, \"\\n\\t\\\\\"]}, \"metadata\"")),
        Arguments.of("spaces", " \t" + base.replace(": ", " :\t").replace(", ", " ,  ") + " \t "),
        Arguments.of("compact", base.replace(": ", ":").replace(", ", ",")),
        Arguments.of("crlf", base + "\r"),
        Arguments.of("lone cr", base.replace(", \"error\"", ",\r\"error\"")),
        Arguments.of("cr at end", base + " \r "),
        Arguments.of("blank line", "  \t"),
        Arguments.of("blank crlf", " \r"),
        Arguments.of("empty line", ""),
        Arguments.of("two objects", base + " " + base),
        Arguments.of("garbage after", base + " x"),
        Arguments.of("not an object", "[1, 2]"),
        Arguments.of("number line", "5"),
        Arguments.of("truncated", base.substring(0, base.length() / 2)),
        Arguments.of("split over lines", base.replace(", \"metrics\"", ",\n\"metrics\"")),
        Arguments.of("control char", base.replace("req-99", "req\u000199")),
        Arguments.of("tab in string", base.replace("req-99", "req\t99")),
        Arguments.of("bad escape", base.replace("req-99", "req\\q99")),
        Arguments.of("nul byte", base.replace("req-99", "req-\u0000")),
        Arguments.of("trailing comma", base.replace("\"error\": null}", "\"error\": null,}")),
        Arguments.of("single quotes", base.replace("\"error\"", "'error'")),
        Arguments.of("comment", base + " // c"),
        Arguments.of(
            "deep",
            base.replace(
                "\"error\": null", "\"error\": null, \"d\": " + "[".repeat(80) + "]".repeat(80))),
        Arguments.of(
            "deeper than Jackson",
            base.replace(
                "\"error\": null", "\"error\": null, \"d\": " + "[".repeat(600) + "]".repeat(600))),
        Arguments.of("long string", base.replace("\"c-1\"", "\"" + "c".repeat(2_000_000) + "\"")),
        Arguments.of("long name", base.replace("\"worker_id\"", "\"" + "w".repeat(60_000) + "\"")),
        Arguments.of("empty objects", "{\"metadata\": {}, \"metrics\": {}, \"error\": null}"),
        Arguments.of("only metadata", "{\"metadata\": {}}"),
        Arguments.of("empty object", "{}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  @DisplayName("each kind of line, good or bad, gives exactly what the Jackson passes give")
  void variantMatchesJackson(String name, String variant) throws IOException {
    SplittableRandom r = new SplittableRandom(3);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      lines.add(i == 6 ? variant : clean(i, r));
    }
    Path file = write(String.join("\n", lines) + "\n");
    assertSameAsJackson(file);
    // the variant as the first and as the last line (without a final newline)
    lines.set(6, clean(6, r));
    lines.set(0, variant);
    assertSameAsJackson(write(String.join("\n", lines) + "\n"));
    lines.set(0, clean(0, r));
    lines.set(lines.size() - 1, variant);
    assertSameAsJackson(write(String.join("\n", lines)));
  }

  @ParameterizedTest(name = "chunks of {0} bytes")
  @ValueSource(ints = {3, 7, 100, 1000, 4096, RecordScanner.CHUNK})
  @DisplayName(
      "a clean file is read by the byte-level pass alone, in chunks of any size, to Jackson's"
          + " values")
  void cleanFileAnyChunk(int chunk) throws IOException {
    SplittableRandom r = new SplittableRandom(11);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      sb.append(clean(i, r)).append(i % 50 == 7 ? "\n\n" : "\n");
    }
    Path file = write(sb.toString());
    RecordScan fast = RecordScanner.bytes(file, chunk);
    assertThat(fast).as("the byte-level pass took the file").isNotNull();
    assertThat(describe(fast)).isEqualTo(describe(jackson(file)));
    assertThat(fast.sha256()).isEqualTo(Sha256.ofFile(file));
    assertThat(fast.successes()).isEqualTo(300);
  }

  @Test
  @DisplayName(
      "units that change partway (back and forth, more than 20 times) are reported as the Jackson"
          + " pass reports them")
  void changingUnits() throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    StringBuilder sb = new StringBuilder();
    String ttftMs = "\"time_to_first_token\": {\"value\": ";
    for (int i = 0; i < 60; i++) {
      String line = clean(i, r);
      if (i >= 5 && i % 3 != 0) {
        // the same metric, now in seconds; every third line back in milliseconds
        int at = line.indexOf(ttftMs);
        int unit = line.indexOf("\"ms\"", at);
        line = line.substring(0, unit) + "\"s\"" + line.substring(unit + 4);
      }
      if (i == 40) {
        line = line.replace("\"tokens/sec/user\"", "\"furlongs\"");
      }
      sb.append(line).append('\n');
    }
    Path file = write(sb.toString());
    assertSameAsJackson(file);
    RecordScan fast = RecordScanner.bytes(file, RecordScanner.CHUNK);
    assertThat(fast).isNotNull();
    assertThat(fast.unitProblems())
        .hasSize(20)
        .allMatch(
            p ->
                p.equals("time_to_first_token: unit \"s\" differs from \"ms\" in earlier records"));
  }

  @Test
  @DisplayName("random mixes of the variants give exactly what the Jackson passes give")
  void randomMixes() throws IOException {
    List<String> kinds = variants().map(a -> (String) a.get()[1]).toList();
    SplittableRandom r = new SplittableRandom(5);
    for (int round = 0; round < 40; round++) {
      StringBuilder sb = new StringBuilder();
      int n = 5 + r.nextInt(20);
      for (int i = 0; i < n; i++) {
        String line = r.nextInt(4) == 0 ? kinds.get(r.nextInt(kinds.size())) : clean(i, r);
        if (line.length() > 100_000) {
          line = clean(i, r);
        }
        sb.append(line).append('\n');
      }
      Path file = write(sb.toString());
      RecordScan expected = jackson(file);
      for (int chunk : new int[] {1 + r.nextInt(300), RecordScanner.CHUNK}) {
        RecordScan fast = RecordScanner.bytes(file, chunk);
        RecordScan got = fast != null ? fast : jackson(file);
        assertThat(describe(got))
            .as("round %d, chunk %d", round, chunk)
            .isEqualTo(describe(expected));
      }
    }
  }

  @Test
  @DisplayName("the real AIPerf records give exactly what the Jackson passes give")
  void realRecords() throws IOException {
    for (String f :
        List.of(
            "aiperf/profile_export.jsonl",
            "aiperf/sweep-qwen3-0.6b/concurrency1/profile_export.jsonl",
            "aiperf/sweep-qwen3-0.6b/concurrency2/profile_export.jsonl",
            "aiperf/sweep-qwen3-0.6b/concurrency4/profile_export.jsonl")) {
      Path file = SharedData.require(f);
      RecordScan fast = RecordScanner.bytes(file, RecordScanner.CHUNK);
      assertThat(fast).as(f).isNotNull();
      assertThat(describe(fast)).as(f).isEqualTo(describe(jackson(file)));
      assertThat(fast.profiling()).as(f).isEqualTo(10);
    }
  }

  @Test
  @DisplayName(
      "invalid UTF-8 in a kept or a skipped string gives exactly what the Jackson passes give")
  void invalidUtf8() throws IOException {
    SplittableRandom r = new SplittableRandom(9);
    for (String target : List.of("req-5", "c-1", "tokens")) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 8; i++) {
        sb.append(clean(i, r)).append('\n');
      }
      byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
      String text = new String(bytes, StandardCharsets.ISO_8859_1);
      int at = text.indexOf(target) + 1;
      bytes[at] = (byte) 0xC3; // a two-byte lead followed by an ASCII byte
      Path file = Files.createTempFile(dir, "utf8", ".jsonl");
      Files.write(file, bytes);
      assertSameAsJackson(file);
    }
  }

  /** {@code n} successful profiling records, one per line. */
  private static String lines(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(
              record(
                  "r-" + i,
                  1_000L * i,
                  1_000L * i + 500,
                  "profiling",
                  false,
                  metric("time_to_first_token", String.valueOf(10.5 + i), "ms"),
                  "null"))
          .append('\n');
    }
    return sb.toString();
  }

  private void assertSameAsJackson(Path file) throws IOException {
    String expected = describe(jackson(file));
    assertThat(describe(RecordScanner.scan(file))).isEqualTo(expected);
    // tiny chunks put every line across chunk ends (a long line in 64 KiB ones: fast enough)
    int[] chunks = Files.size(file) > 100_000 ? new int[] {65_536} : new int[] {1, 13, 256};
    for (int chunk : chunks) {
      RecordScan fast = RecordScanner.bytes(file, chunk);
      if (fast != null) {
        assertThat(describe(fast)).as("chunks of %d", chunk).isEqualTo(expected);
      }
    }
  }

  /** The scanner as it was: Jackson's stream, and line by line when that gives up. */
  private static RecordScan jackson(Path file) {
    RecordScan s = RecordScanner.streamed(file);
    return s != null ? s : RecordScanner.lineByLine(file);
  }

  private Path write(String text) throws IOException {
    Path file = Files.createTempFile(dir, "records", ".jsonl");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  /** Every field, values to the bit (so -0.0 and 0.0 differ). */
  private static String describe(RecordScan s) {
    StringBuilder sb = new StringBuilder();
    sb.append(s.file())
        .append('|')
        .append(s.sha256())
        .append("|lines=")
        .append(s.lines())
        .append("|malformed=")
        .append(s.malformed())
        .append(' ')
        .append(s.firstMalformed())
        .append("|profiling=")
        .append(s.profiling())
        .append("|warmup=")
        .append(s.warmup())
        .append("|cancelled=")
        .append(s.cancelled())
        .append("|errors=")
        .append(s.errors())
        .append(' ')
        .append(s.errorKinds())
        .append("|dup=")
        .append(s.duplicateIds())
        .append(' ')
        .append(s.firstDuplicate())
        .append("|nonFinite=")
        .append(s.nonFinite())
        .append(' ')
        .append(s.firstNonFinite())
        .append("|negative=")
        .append(s.negative())
        .append(' ')
        .append(s.firstNegative())
        .append("|badTs=")
        .append(s.badTimestamps())
        .append(' ')
        .append(s.firstBadTimestamp())
        .append("|units=")
        .append(s.units())
        .append(s.unitProblems())
        .append("|span=")
        .append(s.minStartNs())
        .append('-')
        .append(s.maxEndNs());
    for (Map.Entry<String, DoubleList> e : s.values().entrySet()) {
      sb.append('\n').append(e.getKey()).append(':');
      DoubleList v = e.getValue();
      for (int i = 0; i < v.size(); i++) {
        sb.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(v.get(i))));
      }
    }
    RequestTimeline t = s.timeline();
    sb.append("\ntimeline:");
    for (int i = 0; i < t.size(); i++) {
      sb.append(' ')
          .append(t.startNs(i))
          .append('/')
          .append(t.endNs(i))
          .append('/')
          .append(Long.toHexString(Double.doubleToRawLongBits(t.ttftMs(i))))
          .append('/')
          .append(t.succeeded(i));
    }
    sb.append("\nsorted successful TTFTs:");
    for (double v : sortedTtftChecked(t)) {
      sb.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(v)));
    }
    return sb.toString();
  }

  /**
   * The timeline's sorted successful TTFTs (shared with the TTFT values' sort when every request
   * has usable timestamps), checked against the ones its own columns give.
   */
  private static double[] sortedTtftChecked(RequestTimeline t) {
    double[] expected =
        java.util.stream.IntStream.range(0, t.size())
            .filter(i -> t.succeeded(i) && Double.isFinite(t.ttftMs(i)))
            .mapToDouble(t::ttftMs)
            .sorted()
            .toArray();
    double[] got = t.sortedSuccessfulTtftMs();
    assertThat(got).as("sorted successful TTFTs").isEqualTo(expected);
    return got;
  }
}
