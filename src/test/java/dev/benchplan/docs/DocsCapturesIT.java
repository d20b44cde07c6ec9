package dev.benchplan.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.Launcher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Docs as captures: every example of README.md and docs/readme/ that needs no cluster and no
 * endpoint is what the packaged tool prints now. Runs {@code scripts/docs-captures.sh --check} on
 * those sections (the bundled examples, ../shared/data, the examples' clock), which exits 1 with a
 * diff naming each page block that drifted; {@code --update} with the same sections rewrites them.
 * The script runs the commands in one layout in its temporary folder (the examples in
 * OUT/benchplan, ../shared linked as OUT/shared), so the check gives the same answer in every
 * checkout, wherever it sits.
 */
class DocsCapturesIT {
  /**
   * The sections checked here; smoke, validate and run need an endpoint or a cluster, gate's CTRF
   * and JUnit reports carry the run's own times (its start, stop and duration): those are
   * regenerated with --update only.
   */
  static final List<String> SECTIONS =
      List.of("exit-codes", "plan", "render", "readme", "trace", "rbac", "analyze");

  @TempDir Path tmp;

  @Test
  @DisplayName("the pages' captured examples equal what the tool prints now")
  void noDrift() throws Exception {
    Launcher.requireJar();
    Assumptions.assumeTrue(
        Files.isDirectory(Path.of("../shared/data/aiperf")),
        "../shared/data is absent: the captures read AIPerf's exports and the Mooncake trace");
    Path log = tmp.resolve("check.log");
    ProcessBuilder pb = new ProcessBuilder("bash", "scripts/docs-captures.sh", "--check");
    pb.command().addAll(SECTIONS);
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(15, TimeUnit.MINUTES)).as("the capture script finished").isTrue();
    assertThat(p.exitValue())
        .as(
            "scripts/docs-captures.sh --check %s:%n%s",
            String.join(" ", SECTIONS), Files.readString(log, StandardCharsets.UTF_8))
        .isZero();
  }
}
