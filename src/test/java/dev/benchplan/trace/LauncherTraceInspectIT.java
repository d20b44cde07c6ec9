package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
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

  private record Run(int exit, String out, String err) {}

  private Run launch(String... args) throws IOException, InterruptedException {
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    String[] command = new String[args.length + 1];
    command[0] = Paths.get("bin", "benchplan").toAbsolutePath().toString();
    System.arraycopy(args, 0, command, 1, args.length);
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished in time").isTrue();
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("a stale CDS archive is re-recorded; stdout is exactly the JSON report every time")
  void launcher() throws Exception {
    Path jar = Paths.get("target", "benchplan.jar").toAbsolutePath();
    Assumptions.assumeTrue(
        Files.isRegularFile(jar),
        () -> "skipped: " + jar + " is not built; run `mvn verify` (package runs before this IT)");
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
