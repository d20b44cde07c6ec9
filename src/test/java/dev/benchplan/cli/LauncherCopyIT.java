package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.Launcher;
import dev.benchplan.testing.Launcher.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 item 1: a built checkout copied ({@code cp -r}, {@code cp -rp}) or moved ({@code mv})
 * keeps working through {@code bin/benchplan} without a class-data-sharing warning: the archive the
 * build recorded belongs to the original jar path, and the JVM skips it in silence elsewhere. JVM
 * warnings that are not about CDS still reach stderr.
 */
class LauncherCopyIT {
  @TempDir Path dir;
  Path trace;

  /** A checkout of the launcher and the jar, with the archive recorded as the build does. */
  @BeforeEach
  void checkout() throws Exception {
    Path jar = Launcher.requireJar();
    Path a = dir.resolve("a");
    Files.createDirectories(a.resolve("bin"));
    Files.createDirectories(a.resolve("target"));
    Path launcher = Files.copy(Paths.get("bin", "benchplan"), a.resolve("bin/benchplan"));
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.copy(jar, a.resolve("target/benchplan.jar"));
    shell("bash", "scripts/cds-archive.sh", a.resolve("target/benchplan.jar").toString());
    trace =
        Files.writeString(
            dir.resolve("t.jsonl"),
            "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, 2]}\n");
  }

  private Run launch(Path checkout, Map<String, String> env, String... args) throws Exception {
    return Launcher.run(checkout.resolve("bin/benchplan"), dir, env, args);
  }

  private void shell(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
  }

  /** A call that works, prints exactly the JSON report, and says nothing on stderr. */
  private void silentCall(Path checkout) throws Exception {
    Run r = launch(checkout, Map.of(), "trace", "inspect", trace.toString(), "--format", "json");
    assertThat(r.exit()).as("exit; stderr: %s", r.err()).isZero();
    assertThat(Json.JSON.readTree(r.out()).get("rows").asLong()).isEqualTo(1);
    assertThat(r.err()).as("stderr of %s", checkout).isEmpty();
  }

  @Test
  @DisplayName(
      "cp -r, cp -rp and mv of a built checkout: every call silent and working; the original uses its archive")
  void copiedAndMoved() throws Exception {
    Path a = dir.resolve("a");
    silentCall(a);
    // -Xshare:on: the JVM refuses to start when it cannot use the archive
    Run shared =
        launch(
            a,
            Map.of("BENCHPLAN_JAVA_OPTS", "-Xshare:on"),
            "trace",
            "inspect",
            trace.toString(),
            "--format",
            "json");
    assertThat(shared.exit()).as("stderr: %s", shared.err()).isZero();
    shell("cp", "-r", a.toString(), dir.resolve("copied").toString());
    silentCall(dir.resolve("copied"));
    silentCall(dir.resolve("copied"));
    shell("cp", "-rp", a.toString(), dir.resolve("copied-p").toString());
    silentCall(dir.resolve("copied-p"));
    shell("mv", dir.resolve("copied-p").toString(), dir.resolve("moved").toString());
    silentCall(dir.resolve("moved"));
    silentCall(dir.resolve("moved"));
    silentCall(a);
  }

  @Test
  @DisplayName(
      "an archive the JVM cannot use (recorded for another path) never prints a CDS warning")
  void foreignArchiveSkipped() throws Exception {
    Path a = dir.resolve("a");
    silentCall(a);
    shell("cp", "-rp", a.toString(), dir.resolve("b").toString());
    // the launcher's own guard (a different owner) and the JVM's (cds logging off) both hold:
    // feed the JVM the foreign archive directly, as a stale launcher would have
    Run r =
        launch(
            dir.resolve("b"),
            Map.of(
                "BENCHPLAN_CDS",
                "0",
                "BENCHPLAN_JAVA_OPTS",
                "-XX:SharedArchiveFile=" + dir.resolve("b/target/benchplan.jsa")),
            "trace",
            "inspect",
            trace.toString(),
            "--format",
            "json");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
  }

  @Test
  @DisplayName(
      "JVM warnings that are not about class-data sharing still reach stderr (never stdout)")
  void otherWarningsStillShown() throws Exception {
    Assumptions.assumeTrue(
        Runtime.version().feature() < 18, "UseBiasedLocking is gone after JDK 17");
    Run r =
        launch(
            dir.resolve("a"),
            Map.of("BENCHPLAN_JAVA_OPTS", "-XX:+UseBiasedLocking"),
            "trace",
            "inspect",
            trace.toString(),
            "--format",
            "json");
    assertThat(r.exit()).isZero();
    assertThat(r.err()).contains("UseBiasedLocking").doesNotContain("cds");
    assertThat(Json.JSON.readTree(r.out()).get("rows").asLong()).isEqualTo(1);
  }
}
