package dev.benchplan.validate;

import java.nio.file.Path;

/**
 * Plans, renders and runs the benchmark against a target and gates it. Failures are thrown as
 * {@link ValidateStepException} naming the step ({@code plan}, {@code render}, {@code run},
 * {@code gate}). Objects the run creates in the cluster are recorded in the ledger before they are
 * created, so validate's cleanup covers them.
 */
@FunctionalInterface
public interface BenchmarkRunner {
  /** Runs the benchmark. */
  BenchmarkOutcome run(BenchmarkRequest request, PhaseProgress progress);

  /**
   * What to benchmark and how.
   *
   * @param run the validate run
   * @param options the validate options (context, AIPerf pin, timeouts, keep)
   * @param target the endpoint
   * @param shape the load
   * @param constraints the constraints to gate on
   * @param workDir the run's evidence folder under --report-dir
   * @param ledger the created-objects ledger
   */
  record BenchmarkRequest(
      ValidateRun run,
      ValidateOptions options,
      FrontendTarget target,
      BenchmarkShape shape,
      PerformanceRequest constraints,
      Path workDir,
      CreatedObjects ledger) {}
}
