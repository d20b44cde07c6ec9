package dev.benchplan.run;

import dev.benchplan.progress.RunProgress;

/** Runs a rendered benchmark (perf.yaml) end to end. */
public interface RunService {
  /**
   * Preflights, applies, watches, collects, gates and cleans up. Invalid input and blockers throw
   * {@link dev.benchplan.error.BenchplanException} with exit 2 before anything is applied; cluster
   * errors before the Job exists throw with exit 3; once the Job exists, every ending is a written
   * run directory and an outcome.
   */
  RunOutcome run(RunRequest request, RunProgress progress);
}
