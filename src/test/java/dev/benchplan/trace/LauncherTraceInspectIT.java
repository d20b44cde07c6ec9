package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.Launcher;
import dev.benchplan.testing.Launcher.Run;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code bin/benchplan trace inspect} through the launcher: it starts from the class-data-sharing
 * archive the build recorded, and no JVM warning ever reaches stdout, where the JSON report goes.
 */
class LauncherTraceInspectIT {
  @TempDir Path dir;

  private Run launch(String... args) throws IOException, InterruptedException {
    return Launcher.run(dir, args);
  }

  @Test
  @DisplayName(
      "the recorded class-data archive is used by its checkout; stdout is exactly the JSON report")
  void launcher() throws Exception {
    Path jar = Launcher.requireJar();
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    Process cds =
        new ProcessBuilder("bash", "scripts/cds-archive.sh", jar.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(cds.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(cds.waitFor()).as("scripts/cds-archive.sh").isZero();
    // one line: every training call (trace inspect, analyze, plan, render) ran to exit 0
    assertThat(said)
        .matches(
            "\\[cds-archive\\] wrote "
                + Pattern.quote(jar.resolveSibling("benchplan.jsa").toString())
                + " \\(\\d+ classes\\)\n");
    assertThat(jar.resolveSibling("benchplan.jsa"))
        .as("written by scripts/cds-archive.sh")
        .exists();
    // -Xshare:on: the JVM refuses to start when it cannot use the archive
    Run run =
        Launcher.run(
            Paths.get("bin", "benchplan").toAbsolutePath(),
            dir,
            Map.of("BENCHPLAN_JAVA_OPTS", "-Xshare:on"),
            "trace",
            "inspect",
            trace.toString(),
            "--format",
            "json");
    assertThat(run.exit()).as("exit; stderr: %s", run.err()).isZero();
    JsonNode report = Json.JSON.readTree(run.out());
    assertThat(report.get("rows").asLong()).isEqualTo(12031);
    assertThat(run.err()).isEmpty();

    Run missing = launch("trace", "inspect", dir.resolve("absent.jsonl").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err()).endsWith("absent.jsonl: cannot read the trace: no such file\n");
  }
}
