package dev.benchplan.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The API key travels only as a bearer header. Runs the real launcher class in a child JVM, because
 * only a child process can be given an environment variable.
 */
class SmokeApiKeyTest {
  private static final String KEY = "sk-test-4f9c1e7a2b8d4c6e9f0a1b2c3d4e5f60";
  private static final String VAR = "BENCHPLAN_TEST_API_KEY";

  @TempDir Path dir;

  private record Exit(int code, String out, String err) {}

  private Exit benchplan(Path workDir, String... args) throws IOException, InterruptedException {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.benchplan.cli.Main"));
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectOutput(dir.resolve("stdout.txt").toFile())
            .redirectError(dir.resolve("stderr.txt").toFile());
    pb.environment().put(VAR, KEY);
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("benchplan finished").isTrue();
    return new Exit(
        p.exitValue(),
        Files.readString(dir.resolve("stdout.txt")),
        Files.readString(dir.resolve("stderr.txt")));
  }

  @Test
  @DisplayName(
      "the key is sent as 'Authorization: Bearer', never recorded; a server echoing it is redacted")
  void keyNeverInArtifact() throws Exception {
    Path work = Files.createDirectory(dir.resolve("work"));
    try (ScriptedEndpoint endpoint = new ScriptedEndpoint()) {
      endpoint.chat(
          ex -> {
            if (!("Bearer " + KEY).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
              ScriptedEndpoint.send(
                  ex, 401, "application/json", "{\"error\":{\"message\":\"bad key\"}}");
              return;
            }
            // a careless server that echoes the caller's key in its output
            ScriptedEndpoint.sse(ex, 0, ScriptedEndpoint.okStream("your key is " + KEY));
          });
      // no --out: the default file name in the working directory
      Exit exit =
          benchplan(
              work,
              "smoke",
              "--url",
              endpoint.url(),
              "--model",
              ScriptedEndpoint.MODEL,
              "--api-key-env",
              VAR,
              "--timeout",
              "20s");
      assertThat(exit.code()).as("exit code; stderr: %s", exit.err()).isZero();
      assertThat(endpoint.received())
          .extracting(ScriptedEndpoint.Received::authorization)
          .containsExactly("Bearer " + KEY, "Bearer " + KEY);
      Path artifact = work.resolve("smoke_test_artifact.json");
      String text = Files.readString(artifact, StandardCharsets.UTF_8);
      assertThat(text)
          .doesNotContain(KEY)
          .doesNotContain(KEY.substring(3, 20))
          .contains("[redacted " + VAR + "]");
      assertThat(exit.out() + exit.err()).doesNotContain(KEY);
      JsonNode node = Json.JSON.readTree(text);
      assertThat(SchemaValidator.bundled("smoke-artifact.schema.json").validate(node)).isEmpty();
      assertThat(node.get("api_key_env").asString()).isEqualTo(VAR);
      assertThat(node.get("success").asBoolean()).isTrue();
      assertThat(exit.out()).contains("artifact: " + artifact.toRealPath());
    }
  }

  @Test
  @DisplayName("a rejected key: exit 3 from a real process, the server's message, the key nowhere")
  void rejectedKey() throws Exception {
    Path work = Files.createDirectory(dir.resolve("work"));
    try (ScriptedEndpoint endpoint = new ScriptedEndpoint()) {
      endpoint.models(
          401,
          "{\"error\":{\"message\":\"Incorrect API key provided: "
              + KEY
              + "\",\"type\":\"invalid_request_error\"}}");
      Exit exit =
          benchplan(
              work,
              "smoke",
              "--url",
              endpoint.url(),
              "--model",
              ScriptedEndpoint.MODEL,
              "--api-key-env",
              VAR,
              "--out",
              "a.json",
              "--format",
              "json");
      assertThat(exit.code()).isEqualTo(3);
      String text = Files.readString(work.resolve("a.json"));
      assertThat(text)
          .doesNotContain(KEY)
          .contains("Incorrect API key provided: [redacted " + VAR + "]");
      assertThat(exit.out() + exit.err()).doesNotContain(KEY).contains("HTTP 401");
      assertThat(Json.JSON.readTree(exit.out()).get("success").asBoolean()).isFalse();
    }
  }
}
