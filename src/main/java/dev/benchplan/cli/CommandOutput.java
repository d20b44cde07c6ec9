package dev.benchplan.cli;

import java.io.PrintWriter;
import org.jspecify.annotations.Nullable;

/**
 * What a command returns: one output record. {@link Printer} prints it on stdout, as JSON from its
 * record components (Jackson's pretty printer) or as text by {@link #printText}.
 */
public interface CommandOutput {
  /** The human-readable form. */
  void printText(PrintWriter out);

  /**
   * The JSON document as text when the output writes it itself, in Jackson's pretty layout (for
   * {@code trace inspect}, whose start-up would otherwise be a quarter Jackson's); null, the
   * default, lets Jackson write the record.
   */
  default @Nullable String jsonText() {
    return null;
  }
}
