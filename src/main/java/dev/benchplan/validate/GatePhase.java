package dev.benchplan.validate;

import dev.benchplan.error.ExitCode;
import dev.benchplan.gate.Status;

/**
 * The gate's verdict on the benchmark becomes validate's: pass (exit 0), fail (1), or an error at
 * the step that could not be judged (3).
 */
final class GatePhase {
  private GatePhase() {}

  /** Records the gate's verdict and the run folder, and concludes. */
  static Conclusion conclude(
      ValidateContext ctx, BenchmarkPhase.Prepared p, BenchmarkOutcome outcome) {
    ctx.doc().benchmark(p.shape(), p.planned(), p.rendered(), outcome.runDir());
    ctx.doc().gated(outcome);
    Status status = outcome.verdict();
    return switch (status) {
      case PASS -> new Conclusion(Status.PASS, ExitCode.OK, outcome.message(), null);
      case FAIL -> new Conclusion(Status.FAIL, ExitCode.GATE_FAILED, outcome.message(), null);
      case ERROR, SKIP ->
          Conclusion.error(
              outcome.message(),
              outcome.failedStep() == null ? ValidateStep.GATE : outcome.failedStep());
    };
  }
}
