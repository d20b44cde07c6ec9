package dev.benchplan.trace;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One problem found in a trace.
 *
 * @param line 1-based line number in the file
 * @param field the row field concerned ({@code input_length}, {@code hash_ids}, ...), or null when
 *     the problem concerns the whole line or file
 * @param message what is wrong and what was expected
 */
public record TraceProblem(long line, @Nullable String field, String message) {
  public TraceProblem {
    if (line < 1) {
      throw new IllegalArgumentException("line must be 1-based, got " + line);
    }
    Objects.requireNonNull(message, "message");
  }

  /** {@code line 3: hash_ids: message}, as the text report shows it. */
  @Override
  public String toString() {
    return "line " + line + ": " + (field == null ? "" : field + ": ") + message;
  }
}
