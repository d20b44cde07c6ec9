package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.lines;
import static dev.benchplan.trace.TraceFiles.row;
import static dev.benchplan.trace.TraceFiles.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every problem kind of issue 2, on traces the tests write. */
class TraceProblemsTest {
  @TempDir Path dir;

  private static TraceProblem only(TraceReport r) {
    assertThat(r.problems()).as("problems").hasSize(1);
    assertThat(r.problemsTotal()).isEqualTo(1);
    assertThat(r.valid()).isFalse();
    return r.problems().get(0);
  }

  @ParameterizedTest(name = "line 2 = {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[1, 2, 3]                                   | found a list, expected an object",
        "42                                          | found a number, expected an object",
        "\"text\"                                    | found a string, expected an object",
        "null                                        | found null, expected an object",
        "{\"input_length\": 5                        | expected ',' or '}'",
        "{\"input_length\": 5}}                      | unexpected content after the object",
        "{\"input_length\": 5,}                      | expected a field name",
        "{input_length: 5}                           | expected a field name",
        "{\"input_length\" 5}                        | expected ':'",
        "{\"a\": tru, \"input_length\": 5}           | expected the literal true",
        "{\"a\": \"x\\q\", \"input_length\": 5}      | invalid escape",
        "{\"a\": \"\\u12G4\", \"input_length\": 5}   | expected 4 hex digits",
        "{\"input_length\": 05}                      | leading zero",
        "{\"input_length\": 5.}                      | expected a digit after '.'",
        "{\"input_length\": 5e}                      | expected a digit in the exponent",
        "{\"input_length\": -}                       | expected a digit",
        "{\"input_length\": 5, \"a\": [1, {\"b\": ]}]} | expected a JSON value",
        "{\"input_length\": 5, \"a\": \"unterminated | unterminated string",
      })
  void notAJsonObject(String line, String why) {
    TraceProblem p = only(scan(lines(dir, row(0, 10, 10), line, row(1, 10, 10))));
    assertThat(p.line()).isEqualTo(2);
    assertThat(p.field()).isNull();
    assertThat(p.message()).startsWith("not a JSON object: ").contains(why).contains("at column");
  }

  @Test
  @DisplayName(
      "a raw tab inside a string is a control character; nesting beyond 512 levels is refused")
  void controlCharactersAndDepth() {
    String deep = "{\"a\": " + "[".repeat(600) + "]".repeat(600) + ", \"input_length\": 5}";
    TraceReport r = scan(lines(dir, "{\"a\": \"x\ty\", \"input_length\": 5}", deep));
    assertThat(r.problems()).extracting(TraceProblem::line).containsExactly(1L, 2L);
    assertThat(r.problems().get(0).message()).contains("raw control character");
    assertThat(r.problems().get(1).message()).contains("nested deeper than 512");
  }

  @Test
  @DisplayName("valid JSON of every kind in unknown fields is accepted and ignored")
  void unknownFieldsAllowed() {
    String rich =
        "{\"session_id\": \"s-1\", \"delay\": 2.5e3, \"meta\": {\"a\": [true, false, null,"
            + " -0.5E-3, {}, []], \"\\u00e9\\n\": \"caf\u00e9 \u4e2d \uD83D\uDE00\"}, \"input_length\":"
            + " 5, \"output_length\": 1 , \"timestamp\":0}";
    TraceReport r = scan(lines(dir, rich));
    assertThat(r.problems()).isEmpty();
    assertThat(r.rows()).isEqualTo(1);
    assertThat(r.inputLength().min()).isEqualTo(5);
  }

  @Test
  @DisplayName("invalid UTF-8 inside and outside strings, with its column")
  void invalidUtf8() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes(row(0, 5, 5) + "\n"));
    out.write(bytes("{\"text_input\": \"ab"));
    out.write(new byte[] {(byte) 0xC3, (byte) 0x28}); // bad continuation
    out.write(bytes("\", \"output_length\": 5, \"timestamp\": 1}\n"));
    out.write(bytes("{\"a\": \""));
    out.write(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}); // a UTF-16 surrogate
    out.write(bytes("\", \"input_length\": 5, \"timestamp\": 2}\n"));
    out.write(bytes("{\"a\": \""));
    out.write(new byte[] {(byte) 0xC0, (byte) 0xAF}); // overlong '/'
    out.write(bytes("\", \"input_length\": 5, \"timestamp\": 3}\n"));
    out.write(bytes("{\"input_length\": 5, \"timestamp\": 4}"));
    out.write(new byte[] {(byte) 0xFF}); // outside any string
    out.write(bytes("\n"));
    out.write(bytes("{\"a\": \""));
    out.write(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}); // > U+10FFFF
    out.write(bytes("\", \"input_length\": 5, \"timestamp\": 5}\n"));
    TraceReport r = scan(TraceFiles.bytes(dir, out.toByteArray()));
    assertThat(r.problems()).extracting(TraceProblem::line).containsExactly(2L, 3L, 4L, 5L, 6L);
    assertThat(r.problems()).allSatisfy(p -> assertThat(p.message()).startsWith("invalid UTF-8"));
    assertThat(r.problems().get(0).message()).contains("byte 0xC3 at column 19");
    assertThat(r.rows()).isEqualTo(6);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "input_length  | 5.0             | expected an integer, got 5.0",
        "input_length  | \"5\"           | expected an integer, got a string (\"5\")",
        "input_length  | 1e3             | expected an integer, got 1e3",
        "input_length  | null            | expected an integer, got null",
        "input_length  | true            | expected an integer, got a boolean (true)",
        "input_length  | [5]             | expected an integer, got a list",
        "input_length  | -3              | expected a non-negative integer, got -3",
        "input_length  | 2147483648      | out of range: expected at most 2147483647",
        "output_length | 5.0             | expected an integer, got 5.0",
        "output_length | -1              | expected a non-negative integer, got -1",
        "output_length | 99999999999     | out of range",
        "timestamp     | 1.5             | expected an integer, got 1.5",
        "timestamp     | \"0\"           | expected an integer, got a string",
        "timestamp     | -10             | expected a non-negative integer, got -10",
        "timestamp     | 9223372036854775808 | out of range: expected at most 9223372036854775807",
        "timestamp     | 123456789012345678901234 | out of range",
      })
  void notANonNegativeInteger(String field, String value, String expected) {
    String bad =
        row(1, 10, 10).replaceFirst("\"" + field + "\": \\d+", "\"" + field + "\": " + value);
    assertThat(bad).as("test row").contains(value);
    TraceProblem p = only(scan(lines(dir, row(0, 10, 10), bad)));
    assertThat(p.line()).isEqualTo(2);
    assertThat(p.field()).isEqualTo(field);
    assertThat(p.message()).contains(expected);
  }

  @Test
  @DisplayName("-0 is zero and 9223372036854775807 is the largest timestamp")
  void integerEdges() {
    TraceReport r =
        scan(
            lines(
                dir,
                "{\"timestamp\": -0, \"input_length\": 1, \"output_length\": 1}",
                "{\"timestamp\": 9223372036854775807, \"input_length\": 2147483647, \"output_length\": 1}"));
    assertThat(r.problems()).isEmpty();
    assertThat(r.timestampMs().max()).isEqualTo(Long.MAX_VALUE);
    assertThat(r.inputLength().max()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  @DisplayName(
      "input_length < 1 needs a text_input; a missing one too; output_length < 1 never passes")
  void lengthRules() {
    TraceReport r =
        scan(
            lines(
                dir,
                "{\"timestamp\": 0, \"input_length\": 0, \"output_length\": 5}",
                "{\"timestamp\": 1, \"input_length\": 0, \"output_length\": 5, \"text_input\": \"hi\"}",
                "{\"timestamp\": 2, \"output_length\": 5}",
                "{\"timestamp\": 3, \"output_length\": 5, \"text_input\": \"hello\"}",
                "{\"timestamp\": 4, \"input_length\": 4, \"output_length\": 0}",
                "{\"timestamp\": 5, \"input_length\": 4}",
                "{\"timestamp\": 6, \"input_length\": 4, \"text_input\": 7}",
                "{\"timestamp\": 7, \"input_length\": 4, \"text_input\": null}"));
    assertThat(r.problems())
        .extracting(TraceProblem::line, TraceProblem::field)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1L, "input_length"),
            org.assertj.core.groups.Tuple.tuple(3L, "input_length"),
            org.assertj.core.groups.Tuple.tuple(5L, "output_length"),
            org.assertj.core.groups.Tuple.tuple(7L, "text_input"));
    assertThat(r.problems().get(0).message())
        .isEqualTo("expected at least 1 (or a text_input), got 0");
    assertThat(r.problems().get(1).message()).contains("missing");
    assertThat(r.problems().get(2).message()).isEqualTo("expected at least 1, got 0");
    assertThat(r.problems().get(3).message()).contains("expected a string, got 7");
  }

  @ParameterizedTest(name = "hash_ids {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "\"1, 2\"        | expected a list of non-negative integers, got a string (\"1, 2\")",
        "{\"a\": 1}      | expected a list of non-negative integers, got an object",
        "null            | expected a list of non-negative integers, got null",
        "[1, -2]         | element 1: expected a non-negative integer, got -2",
        "[1, 2.0]        | element 1: expected a non-negative integer, got 2.0",
        "[\"1\", 2]      | element 0: expected a non-negative integer, got a string (\"1\")",
        "[1, [2]]        | element 1: expected a non-negative integer, got a list",
        "[99999999999999999999] | element 0: expected a non-negative integer, got 99999999999999999999 (out of range)",
      })
  void hashIdsNotAListOfNonNegativeIntegers(String value, String expected) {
    TraceProblem p =
        only(
            scan(
                lines(
                    dir,
                    "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": "
                        + value
                        + "}")));
    assertThat(p.field()).isEqualTo("hash_ids");
    assertThat(p.message()).isEqualTo(expected);
  }

  @Test
  @DisplayName("hash_ids without input_length is a problem")
  void hashIdsWithoutInputLength() {
    TraceReport r =
        scan(
            lines(
                dir,
                "{\"timestamp\": 0, \"text_input\": \"hi\", \"output_length\": 5, \"hash_ids\": [1]}"));
    TraceProblem p = only(r);
    assertThat(p.field()).isEqualTo("hash_ids");
    assertThat(p.message()).startsWith("present without input_length");
  }

  @Test
  @DisplayName(
      "block rule: n ids need input_length - (n-1)*block in 1..block, for any --block-size")
  void blockRule() {
    Path trace =
        lines(
            dir,
            "{\"timestamp\": 0, \"input_length\": 512, \"output_length\": 5, \"hash_ids\": [1]}",
            "{\"timestamp\": 1, \"input_length\": 513, \"output_length\": 5, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 2, \"input_length\": 513, \"output_length\": 5, \"hash_ids\": [1]}",
            "{\"timestamp\": 3, \"input_length\": 512, \"output_length\": 5, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 4, \"input_length\": 1, \"output_length\": 5, \"hash_ids\": [3]}",
            "{\"timestamp\": 5, \"input_length\": 100, \"output_length\": 5, \"hash_ids\": []}");
    TraceReport r = scan(trace);
    assertThat(r.hashIds().blockRuleViolations()).isEqualTo(3);
    assertThat(r.problems()).extracting(TraceProblem::line).containsExactly(3L, 4L, 6L);
    assertThat(r.problems()).allSatisfy(p -> assertThat(p.field()).isEqualTo("hash_ids"));
    assertThat(r.problems().get(0).message())
        .isEqualTo(
            "1 hash ids for input_length 513 leave 513 tokens in the last block; expected"
                + " 1..512 (block size 512), i.e. 2 hash ids");

    TraceReport small = TraceScanner.scan(trace, new TraceScanOptions(256, null, null, null));
    assertThat(small.hashIds().blockSize()).isEqualTo(256);
    // with 256-token blocks: 512 -> 2 ids, 513 -> 3 ids; only line 4 (512, 2 ids) and 5 (1, 1) fit
    assertThat(small.problems()).extracting(TraceProblem::line).containsExactly(1L, 2L, 3L, 6L);
  }

  @Test
  @DisplayName("a timestamp on some rows but not others: the minority rows are the problems")
  void mixedTimestamps() {
    TraceReport r =
        scan(
            lines(
                dir,
                row(0, 5, 5),
                "{\"input_length\": 5, \"output_length\": 5}",
                row(10, 5, 5),
                "{\"input_length\": 5, \"output_length\": -1, \"timestamp\": 12}",
                row(20, 5, 5)));
    assertThat(r.problemsTotal()).isEqualTo(2);
    assertThat(r.problems())
        .extracting(TraceProblem::line, TraceProblem::field)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2L, "timestamp"),
            org.assertj.core.groups.Tuple.tuple(4L, "output_length"));
    assertThat(r.problems().get(0).message()).startsWith("missing, but 4 other rows have");

    TraceReport mostlyAbsent =
        scan(
            lines(
                dir,
                "{\"input_length\": 5, \"output_length\": 5}",
                "{\"input_length\": 5, \"output_length\": 5}",
                row(3, 5, 5)));
    TraceProblem p = only(mostlyAbsent);
    assertThat(p.line()).isEqualTo(3);
    assertThat(p.message()).startsWith("present, but 2 other rows have none");
  }

  @Test
  @DisplayName("timestamps going backwards are a warning (non_monotonic_rows), not a problem")
  void nonMonotonic() {
    TraceReport r =
        scan(
            lines(
                dir, row(100, 5, 5), row(50, 5, 5), row(50, 5, 5), row(40, 5, 5), row(200, 5, 5)));
    assertThat(r.valid()).isTrue();
    assertThat(r.timestampMs().nonMonotonicRows()).isEqualTo(2);
    assertThat(r.timestampMs().min()).isEqualTo(40);
    assertThat(r.timestampMs().max()).isEqualTo(200);
    assertThat(r.timestampMs().span()).isEqualTo(160);
  }

  @Test
  @DisplayName("an empty file and a file of blank lines are problems")
  void emptyAndBlank() {
    TraceReport empty = scan(TraceFiles.bytes(dir, new byte[0]));
    assertThat(only(empty).message()).startsWith("the file is empty");
    assertThat(empty.rows()).isZero();
    assertThat(empty.inputLength().mean()).isNull();

    TraceReport blank = scan(TraceFiles.text(dir, "\n  \n\t\r\n"));
    assertThat(only(blank).message()).startsWith("no rows: all 3 lines are blank");
    assertThat(blank.blankLines()).isEqualTo(3);
  }

  @Test
  @DisplayName("a BOM, CRLF line ends, blank lines and a missing final newline are accepted")
  void bomCrlfBlankNoFinalNewline() throws Exception {
    String body = row(0, 5, 5) + "\r\n\r\n" + row(1, 6, 6) + "\r\n   \r\n" + row(2, 7, 7);
    byte[] withBom = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, bytes(body));
    Path file = TraceFiles.bytes(dir, withBom);
    TraceReport r = scan(file);
    assertThat(r.problems()).isEmpty();
    assertThat(r.rows()).isEqualTo(3);
    assertThat(r.blankLines()).isEqualTo(2);
    assertThat(r.bytes()).isEqualTo(withBom.length);
    assertThat(r.sha256()).isEqualTo(dev.benchplan.json.Sha256.hex(withBom));
    assertThat(r.inputLength().max()).isEqualTo(7);
    for (int chunk : new int[] {1, 2, 3, 4}) {
      assertThat(TraceScanner.scan(file, TraceScanOptions.defaults(), ScanProgress.NONE, chunk))
          .as("chunk %d", chunk)
          .isEqualTo(r);
    }
  }

  @Test
  @DisplayName("a BOM anywhere but the start is invalid; line numbers count blank lines")
  void bomLaterAndLineNumbers() throws Exception {
    byte[] content =
        concat(
            bytes(row(0, 5, 5) + "\n\n"),
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            bytes(row(1, 5, 5) + "\n"));
    TraceProblem p = only(scan(TraceFiles.bytes(dir, content)));
    assertThat(p.line()).isEqualTo(3);
    assertThat(p.message()).contains("not a JSON object").contains("column 1");
  }

  @Test
  @DisplayName("duplicate fields are problems")
  void duplicateField() {
    TraceProblem p =
        only(
            scan(
                lines(
                    dir,
                    "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 5, \"input_length\": 6}")));
    assertThat(p.field()).isEqualTo("input_length");
    assertThat(p.message()).startsWith("duplicate field");
  }

  @Test
  @DisplayName("escaped field names are matched by their decoded name")
  void escapedKeys() {
    TraceReport r =
        scan(lines(dir, "{\"timestamp\": 0, \"input\\u005flength\": 9, \"output_length\": 5}"));
    assertThat(r.problems()).isEmpty();
    assertThat(r.inputLength().max()).isEqualTo(9);
  }

  @Test
  @DisplayName("problems are capped at 100 listed, problems_total counts all, in line order")
  void problemCap() {
    String[] rows = new String[250];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = i % 2 == 0 ? "not json" : "{\"timestamp\": " + i + ", \"input_length\": 5}";
    }
    rows[1] = "{\"input_length\": 5}"; // and one row without a timestamp among 124 with one
    TraceReport r = scan(lines(dir, rows));
    assertThat(r.problemsTotal()).isEqualTo(125 + 1);
    assertThat(r.problems()).hasSize(100);
    assertThat(r.problems().get(0).line()).isEqualTo(1);
    assertThat(r.problems().get(1).line()).isEqualTo(2);
    assertThat(r.problems().get(1).field()).isEqualTo("timestamp");
    List<Long> lines = r.problems().stream().map(TraceProblem::line).toList();
    assertThat(lines).isSorted();
    assertThat(r.rows()).isEqualTo(250);
  }

  @Test
  @DisplayName("a missing file or a directory: BenchplanException, exit 2, message names the file")
  void unreadable() {
    Path missing = dir.resolve("nope.jsonl");
    assertThatThrownBy(() -> scan(missing))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(missing + ": cannot read the trace: no such file")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(ExitCode.INVALID);
    assertThatThrownBy(() -> scan(dir))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(dir + ": cannot read the trace: it is a directory");
  }

  @Test
  @DisplayName("works on any file system (jimfs)")
  void jimfs() throws Exception {
    try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
      Path file = fs.getPath("/traces/t.jsonl");
      Files.createDirectories(file.getParent());
      Files.writeString(file, row(0, 5, 5) + "\n" + row(9, 3, 3) + "\n");
      TraceReport r = scan(file);
      assertThat(r.valid()).isTrue();
      assertThat(r.path()).isEqualTo("/traces/t.jsonl");
      assertThat(r.timestampMs().span()).isEqualTo(9);
    }
  }

  @Test
  @DisplayName("lines across tiny chunk borders, and a line longer than a chunk")
  void tinyChunks() throws Exception {
    String longText = "x".repeat(10_000) + "\u00e9\u4e2d";
    Path file =
        lines(
            dir,
            row(0, 5, 5),
            "",
            "{\"timestamp\": 1, \"text_input\": \"" + longText + "\", \"output_length\": 3}",
            "broken",
            row(2, 9, 1));
    TraceReport reference = scan(file);
    assertThat(reference.rows()).isEqualTo(4);
    assertThat(reference.problemsTotal()).isEqualTo(1);
    for (int chunk : new int[] {1, 2, 3, 5, 7, 64, 1000}) {
      assertThat(TraceScanner.scan(file, TraceScanOptions.defaults(), ScanProgress.NONE, chunk))
          .as("chunk %d", chunk)
          .isEqualTo(reference);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p);
    }
    return out.toByteArray();
  }
}
