package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ExitCode;
import dev.benchplan.plan.TraceWindow;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.trace.ScanProgress;
import dev.benchplan.trace.TraceReport;
import dev.benchplan.trace.TraceReportText;
import dev.benchplan.trace.TraceScanOptions;
import dev.benchplan.trace.TraceScanner;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.node.ObjectNode;

/** {@code benchplan trace inspect}: validate, hash and characterise a Mooncake trace. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Validate, hash and characterise a Mooncake-format JSONL trace in one streaming pass.",
      "Exit 0 when the trace is valid, 2 when it has problems (the report is still printed) or"
          + " cannot be read."
    })
public final class TraceInspectCommand implements Callable<Integer> {
  /** Progress is shown only for files at least this large (and only on a terminal). */
  static final long PROGRESS_MIN_BYTES = 50L << 20;

  @Spec CommandSpec spec;
  @Mixin FormatMixin format;

  @Parameters(
      index = "0",
      paramLabel = "TRACE",
      description = "The trace (JSONL, one request per line).")
  Path trace;

  @Option(
      names = "--block-size",
      defaultValue = TraceScanOptions.DEFAULT_BLOCK_SIZE + "",
      converter = NumericOptions.Tokens.class,
      paramLabel = "N",
      description =
          "Tokens per hash block, " + NumericOptions.Tokens.RANGE + " (default: ${DEFAULT-VALUE}).")
  int blockSize;

  @Option(
      names = {"--max-context", "--max-context-length"},
      paramLabel = "N",
      converter = NumericOptions.ContextTokens.class,
      description =
          "Count (never drop) rows whose input_length + output_length exceed N tokens ("
              + NumericOptions.ContextTokens.RANGE
              + ").")
  Long maxContext;

  @Option(
      names = "--window",
      paramLabel = "START_MS:END_MS",
      description =
          "Also report the rows a replay of this window sends (inclusive trace"
              + " milliseconds, as plan --trace-window): rows, rate, input/output lengths and rows"
              + " over --max-context, beside the whole trace's.")
  String window;

  @Override
  public Integer call() {
    TraceWindow w = null;
    if (window != null) {
      try {
        w = TraceWindow.parse(window);
      } catch (IllegalArgumentException e) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--window"), "--window: " + e.getMessage());
      }
    }
    TraceScanOptions options =
        new TraceScanOptions(
            blockSize, maxContext, w == null ? null : w.startMs(), w == null ? null : w.endMs());
    return inspect(
        trace, options, format.json(), spec.commandLine().getOut(), spec.commandLine().getErr());
  }

  /**
   * Scans {@code trace} and prints its report: what the command does once its arguments are parsed
   * (also run by {@link TraceInspectShortcut} without the parser).
   *
   * @return the exit code: 0 for a valid trace, 2 for one with problems
   */
  static int inspect(
      Path trace, TraceScanOptions options, boolean json, PrintWriter out, PrintWriter err) {
    ProgressRenderer renderer = ProgressRenderer.forStderr("trace inspect", err);
    ScanProgress progress =
        renderer.rich() && large(trace)
            ? new ScanProgress() {
              @Override
              public void update(long bytesDone, long totalBytes, long rows) {
                renderer.count("scan", bytesDone, totalBytes, rows);
              }
            }
            : ScanProgress.NONE;
    TraceReport report;
    try {
      report = TraceScanner.scan(trace, options, progress);
    } finally {
      renderer.finishCount();
    }
    return Printer.print(
        out, json, new Output(report), report.valid() ? ExitCode.OK : ExitCode.INVALID);
  }

  /**
   * The trace report: in JSON, {@link TraceReport#toJson()}, written as {@link
   * TraceReport#toJsonText()} (the same text, without loading Jackson).
   */
  record Output(TraceReport report) implements CommandOutput {
    @JsonValue
    ObjectNode json() {
      return report.toJson();
    }

    @Override
    public String jsonText() {
      return report.toJsonText();
    }

    @Override
    public void printText(PrintWriter out) {
      out.print(TraceReportText.render(report));
    }
  }

  private static boolean large(Path trace) {
    try {
      return Files.size(trace) >= PROGRESS_MIN_BYTES;
    } catch (java.io.IOException e) {
      return false; // the scan reports an unreadable file with its own message
    }
  }
}
