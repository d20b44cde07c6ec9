package dev.benchplan.error;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The one place where an exception becomes an {@link ErrorReport}: its exit code (2 invalid input,
 * 3 cluster/endpoint/run error, 4 a bug), a one-line message in the user's terms, and where.
 */
public final class ErrorMapper {
  /**
   * {@code file:line:column}, {@code file:line} or {@code file (line L, column C)} at a token's
   * start.
   */
  private static final Pattern FILE_AT =
      Pattern.compile("^(.+?)(?::(\\d+))?(?::(\\d+))?(?: \\(line (\\d+), column (\\d+)\\))?:?$");

  private static final Pattern POINTER = Pattern.compile("(?:^|\\s)(/[^\\s:,;]*):");
  private static final Pattern OPTION = Pattern.compile("(?:^|[\\s'])(--[a-z][a-z0-9-]*)");

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
      ErrorLocation where =
          b.location().equals(ErrorLocation.NONE) ? locate(b.getMessage()) : b.location();
      return ErrorReport.of(code, b.exitCode(), oneLine(b.getMessage()), where);
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
          new ErrorLocation(file, null, null, null, null));
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

  /**
   * Reads the place back out of a message that names it in the project's usual forms: the first
   * token that is an existing file, optionally with {@code :line[:column]}; then a JSON pointer
   * ({@code /a/0/b:}); the field is the pointer's last name, or an option such as {@code
   * --exp-root} named in the message.
   */
  static ErrorLocation locate(@Nullable String message) {
    if (message == null) {
      return ErrorLocation.NONE;
    }
    String file = null;
    Integer line = null;
    Integer column = null;
    int after = 0;
    int offset = 0;
    for (String token : message.split(" ")) {
      Matcher m = FILE_AT.matcher(token);
      if (m.matches() && looksLikeFile(m.group(1))) {
        file = m.group(1);
        line = integer(m.group(2));
        column = integer(m.group(3));
        after = offset + token.length();
        break;
      }
      offset += token.length() + 1;
    }
    if (file != null && line == null) {
      Matcher lc =
          Pattern.compile("^ \\(line (\\d+), column (\\d+)\\)").matcher(message.substring(after));
      if (lc.find()) {
        line = integer(lc.group(1));
        column = integer(lc.group(2));
      }
    }
    String pointer = null;
    Matcher p = POINTER.matcher(message.substring(after));
    if (file != null && p.find()) {
      pointer = p.group(1).equals("/") ? "" : p.group(1);
    }
    String field = pointer == null ? null : lastName(pointer);
    if (field == null) {
      Matcher o = OPTION.matcher(message);
      field = o.find() ? o.group(1) : null;
    }
    return new ErrorLocation(file, line, column, pointer, field);
  }

  private static boolean looksLikeFile(String candidate) {
    if (candidate.isEmpty() || candidate.startsWith("--") || candidate.startsWith("http")) {
      return false;
    }
    try {
      Path p = Path.of(candidate);
      if (Files.exists(p)) {
        return !candidate.startsWith("/") || p.getNameCount() > 1;
      }
      // a missing file the message names: a path with a name.ext in an existing folder
      Path parent = p.getParent();
      return parent != null
          && parent.getNameCount() > 0
          && Files.isDirectory(parent)
          && p.getFileName().toString().matches("[^/]+\\.[A-Za-z0-9]+");
    } catch (InvalidPathException e) {
      return false;
    }
  }

  private static @Nullable String lastName(String pointer) {
    String[] parts = pointer.split("/");
    for (int i = parts.length - 1; i >= 0; i--) {
      if (!parts[i].isEmpty() && !parts[i].chars().allMatch(Character::isDigit)) {
        return parts[i].replace("~1", "/").replace("~0", "~");
      }
    }
    return null;
  }

  private static @Nullable Integer integer(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Integer.valueOf(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String oneLine(@Nullable String s) {
    if (s == null || s.isBlank()) {
      return "failed";
    }
    return s.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
