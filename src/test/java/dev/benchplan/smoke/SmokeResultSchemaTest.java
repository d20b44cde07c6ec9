package dev.benchplan.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.JsonDocuments;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code smoke --format json} against the scripted endpoint: a pass and a model the endpoint does
 * not serve, each checked against schemas/smoke-result.schema.json (its error member against
 * schemas/error.schema.json) and the artifact against schemas/smoke-artifact.schema.json.
 */
class SmokeResultSchemaTest {
  @TempDir Path dir;

  private JsonNode smoke(ScriptedEndpoint endpoint, String model, String file, int exit)
      throws Exception {
    Path out = Files.createDirectories(dir.resolve(file)).resolve("smoke.json");
    var r =
        CommandHarness.run(
                "smoke",
                "--url",
                endpoint.url(),
                "--model",
                model,
                "--out",
                out.toString(),
                "--timeout",
                "10s",
                "--format",
                "json")
            .expectExit(exit);
    assertThat(JsonDocuments.assertFiles("smoke", out.getParent())).isEqualTo(1);
    return JsonDocuments.assertStdout("smoke", r.out());
  }

  @Test
  @DisplayName("a pass and a model not served: stdout and artifact match their schemas")
  void passAndFail() throws Exception {
    try (ScriptedEndpoint endpoint = new ScriptedEndpoint()) {
      JsonNode pass = smoke(endpoint, ScriptedEndpoint.MODEL, "pass", 0);
      assertThat(pass.get("success").asBoolean()).isTrue();
      assertThat(pass.has("error")).isFalse();
      assertThat(pass.get("ttft_ms").isNumber()).isTrue();
      JsonNode fail = smoke(endpoint, "not-served", "fail", 3);
      assertThat(fail.get("success").asBoolean()).isFalse();
      assertThat(fail.at("/error/code").asString()).isEqualTo("run_error");
    }
  }
}
