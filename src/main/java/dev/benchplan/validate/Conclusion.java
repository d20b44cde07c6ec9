package dev.benchplan.validate;

import dev.benchplan.error.ExitCode;
import dev.benchplan.gate.Status;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a validate run ends, before cleanup: the gate's status, the exit code, why, and the step that
 * failed.
 *
 * @param status pass, fail, skip or error (the gate's statuses)
 * @param exitCode 0 for pass and skip, 1 for fail; 2 (invalid input found once something was
 *     created), 3 (cluster or run) or 4 (a bug) for an error
 * @param reason one line saying why
 * @param failedStep the step that failed (errors only)
 */
record Conclusion(
    Status status, int exitCode, @Nullable String reason, @Nullable ValidateStep failedStep) {
  Conclusion {
    Objects.requireNonNull(status, "status");
    boolean consistent =
        switch (status) {
          case PASS, SKIP -> exitCode == ExitCode.OK && failedStep == null;
          case FAIL -> exitCode == ExitCode.GATE_FAILED && failedStep == null;
          case ERROR ->
              exitCode == ExitCode.INVALID
                  || exitCode == ExitCode.RUNTIME
                  || exitCode == ExitCode.INTERNAL;
        };
    if (!consistent) {
      throw new IllegalArgumentException(
          status.json() + " with exit " + exitCode + " at step " + failedStep);
    }
  }

  /** The check is not run, and why. */
  static Conclusion skip(@Nullable String reason) {
    return new Conclusion(Status.SKIP, ExitCode.OK, reason, null);
  }

  /** A cluster or run error at {@code step} (exit 3). */
  static Conclusion error(@Nullable String reason, ValidateStep step) {
    return new Conclusion(Status.ERROR, ExitCode.RUNTIME, reason, step);
  }

  /**
   * A failed step: invalid input (2) and bugs (4) keep their code; every other failure is the
   * cluster's or the run's (3).
   */
  static Conclusion failed(ValidateStepException e) {
    int code =
        e.exitCode() == ExitCode.INVALID || e.exitCode() == ExitCode.INTERNAL
            ? e.exitCode()
            : ExitCode.RUNTIME;
    return new Conclusion(Status.ERROR, code, e.getMessage(), e.step());
  }

  /** This verdict with cleanup's problems: a pass, fail or skip becomes an error at cleanup. */
  Conclusion cleanupIncomplete(String problems) {
    if (status == Status.ERROR) {
      return new Conclusion(
          status, exitCode, reason + "; cleanup incomplete: " + problems, failedStep);
    }
    return error(
        "cleanup incomplete after a " + status.json() + " verdict (" + reason + "): " + problems,
        ValidateStep.CLEANUP);
  }
}
