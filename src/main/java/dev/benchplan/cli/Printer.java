package dev.benchplan.cli;

import dev.benchplan.error.ErrorReport;
import dev.benchplan.json.Json;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * The one place that prints a command's result on stdout: {@code --format json} as one JSON
 * document (Jackson's pretty printer), {@code text} through the output record itself.
 */
public final class Printer {
  private Printer() {}

  /** Prints {@code output} in the chosen format and returns {@code exitCode}. */
  public static int print(CommandLine cl, FormatMixin format, CommandOutput output, int exitCode) {
    return print(cl.getOut(), format.json(), output, exitCode);
  }

  /** Prints {@code output} on {@code out}, as JSON or text, and returns {@code exitCode}. */
  static int print(PrintWriter out, boolean json, CommandOutput output, int exitCode) {
    if (json) {
      String text = output.jsonText();
      if (text != null) {
        out.println(text);
      } else {
        printJson(out, output);
      }
    } else {
      output.printText(out);
    }
    out.flush();
    return exitCode;
  }

  /** An error as {@code {"error": {...}}} (schemas/error.schema.json). */
  static void printError(PrintWriter out, ErrorReport error) {
    printJson(out, new ErrorOutput(error));
    out.flush();
  }

  private static void printJson(PrintWriter out, Object value) {
    out.println(Json.JSON.writeValueAsString(value));
  }

  /** The {@code --format json} document of an error. */
  record ErrorOutput(@com.fasterxml.jackson.annotation.JsonProperty("error") ErrorReport error) {}
}
