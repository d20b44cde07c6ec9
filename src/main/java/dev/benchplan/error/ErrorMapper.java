package dev.benchplan.error;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The one place where an exception becomes an {@link ErrorReport}: its exit code (2 invalid input,
 * 3 cluster/endpoint/run error, 4 a bug), a one-line message in the user's terms, and where.
 */
public final class ErrorMapper {
  private ErrorMapper() {}

  /** Maps any throwable (wrappers such as ExecutionException are looked through). */
  public static ErrorReport map(Throwable thrown) {
    Throwable t = unwrap(thrown);
    if (t instanceof BenchplanException b) {
      String code =
          b.exitCode() == ExitCode.INVALID
              ? ErrorReport.INVALID_INPUT
              : b.exitCode() == ExitCode.INTERNAL
                  ? ErrorReport.INTERNAL_ERROR
                  : ErrorReport.RUN_ERROR;
      // the place is what the thrower said, never read back out of the message
      return ErrorReport.of(code, b.exitCode(), oneLine(b.getMessage()), b.location());
    }
    if (t instanceof JacksonException j) {
      BenchplanException b = InputErrors.unparsable(null, "input", j);
      return ErrorReport.of(ErrorReport.INVALID_INPUT, ExitCode.INVALID, b.getMessage(), null);
    }
    if (t instanceof UncheckedIOException u
        && u.getCause() != null) { // it always wraps an IOException
      t = u.getCause();
    }
    if (t instanceof NoSuchFileException
        || t instanceof AccessDeniedException
        || t instanceof NotDirectoryException) {
      String file = ((java.nio.file.FileSystemException) t).getFile();
      return ErrorReport.of(
          ErrorReport.INVALID_INPUT,
          ExitCode.INVALID,
          file + ": " + InputErrors.describe(t),
          file == null ? null : ErrorLocation.file(file));
    }
    if (t instanceof IOException io) {
      return ErrorReport.of(
          ErrorReport.RUN_ERROR, ExitCode.RUNTIME, "I/O error: " + InputErrors.describe(io), null);
    }
    if (t instanceof InvalidPathException p) {
      return ErrorReport.of(
          ErrorReport.INVALID_INPUT,
          ExitCode.INVALID,
          "'" + p.getInput() + "' is not a valid path: " + p.getReason(),
          null);
    }
    String message = t.getMessage() == null ? "" : ": " + oneLine(t.getMessage());
    return ErrorReport.of(
        ErrorReport.INTERNAL_ERROR,
        ExitCode.INTERNAL,
        "internal error: " + t.getClass().getName() + message,
        null);
  }

  /** The throwable that says what happened, below executor and proxy wrappers. */
  public static Throwable unwrap(Throwable t) {
    Throwable cur = t;
    while (!(cur instanceof BenchplanException)
        && (cur instanceof ExecutionException
            || cur instanceof CompletionException
            || cur instanceof UndeclaredThrowableException)) {
      Throwable cause = cur.getCause();
      if (cause == null) {
        break;
      }
      cur = cause;
    }
    return cur;
  }

  private static String oneLine(@Nullable String s) {
    if (s == null || s.isBlank()) {
      return "failed";
    }
    return s.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
