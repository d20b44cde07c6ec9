package dev.benchplan.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.testing.CommandHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad arguments: exit 2, one clear line, nothing sent to the endpoint and nothing written. */
class SmokeArgumentsTest {
  @TempDir Path dir;
  private ScriptedEndpoint endpoint;

  @BeforeEach
  void start() throws IOException {
    endpoint = new ScriptedEndpoint();
  }

  @AfterEach
  void stop() {
    endpoint.close();
  }

  /** What every refused --url is told it should be. */
  static final String BASE_URL =
      "; expected an absolute http(s) base URL such as http://127.0.0.1:8000";

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of(
            "ftp URL",
            new String[] {"--url", "ftp://127.0.0.1:21"},
            "--url 'ftp://127.0.0.1:21': scheme must be http or https" + BASE_URL),
        Arguments.of(
            "no scheme",
            new String[] {"--url", "127.0.0.1:8000"},
            "--url '127.0.0.1:8000': no scheme; scheme must be http or https" + BASE_URL),
        Arguments.of(
            "not a URL",
            new String[] {"--url", "http://exa mple"},
            "--url 'http://exa mple': not a URL (illegal character in authority: a space at character 11)"
                + BASE_URL),
        Arguments.of(
            "no host",
            new String[] {"--url", "http:///v1"},
            "--url 'http:///v1': no host" + BASE_URL),
        Arguments.of(
            "credentials",
            new String[] {"--url", "http://user:sk-secret@127.0.0.1:8000"},
            "--url: credentials in the URL are not allowed (they would be"
                + " recorded); pass a key with"
                + " --api-key-env"),
        Arguments.of(
            "query",
            new String[] {"--url", "http://127.0.0.1:8000/?x=1"},
            "--url 'http://127.0.0.1:8000/?x=1': query or fragment not allowed" + BASE_URL),
        Arguments.of(
            "bad duration",
            new String[] {"--timeout", "soon"},
            "Invalid value for option '--timeout': 'soon' is not a duration: expected e.g. 30s, 5m,"
                + " 1h or PT30S"),
        Arguments.of(
            "zero duration",
            new String[] {"--timeout", "0s"},
            "Invalid value for option '--timeout': '0s' must be a positive duration"),
        Arguments.of(
            "blank model",
            new String[] {"--model", " "},
            "--model: empty; expected the served model name, e.g. Qwen/Qwen3-0.6B"),
        Arguments.of(
            "unset key variable",
            new String[] {"--api-key-env", "BENCHPLAN_TEST_SURELY_UNSET_4711"},
            "--api-key-env BENCHPLAN_TEST_SURELY_UNSET_4711: the environment variable is not set or empty"),
        Arguments.of(
            "bad variable name",
            new String[] {"--api-key-env", "sk-abc123"},
            "--api-key-env 'sk-abc123': not an environment variable name; expected e.g."
                + " OPENAI_API_KEY"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badArguments")
  @DisplayName("invalid arguments exit 2 with a one-line error; no request, no artifact")
  void invalid(String label, String[] override, String message) throws IOException {
    Path out = dir.resolve("smoke.json");
    var args = new java.util.ArrayList<String>(java.util.List.of("smoke"));
    boolean hasUrl = java.util.Arrays.asList(override).contains("--url");
    boolean hasModel = java.util.Arrays.asList(override).contains("--model");
    if (!hasUrl) {
      args.addAll(java.util.List.of("--url", endpoint.url()));
    }
    if (!hasModel) {
      args.addAll(java.util.List.of("--model", ScriptedEndpoint.MODEL));
    }
    args.addAll(java.util.List.of(override));
    args.addAll(java.util.List.of("--out", out.toString()));
    var r = CommandHarness.run(args.toArray(String[]::new)).expectError(2, message);
    assertThat(r.out()).isEmpty();
    assertThat(out).doesNotExist();
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
    assertThat(endpoint.received()).isEmpty();
  }

  @Test
  @DisplayName("--url and --model are required")
  void required() {
    CommandHarness.run("smoke", "--model", "m")
        .expectError(2, "Missing required option: '--url=URL'");
  }

  @Test
  @DisplayName("--out naming a directory is invalid input (exit 2), not an endpoint failure")
  void outIsDirectory() {
    CommandHarness.run(
            "smoke",
            "--url",
            endpoint.url(),
            "--model",
            ScriptedEndpoint.MODEL,
            "--out",
            dir.toString())
        .expectError(2, "--out " + dir + ": is a directory; expected a file path");
    assertThat(endpoint.received()).isEmpty();
  }

  @Test
  @DisplayName(
      "URL normalisation: trailing slashes and /v1 dropped, path prefixes kept, host case kept")
  void urlNormalisation() {
    assertThat(EndpointUrl.parse("http://127.0.0.1:8000/").toString())
        .isEqualTo("http://127.0.0.1:8000");
    assertThat(EndpointUrl.parse("HTTP://127.0.0.1:8000/v1").toString())
        .isEqualTo("http://127.0.0.1:8000");
    assertThat(EndpointUrl.parse("https://gw.example/team-a/v1/").resolve("/v1/models").toString())
        .isEqualTo("https://gw.example/team-a/v1/models");
    assertThat(EndpointUrl.parse("http://[::1]:9000").resolve("/v1/models").toString())
        .isEqualTo("http://[::1]:9000/v1/models");
    assertThatThrownBy(() -> EndpointUrl.parse(""))
        .isInstanceOf(BenchplanException.class)
        .hasMessage("--url: empty" + BASE_URL);
  }

  @Test
  @DisplayName("the options record never prints the API key")
  void optionsToStringRedacts() {
    var options =
        new SmokeOptions(
            EndpointUrl.parse("http://127.0.0.1:1"),
            "m",
            dir.resolve("a.json"),
            java.time.Duration.ofSeconds(1),
            "KEY_VAR",
            "sk-very-secret-value");
    assertThat(options.toString()).doesNotContain("sk-very-secret-value").contains("KEY_VAR");
    assertThat(options.redact("echo sk-very-secret-value!")).isEqualTo("echo [redacted KEY_VAR]!");
  }
}
