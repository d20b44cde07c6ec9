package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A failure of one validate step; the verdict names the step. */
public final class ValidateStepException extends BenchplanException {
  private static final long serialVersionUID = 1L;
  private final transient ValidateStep step;

  public ValidateStepException(
      ValidateStep step, int exitCode, @Nullable String message, @Nullable Throwable cause) {
    super(exitCode, message, cause);
    this.step = Objects.requireNonNull(step, "step");
  }

  /**
   * Wraps a failure of {@code step}, keeping its exit code and message; an unexpected exception is
   * exit 4.
   */
  public static ValidateStepException of(ValidateStep step, RuntimeException e) {
    if (e instanceof ValidateStepException v) {
      return v;
    }
    // an unexpected exception is a bug (exit 4), as everywhere; parser and file errors are input
    // (2)
    int code =
        e instanceof BenchplanException b
            ? b.exitCode()
            : dev.benchplan.error.ErrorMapper.map(e).exitCode();
    String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (!(e instanceof BenchplanException)) {
      msg =
          code == dev.benchplan.error.ExitCode.INTERNAL
              ? "internal error (a bug in benchplan): " + e.getClass().getName() + ": " + msg
              : dev.benchplan.error.ErrorMapper.map(e).message();
    }
    return new ValidateStepException(step, code, msg, e);
  }

  /** The step that failed. */
  public ValidateStep step() {
    return step;
  }
}
