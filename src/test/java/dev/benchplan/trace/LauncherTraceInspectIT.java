package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.Launcher;
import dev.benchplan.testing.Launcher.Run;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code bin/benchplan trace inspect} through the launcher: its class-data-sharing archive is
 * recorded when missing or older than the jar, and neither that nor any JVM warning ever reaches
 * stdout, where the JSON report goes.
 */
class LauncherTraceInspectIT {
  @TempDir Path dir;

  private Run launch(String... args) throws IOException, InterruptedException {
    return Launcher.run(dir, args);
  }

  @Test
  @DisplayName("a stale CDS archive is re-recorded; stdout is exactly the JSON report every time")
  void launcher() throws Exception {
    Path jar = Launcher.requireJar();
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    Path jsa = jar.resolveSibling("benchplan.jsa");
    if (Files.exists(jsa)) {
      // make the archive older than the jar: the launcher must record a fresh one
      Files.setLastModifiedTime(
          jsa, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
    }
    for (int i = 0; i < 2; i++) {
      Run run = launch("trace", "inspect", trace.toString(), "--format", "json");
      assertThat(run.exit()).as("exit; stderr: %s", run.err()).isZero();
      JsonNode report = Json.JSON.readTree(run.out());
      assertThat(report.get("rows").asLong()).isEqualTo(12031);
      assertThat(run.err()).isEmpty();
    }
    assertThat(jsa).exists();
    assertThat(Files.getLastModifiedTime(jsa))
        .isGreaterThanOrEqualTo(Files.getLastModifiedTime(jar));

    Run missing = launch("trace", "inspect", dir.resolve("absent.jsonl").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err()).endsWith("absent.jsonl: cannot read the trace: no such file\n");
  }
}
