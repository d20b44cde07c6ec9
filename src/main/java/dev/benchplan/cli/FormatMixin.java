package dev.benchplan.cli;

import dev.benchplan.json.Json;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code --format text|json}, shared by every command; JSON is one document on stdout. */
public final class FormatMixin {
  @Option(
      names = "--format",
      defaultValue = "text",
      paramLabel = "text|json",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  OutputFormat format = OutputFormat.text;

  public boolean json() {
    return format == OutputFormat.json;
  }

  /** Prints a value as one pretty JSON document. */
  public static void printJson(PrintWriter out, Object value) {
    out.println(Json.JSON.writeValueAsString(value));
    out.flush();
  }
}
