package dev.benchplan.error;

import org.jspecify.annotations.Nullable;

/**
 * Where an error sits: a file, a 1-based line and column, an RFC 6901 JSON pointer, and the field
 * or option; any part may be null when it is not known. Throw sites build it with the factories
 * below; nothing reads it back out of a message.
 */
public record ErrorLocation(
    @Nullable String file,
    @Nullable Integer line,
    @Nullable Integer column,
    @Nullable String pointer,
    @Nullable String field) {
  /** Nothing known. */
  public static final ErrorLocation NONE = new ErrorLocation(null, null, null, null, null);

  public ErrorLocation {
    if ((line != null && line < 1) || (column != null && column < 1)) {
      throw new IllegalArgumentException("line and column are 1-based: " + line + ":" + column);
    }
    if (pointer != null && !pointer.isEmpty() && !pointer.startsWith("/")) {
      throw new IllegalArgumentException("not a JSON pointer: " + pointer);
    }
  }

  /** A file (a Path or a name), as the user named it. */
  public static ErrorLocation file(Object file) {
    return new ErrorLocation(String.valueOf(file), null, null, null, null);
  }

  /** A line of a file (values below 1 mean unknown). */
  public static ErrorLocation line(Object file, long line) {
    return file(String.valueOf(file), (int) Math.min(line, Integer.MAX_VALUE), 0);
  }

  /** A file, optionally with a line and column (values below 1 mean unknown). */
  public static ErrorLocation file(String file, int line, int column) {
    return new ErrorLocation(
        file, line > 0 ? line : null, line > 0 && column > 0 ? column : null, null, null);
  }

  /**
   * A JSON pointer into a file ({@code "/"} or {@code ""} is the whole document); the field is the
   * pointer's last name that is not an array index.
   */
  public static ErrorLocation pointer(@Nullable Object file, String pointer) {
    String p = pointer.equals("/") ? "" : pointer;
    return new ErrorLocation(
        file == null ? null : String.valueOf(file), null, null, p, lastName(p));
  }

  /** A field with no file: an environment variable, a setting. */
  public static ErrorLocation field(String name) {
    return new ErrorLocation(null, null, null, null, name);
  }

  /** A command-line option such as {@code --min-throughput}. */
  public static ErrorLocation option(@Nullable String name) {
    return new ErrorLocation(null, null, null, null, name);
  }

  /** A file named by a command-line option, such as {@code --deploy-root DIR}. */
  public static ErrorLocation option(String name, Object file) {
    return new ErrorLocation(String.valueOf(file), null, null, null, name);
  }

  /**
   * The member {@code name} below this place's pointer (the document's root without one); the field
   * becomes that name.
   */
  public ErrorLocation child(String name) {
    String escaped = name.replace("~", "~0").replace("/", "~1");
    return pointer(file, (pointer == null ? "" : pointer) + "/" + escaped);
  }

  /** This place with a field (a name in the document or an option). */
  public ErrorLocation withField(@Nullable String name) {
    return new ErrorLocation(file, line, column, pointer, name);
  }

  /** This place with a line (values below 1 mean unknown). */
  public ErrorLocation withLine(long lineNr) {
    Integer l = lineNr > 0 ? (int) Math.min(lineNr, Integer.MAX_VALUE) : null;
    return new ErrorLocation(file, l, l == null ? null : column, pointer, field);
  }

  /** {@code file:line:column} as far as known, or null without a file. */
  public @Nullable String prefix() {
    if (file == null) {
      return null;
    }
    return file + (line == null ? "" : ":" + line + (column == null ? "" : ":" + column));
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
}
