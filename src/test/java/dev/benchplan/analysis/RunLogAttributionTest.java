package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.diagnostics.AiperfLogWarnings;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which AIPerf log judges which run when {@code run} diagnoses a Job's tree: a run's own {@code
 * logs/aiperf.log} (each run of a job-sequence Job has one), else the Job's pod log, which covers
 * every run. Summed over a grid, one run's event-loop hiccups made every point client bound in the
 * real-engine tier, and {@code gate} of the same directory (which reads the run's own log) said
 * otherwise.
 */
class RunLogAttributionTest {
  private static final String SLOW =
      "WARNING  Event loop for timing_manager is taking too long to run. Overhead: 150.00ms";

  @TempDir Path tmp;

  /** Two runs of AIPerf 0.11's real export (with its own, warning-free log) in one tree. */
  private Path tree() throws Exception {
    Path real = SharedData.require("aiperf/real-0.11.0-tiny");
    Path tree = tmp.resolve("aiperf");
    for (String run : List.of("concurrency_1", "concurrency_2")) {
      try (Stream<Path> s = Files.walk(real)) {
        for (Path f : s.filter(Files::isRegularFile).toList()) {
          Path to = tree.resolve(run).resolve(real.relativize(f).toString());
          Files.createDirectories(to.getParent());
          Files.copy(f, to);
        }
      }
    }
    return tree;
  }

  private static List<String> loopLag(List<Finding> findings) {
    return findings.stream()
        .filter(f -> f.signals().contains("aiperf_event_loop_lag"))
        .map(f -> f.run() + ": " + f.message())
        .toList();
  }

  @Test
  @DisplayName(
      "a pod log's event-loop warnings do not judge a run that has its own AIPerf log; they judge one without")
  void ownLogFirst() throws Exception {
    Path tree = tree();
    AiperfLogWarnings podLog = AiperfLogWarnings.parse(String.join("\n", SLOW, SLOW, SLOW));
    assertThat(podLog.loopSignal()).isTrue();
    assertThat(loopLag(RunDiagnostics.diagnoseAll(tree, podLog).findings())).isEmpty();

    Files.delete(tree.resolve("concurrency_2").resolve(RunDiagnostics.AIPERF_LOG));
    List<String> fired = loopLag(RunDiagnostics.diagnoseAll(tree, podLog).findings());
    assertThat(fired).singleElement().asString().contains("concurrency_2");
  }
}
