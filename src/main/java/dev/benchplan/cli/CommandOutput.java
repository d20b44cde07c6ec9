package dev.benchplan.cli;

import java.io.PrintWriter;

/**
 * What a command returns: one output record. {@link Printer} prints it on stdout, as JSON from its
 * record components (Jackson's pretty printer) or as text by {@link #printText}.
 */
public interface CommandOutput {
  /** The human-readable form. */
  void printText(PrintWriter out);
}
