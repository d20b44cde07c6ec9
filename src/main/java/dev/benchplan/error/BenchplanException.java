package dev.benchplan.error;

import org.jspecify.annotations.Nullable;

/**
 * A failure with a known exit code and a one-line message naming the file, line or JSON pointer,
 * and field. Thrown by services; mapped to stderr and an exit code in one place (the CLI).
 */
public class BenchplanException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;
  private final transient ErrorLocation location;

  public BenchplanException(int exitCode, String message) {
    this(exitCode, message, null, ErrorLocation.NONE);
  }

  public BenchplanException(int exitCode, @Nullable String message, @Nullable Throwable cause) {
    this(exitCode, message, cause, ErrorLocation.NONE);
  }

  /** A failure whose place is known in parts (printed in {@code --format json} errors). */
  public BenchplanException(
      int exitCode, @Nullable String message, @Nullable Throwable cause, ErrorLocation location) {
    super(message, cause);
    this.exitCode = exitCode;
    this.location = location == null ? ErrorLocation.NONE : location;
  }

  public int exitCode() {
    return exitCode;
  }

  /** Where the error sits, as far as the thrower knew; never null. */
  public ErrorLocation location() {
    return location == null ? ErrorLocation.NONE : location;
  }

  /** Invalid input (exit 2). */
  public static BenchplanException invalid(String message) {
    return new BenchplanException(ExitCode.INVALID, message);
  }

  /** Invalid input (exit 2) with a cause. */
  public static BenchplanException invalid(String message, Throwable cause) {
    return new BenchplanException(ExitCode.INVALID, message, cause);
  }

  /** Invalid input (exit 2) at a known place. */
  public static BenchplanException invalid(ErrorLocation at, String message) {
    return new BenchplanException(ExitCode.INVALID, message, null, at);
  }

  /** Invalid input (exit 2) at a known place, with a cause. */
  public static BenchplanException invalid(
      ErrorLocation at, String message, @Nullable Throwable cause) {
    return new BenchplanException(ExitCode.INVALID, message, cause, at);
  }

  /** A cluster, endpoint or run error (exit 3) at a known place. */
  public static BenchplanException runtime(ErrorLocation at, String message) {
    return new BenchplanException(ExitCode.RUNTIME, message, null, at);
  }

  /** A cluster, endpoint or run error (exit 3) at a known place, with a cause. */
  public static BenchplanException runtime(
      ErrorLocation at, String message, @Nullable Throwable cause) {
    return new BenchplanException(ExitCode.RUNTIME, message, cause, at);
  }

  /** A cluster, endpoint or run error (exit 3). */
  public static BenchplanException runtime(String message) {
    return new BenchplanException(ExitCode.RUNTIME, message);
  }

  /** A cluster, endpoint or run error (exit 3) with a cause. */
  public static BenchplanException runtime(String message, @Nullable Throwable cause) {
    return new BenchplanException(ExitCode.RUNTIME, message, cause);
  }
}
