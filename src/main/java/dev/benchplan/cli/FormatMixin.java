package dev.benchplan.cli;

import picocli.CommandLine.Option;

/**
 * {@code --format text|json}, shared by every command; JSON is one document on stdout, on every
 * exit path (errors as {@code {"error": {...}}}, printed by {@link Cli}).
 */
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
}
