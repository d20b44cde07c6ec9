package dev.benchplan.progress;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** Where a run reports progress (stderr in the CLI): phase changes and periodic status. */
@FunctionalInterface
public interface RunProgress {
  /**
   * One progress report.
   *
   * @param phase e.g. preflight, applied, Pending, Running, collecting, cleanup
   * @param elapsed time since the run started
   * @param detail a short detail: the pod's reason, or the latest AIPerf progress line (may be
   *     null)
   */
  void report(String phase, Duration elapsed, @Nullable String detail);

  /** Discards progress. */
  static RunProgress none() {
    return (phase, elapsed, detail) -> {};
  }
}
