package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.scan;
import static dev.benchplan.trace.TraceFiles.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The strict byte-level JSON scanner: string decoding and surrogate handling. */
class JsonScannerTest {
  @TempDir Path dir;

  /** Scans the JSON string literal {@code json} (with its quotes) and decodes it. */
  private static String decode(String json) {
    byte[] line = (json + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] buf = Arrays.copyOf(line, line.length + JsonScanner.PADDING);
    JsonScanner s = new JsonScanner();
    s.start(buf, 0);
    int end = s.scanString(0);
    assertThat(end).isEqualTo(line.length - 1);
    return s.decodeString(0, end);
  }

  @Test
  @DisplayName("an escaped surrogate pair decodes to its one code point, not '??'")
  void surrogatePair() {
    assertThat(decode("\"\\ud83d\\ude00\""))
        .isEqualTo("\uD83D\uDE00")
        .hasSize(2)
        .satisfies(s -> assertThat(s.codePointAt(0)).isEqualTo(0x1F600));
    assertThat(decode("\"a\\uD834\\uDD1Eb\"")).isEqualTo("a\uD834\uDD1Eb"); // U+1D11E, upper case
  }

  @Test
  @DisplayName("raw UTF-8 (2, 3 and 4 bytes) and simple escapes decode as written")
  void rawUtf8AndEscapes() {
    assertThat(decode("\"caf\u00e9 \u4e2d \uD83D\uDE00\""))
        .isEqualTo("caf\u00e9 \u4e2d \uD83D\uDE00");
    assertThat(decode("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\""))
        .isEqualTo("\"\\/\b\f\n\r\tA\u00e9");
    assertThat(decode("\"\u00e9\\u00e9\u00e9\"")).isEqualTo("\u00e9\u00e9\u00e9");
    assertThat(decode("\"\"")).isEmpty();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "\"\\ud83d\"             | lone high surrogate \\uD83D",
        "\"\\ud83dx\"            | lone high surrogate \\uD83D",
        "\"\\ud83d\\u0041\"      | lone high surrogate \\uD83D",
        "\"\\ud83d\\ud83d\"      | lone high surrogate \\uD83D",
        "\"\\ude00\"             | lone low surrogate \\uDE00",
        "\"a\\ude00\\ud83d\"     | lone low surrogate \\uDE00",
      })
  @DisplayName("a lone escaped surrogate is refused: it is no Unicode text and cannot be sent")
  void loneSurrogates(String json, String why) {
    byte[] line = (json + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] buf = Arrays.copyOf(line, line.length + JsonScanner.PADDING);
    JsonScanner s = new JsonScanner();
    s.start(buf, 0);
    assertThatThrownBy(() -> s.scanString(0))
        .isInstanceOfSatisfying(
            JsonScanner.Syntax.class, e -> assertThat(e.why).contains(why).contains("at column"));
  }

  @Test
  @DisplayName(
      "in a trace: a lone surrogate in text_input is a bad row with its column; a pair is"
          + " fine, also in a key")
  void inATrace() {
    TraceReport r =
        scan(
            text(
                dir,
                "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1, \"text_input\":"
                    + " \"ok \\ud83d\\ude00\", \"\\ud83d\\ude00\": 1}\n"
                    + "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"text_input\":"
                    + " \"x\\udc00\"}\n"));
    assertThat(r.rows()).isEqualTo(2);
    assertThat(r.problemsTotal()).isEqualTo(1);
    assertThat(r.problems().get(0).line()).isEqualTo(2);
    assertThat(r.problems().get(0).message())
        .isEqualTo(
            "not a JSON object: lone low surrogate \\uDC00 (expected a high surrogate"
                + " \\uD800-\\uDBFF before it) at column 73");
  }
}
