package dev.benchplan.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.benchplan.json.Json;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JacksonException;

/** The one mapper from parser and I/O exceptions to one-line messages in the user's terms. */
class InputErrorsTest {
  @TempDir Path dir;

  private static JacksonException json(byte[] bytes) {
    return catchThrowableOfType(JacksonException.class, () -> Json.JSON.readTree(bytes));
  }

  private static JacksonException json(String text) {
    return json(text.getBytes(StandardCharsets.UTF_8));
  }

  private static JacksonException yaml(String text) {
    return catchThrowableOfType(JacksonException.class, () -> Json.YAML.readTree(text));
  }

  private static URISyntaxException uri(String text) {
    return catchThrowableOfType(URISyntaxException.class, () -> new URI(text));
  }

  @Test
  @DisplayName("URLs: the reason in lower case, a space or control character by its position")
  void uriMessages() {
    assertThat(InputErrors.describe(uri("http://exa mple:80")))
        .isEqualTo("illegal character in authority: a space at character 11");
    assertThat(InputErrors.describe(uri("http://h/a\tb")))
        .isEqualTo("illegal character in path: a control character at character 11");
    assertThat(InputErrors.describe(uri("http://h/p%zz")))
        .isEqualTo("malformed escape pair at character 11");
    // Java points at the authority's start for a bad authority: no position rather than a wrong one
    assertThat(InputErrors.describe(uri("http://a^b:80")))
        .isEqualTo("illegal character in authority");
  }

  @Test
  @DisplayName(
      "JSON: trailing tokens, cut short, stray characters, binary, wrong type, out of range")
  void jsonMessages() {
    assertThat(InputErrors.describe(json("{\"a\": 1} {\"b\": 2}")))
        .isEqualTo(
            "unexpected content after the end of the first value; expected exactly one document");
    assertThat(InputErrors.describe(json("{\"a\": 1")))
        .isEqualTo("unexpected end of input; an object is not closed with '}'");
    assertThat(InputErrors.describe(json("[1, 2")))
        .isEqualTo("unexpected end of input; an array is not closed with ']'");
    assertThat(InputErrors.describe(json("{'a': 1}")))
        .isEqualTo("unexpected character '''; expected a property name in double quotes");
    assertThat(InputErrors.describe(json("{\"a\": }")))
        .isEqualTo(
            "unexpected character '}'; expected a JSON value (object, array, string, number, true, false or null)");
    assertThat(InputErrors.describe(json(new byte[] {0x7f, 0x45, 0x4c, 0x46})))
        .startsWith("unexpected control character (code 127)")
        .endsWith("is this a binary file?");
    // four bytes that look like UTF-32 but are not: Jackson's CharConversionException
    assertThat(
            InputErrors.describe(
                json(
                    new byte[] {0, 0, 0, '{', (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff})))
        .doesNotContain("CharConversion")
        .doesNotContain("Exception")
        .isNotBlank();
    assertThat(
            InputErrors.describe(
                catchThrowableOfType(
                    JacksonException.class, () -> Json.JSON.readValue("\"abc\"", int.class))))
        .isEqualTo("expected an integer, found string \"abc\"");
    assertThat(
            InputErrors.describe(
                catchThrowableOfType(
                    JacksonException.class, () -> Json.JSON.readValue("99999999999", int.class))))
        .isEqualTo("number 99999999999 is out of range; expected -2147483648 to 2147483647");
  }

  @Test
  @DisplayName(
      "YAML: one line with the problem and its context, never the parser's multi-line dump")
  void yamlMessages() {
    JacksonException e = yaml("a: [1, 2\n");
    assertThat(InputErrors.describe(e))
        .isEqualTo(
            "expected ',' or ']', but got <stream end> (while parsing a flow sequence that starts at line 1, column 4)");
    assertThat(InputErrors.describe(yaml("a: b\n c: d\n")))
        .isEqualTo("mapping values are not allowed here");
    assertThat(InputErrors.describe(yaml("\u0001\u0002")))
        .isEqualTo(
            "unacceptable character (code point 0x1); expected text, is this a binary file?");
    BenchplanException b =
        InputErrors.unparsable("recipe overlay", "o.yaml", yaml("x:\n  - a\n  b: c\n"));
    assertThat(b.getMessage())
        .startsWith("recipe overlay o.yaml:3:3: not valid YAML: ")
        .doesNotContain("\n");
    assertThat(b.location().line()).isEqualTo(3);
    assertThat(b.exitCode()).isEqualTo(ExitCode.INVALID);
  }

  @Test
  @DisplayName("a token that could be a secret is not echoed")
  void noSecretsEchoed() {
    assertThat(InputErrors.describe(json("hf_abcdefghijklmnopqrstuvwxyz")))
        .doesNotContain("hf_abcdefghijklmnop")
        .contains("'...'");
  }

  @Test
  @DisplayName("files: not found, a folder, in one line and exit 2")
  void files() throws Exception {
    Path missing = dir.resolve("absent.yaml");
    BenchplanException e =
        InputErrors.unreadable(
            "user workload", missing, new NoSuchFileException(missing.toString()));
    assertThat(e.getMessage())
        .isEqualTo("user workload " + missing + ": cannot read: no such file");
    assertThat(e.location().file()).isEqualTo(missing.toString());
    Path folder = Files.createDirectories(dir.resolve("folder.json"));
    java.io.IOException dirError =
        catchThrowableOfType(java.io.IOException.class, () -> Files.readAllBytes(folder));
    assertThat(InputErrors.describe(dirError)).isEqualTo("is a directory, expected a file");
  }

  @Test
  @DisplayName(
      "ErrorMapper: exit codes 2/3/4, the place the thrower gave, never one read back from a message")
  void mapper() throws Exception {
    Path file = Files.writeString(dir.resolve("w.yaml"), "a: 1\n");
    String message = "user workload " + file + ":4 /traffic/concurrency/0: too large";
    ErrorReport r =
        ErrorMapper.map(
            BenchplanException.invalid(
                ErrorLocation.pointer(file, "/traffic/concurrency/0").withLine(4), message));
    assertThat(r.code()).isEqualTo("invalid_input");
    assertThat(r.message()).isEqualTo(message);
    assertThat(r.file()).isEqualTo(file.toString());
    assertThat(r.line()).isEqualTo(4);
    assertThat(r.pointer()).isEqualTo("/traffic/concurrency/0");
    assertThat(r.field()).isEqualTo("concurrency");
    // the same words without a location: nothing is guessed from them or from the disk
    ErrorReport bare = ErrorMapper.map(BenchplanException.invalid(message));
    assertThat(bare.location()).isEqualTo(ErrorLocation.NONE);
    assertThat(ErrorMapper.map(BenchplanException.invalid("--exp-root x: bad")).field()).isNull();
    assertThat(ErrorMapper.map(BenchplanException.runtime("cluster gone")).exitCode()).isEqualTo(3);
    ErrorReport bug =
        ErrorMapper.map(new java.util.concurrent.ExecutionException(new NullPointerException("x")));
    assertThat(bug.exitCode()).isEqualTo(4);
    assertThat(bug.message()).isEqualTo("internal error: java.lang.NullPointerException: x");
    assertThat(
            ErrorMapper.map(
                    new java.io.UncheckedIOException(new NoSuchFileException("/nope/a.json")))
                .exitCode())
        .isEqualTo(2);
    assertThat(ErrorMapper.map(new java.io.IOException("disk full")).exitCode()).isEqualTo(3);
  }
}
