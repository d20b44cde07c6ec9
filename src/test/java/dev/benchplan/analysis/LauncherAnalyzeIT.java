package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.Launcher;
import dev.benchplan.testing.Launcher.Run;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code bin/benchplan analyze} and {@code verify} through the launcher, which gives these commands
 * their own JVM flags (a relocated class-data archive, compile commands for the records parser):
 * stdout must still be exactly the JSON document, on success and on refusal, stderr silent on
 * success, and the compile commands must take effect.
 */
class LauncherAnalyzeIT {
  @TempDir Path dir;

  private Run launch(String... args) throws IOException, InterruptedException {
    return Launcher.run(dir, args);
  }

  /** The launcher with {@code BENCHPLAN_JAVA_OPTS} set to {@code javaOpts}. */
  private Run launchWith(String javaOpts, String... args) throws IOException, InterruptedException {
    return Launcher.run(
        Paths.get("bin", "benchplan").toAbsolutePath(),
        dir,
        Map.of("BENCHPLAN_JAVA_OPTS", javaOpts),
        args);
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

  @Test
  @DisplayName("C2 gives up on the parser's once-per-record methods and C1 compiles them")
  void parserMethodsLeftToC1() throws Exception {
    Launcher.requireJar();
    Path run = new GeneratedRun().requests(30_000).write(dir.resolve("run"));
    Run r =
        launchWith(
            "-XX:+PrintCompilation",
            "analyze",
            run.toString(),
            "--exp-root",
            dir.resolve("exp").toString(),
            "--report-dir",
            dir.resolve("report").toString());
    assertThat(r.exit()).as("exit; stderr: %s", r.err()).isZero();
    // PrintCompilation: "<ms> <id> <flags> <level> <method> (<size>) [COMPILE SKIPPED: <why>]"
    Pattern line =
        Pattern.compile(
            "^\\s*\\d+\\s+(\\d+)\\s+[%sbn! ]*\\s([0-4])\\s+"
                + Pattern.quote("dev.benchplan.analysis.input.RecordLineParser")
                + "::metadata \\(.*$",
            Pattern.MULTILINE);
    Matcher m = line.matcher(r.out());
    Set<String> c2 = new HashSet<>();
    Set<String> skipped = new HashSet<>();
    boolean c1 = false;
    while (m.find()) {
      if (m.group(2).equals("4")) {
        (m.group().contains("COMPILE SKIPPED: out of nodes") ? skipped : c2).add(m.group(1));
      }
      c1 |= m.group(2).equals("1");
    }
    c2.removeAll(skipped);
    assertThat(c2).as("C2 compiles of metadata that C2 finished:%n%s", r.out()).isEmpty();
    Assumptions.assumeFalse(
        skipped.isEmpty(), "C2 never reached metadata in this call (a very slow machine?)");
    assertThat(c1).as("C1 compiled metadata without profiling (level 1):%n%s", r.out()).isTrue();
  }
}
