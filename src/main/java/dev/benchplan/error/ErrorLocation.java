package dev.benchplan.error;

import org.jspecify.annotations.Nullable;

/**
 * Where an error sits: a file, a 1-based line and column, an RFC 6901 JSON pointer, and the field
 * or option; any part may be null when it is not known.
 */
public record ErrorLocation(
    @Nullable String file,
    @Nullable Integer line,
    @Nullable Integer column,
    @Nullable String pointer,
    @Nullable String field) {
  /** Nothing known. */
  public static final ErrorLocation NONE = new ErrorLocation(null, null, null, null, null);

  /** A file, optionally with a line and column (values below 1 mean unknown). */
  public static ErrorLocation file(String file, int line, int column) {
    return new ErrorLocation(
        file, line > 0 ? line : null, line > 0 && column > 0 ? column : null, null, null);
  }

  /** A command-line option such as {@code --min-throughput}. */
  public static ErrorLocation option(@Nullable String name) {
    return new ErrorLocation(null, null, null, null, name);
  }

  /** {@code file:line:column} as far as known, or null without a file. */
  public @Nullable String prefix() {
    if (file == null) {
      return null;
    }
    return file + (line == null ? "" : ":" + line + (column == null ? "" : ":" + column));
  }
}
