package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.Launcher;
import dev.benchplan.testing.Launcher.Run;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code bin/benchplan analyze} and {@code verify} through the launcher, which gives these commands
 * their own JVM flags: stdout must still be exactly the JSON document, on success and on refusal,
 * stderr silent on success.
 */
class LauncherAnalyzeIT {
  @TempDir Path dir;

  private Run launch(String... args) throws IOException, InterruptedException {
    return Launcher.run(dir, args);
  }

  @Test
  @DisplayName("analyze and verify --format json: stdout is exactly the JSON document")
  void jsonOnly() throws Exception {
    Launcher.requireJar();
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path report = dir.resolve("report");
    Run analyzed =
        launch(
            "analyze",
            sweep.toString(),
            "--exp-root",
            dir.resolve("exp").toString(),
            "--report-dir",
            report.toString(),
            "--format",
            "json");
    assertThat(analyzed.exit()).as("exit; stderr: %s", analyzed.err()).isZero();
    JsonNode doc = Json.JSON.readTree(analyzed.out());
    assertThat(doc.path("analysis_id").asString()).startsWith("analysis-");
    assertThat(analyzed.err()).isEmpty();

    Run verified = launch("verify", report.toString(), "--format", "json");
    assertThat(verified.exit())
        .as("exit; stdout: %s; stderr: %s", verified.out(), verified.err())
        .isZero();
    Json.JSON.readTree(verified.out());
    assertThat(verified.err()).isEmpty();

    Run refused = launch("analyze", dir.resolve("absent").toString(), "--format", "json");
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(Json.JSON.readTree(refused.out()).path("error").isMissingNode()).isFalse();
    assertThat(refused.err().lines()).hasSize(1);
  }
}
