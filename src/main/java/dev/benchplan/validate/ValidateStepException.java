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
    this(step, exitCode, message, cause, dev.benchplan.error.ErrorLocation.NONE);
  }

  /** A failure of {@code step} at a known place (the wrapped error's). */
  public ValidateStepException(
      ValidateStep step,
      int exitCode,
      @Nullable String message,
      @Nullable Throwable cause,
      dev.benchplan.error.ErrorLocation location) {
    super(exitCode, message, cause, location);
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
    return new ValidateStepException(
        step, code, msg, e, dev.benchplan.error.ErrorMapper.map(e).location());
  }

  /** The step that failed. */
  public ValidateStep step() {
    return step;
  }
}
