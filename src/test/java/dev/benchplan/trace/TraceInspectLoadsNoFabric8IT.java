package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.Launcher;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded jar (built by {@code package}, before failsafe) in a subprocess with {@code
 * -verbose:class}: {@code trace inspect} must not load a single fabric8 class, because agents call
 * it hundreds of times and fabric8 costs JVM start time.
 */
class TraceInspectLoadsNoFabric8IT {
  @TempDir Path dir;

  @Test
  @DisplayName("trace inspect from the shaded jar loads no io.fabric8 class")
  void noFabric8() throws IOException, InterruptedException {
    Path jar = Launcher.requireJar();
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    Path out = dir.resolve("stdout.txt");
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                java,
                "-verbose:class",
                "-jar",
                jar.toString(),
                "trace",
                "inspect",
                trace.toString(),
                "--format",
                "json")
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished in time").isTrue();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("exit code; output:%n%s", lines).isZero();
    // the log works: our own scanner classes show up as loaded
    assertThat(lines).anyMatch(l -> l.contains("dev.benchplan.trace.TraceScanner"));
    assertThat(lines).anyMatch(l -> l.contains("\"sha256\""));
    assertThat(lines).filteredOn(l -> l.contains("io.fabric8")).isEmpty();
  }
}
