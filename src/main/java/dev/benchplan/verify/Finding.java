package dev.benchplan.verify;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One thing that does not match: which file, where in it (a JSON pointer, or a line / relative path
 * for non-JSON files), and what was expected against what was found.
 *
 * @param file the file, as the user named it or relative to the verified root
 * @param pointer a JSON pointer ({@code /workload/trace/sha256}), or another location in the file
 * @param message what differs: expected and found
 */
public record Finding(String file, String pointer, @Nullable String message) {
  public Finding {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }

  /** One line: {@code file pointer: message}. */
  public String line() {
    return file + " " + (pointer.isEmpty() ? "/" : pointer) + ": " + message;
  }
}
