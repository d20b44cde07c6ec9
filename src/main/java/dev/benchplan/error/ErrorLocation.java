package dev.benchplan.error;

/**
 * Where an error sits: a file, a 1-based line and column, an RFC 6901 JSON pointer, and the field
 * or option; any part may be null when it is not known.
 */
public record ErrorLocation(String file, Integer line, Integer column, String pointer, String field) {
  /** Nothing known. */
  public static final ErrorLocation NONE = new ErrorLocation(null, null, null, null, null);

  /** A file, optionally with a line and column (values below 1 mean unknown). */
  public static ErrorLocation file(String file, int line, int column) {
    return new ErrorLocation(file, line > 0 ? line : null, line > 0 && column > 0 ? column : null, null, null);
  }

  /** A command-line option such as {@code --min-throughput}. */
  public static ErrorLocation option(String name) {
    return new ErrorLocation(null, null, null, null, name);
  }

  /** {@code file:line:column} as far as known, or null without a file. */
  public String prefix() {
    if (file == null) {
      return null;
    }
    return file + (line == null ? "" : ":" + line + (column == null ? "" : ":" + column));
  }
}
