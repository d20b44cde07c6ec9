package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.util.Objects;

/** A failure of one validate step; the verdict names the step. */
public final class ValidateStepException extends BenchplanException {
  private static final long serialVersionUID = 1L;
  private final transient ValidateStep step;

  public ValidateStepException(ValidateStep step, int exitCode, String message, Throwable cause) {
    super(exitCode, message, cause);
    this.step = Objects.requireNonNull(step, "step");
  }

  /** Wraps a failure of {@code step}, keeping its exit code and message; an unexpected exception is exit 4. */
  public static ValidateStepException of(ValidateStep step, RuntimeException e) {
    if (e instanceof ValidateStepException v) {
      return v;
    }
    // a BenchplanException carries its code (API and endpoint failures: 3); anything else is a bug: 4
    int code = e instanceof BenchplanException b ? b.exitCode() : dev.benchplan.error.ExitCode.INTERNAL;
    String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (!(e instanceof BenchplanException)) {
      msg = "internal error (a bug in benchplan): " + e.getClass().getName() + ": " + msg;
    }
    return new ValidateStepException(step, code, msg, e);
  }

  /** The step that failed. */
  public ValidateStep step() {
    return step;
  }
}
