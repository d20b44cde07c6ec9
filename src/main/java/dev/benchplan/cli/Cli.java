package dev.benchplan.cli;

import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ErrorMapper;
import dev.benchplan.error.ErrorReport;
import dev.benchplan.error.ExitCode;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Builds the configured {@link CommandLine}: the one place where exceptions become an exit code (2
 * invalid input, 3 cluster/endpoint/run error, 4 a bug), a one-line message on stderr and, with
 * {@code --format json}, one {@code {"error": {...}}} document on stdout.
 */
public final class Cli {
  private Cli() {}

  /** The root command with every handler installed. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new BenchplanCommand());
    cl.setExecutionExceptionHandler(Cli::onExecutionException);
    cl.setParameterExceptionHandler(Cli::onParameterException);
    cl.setExitCodeExceptionMapper(t -> ErrorMapper.map(t).exitCode());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    NumericOptions.register(cl);
    return cl;
  }

  private static int onExecutionException(
      Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
    return reportFailure(
        ex,
        cl.getOut(),
        cl.getErr(),
        wantsStacktrace(parseResult),
        wantsJson(parseResult.originalArgs()));
  }

  /**
   * A command that failed: its one-line message (or stack trace) on stderr, with JSON its error
   * document on stdout.
   *
   * @return the exit code
   */
  static int reportFailure(
      Exception ex, PrintWriter out, PrintWriter err, boolean stacktrace, boolean json) {
    ErrorReport report = ErrorMapper.map(ex);
    err.println("benchplan: " + report.message());
    if (stacktrace) {
      ErrorMapper.unwrap(ex).printStackTrace(err);
    } else if (report.exitCode() == ExitCode.INTERNAL) {
      err.println("benchplan: run again with --stacktrace for details");
    }
    err.flush();
    if (json) {
      Printer.printError(out, report);
    }
    return report.exitCode();
  }

  private static boolean wantsStacktrace(CommandLine.ParseResult parseResult) {
    CommandLine.ParseResult root = parseResult;
    while (root != null) {
      if (root.hasMatchedOption("--stacktrace")) {
        return true;
      }
      root = root.hasSubcommand() ? root.subcommand() : null;
    }
    return false;
  }

  /** {@code --format json} (or {@code --format=json}) among the arguments, parsed or not. */
  static boolean wantsJson(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equalsIgnoreCase("--format=json")
          || (a.equals("--format")
              && i + 1 < args.size()
              && args.get(i + 1).equalsIgnoreCase("json"))) {
        return true;
      }
    }
    return false;
  }

  /** A bad argument: the error, a suggestion, and how to get help; not the whole usage. */
  private static int onParameterException(CommandLine.ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    PrintWriter err = cl.getErr();
    String message = String.valueOf(ex.getMessage()).strip().replaceAll("\\s*\\R\\s*", " ");
    err.println("benchplan: " + message);
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    // a bad value is said in its one line; a wrong or missing argument also points at the usage
    if (ex.getArgSpec() == null || ex instanceof CommandLine.MissingParameterException) {
      err.println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for usage.");
    }
    err.flush();
    if (wantsJson(List.of(args))) {
      ArgSpec arg = ex.getArgSpec();
      String field =
          arg instanceof OptionSpec o ? o.longestName() : arg == null ? null : arg.paramLabel();
      Printer.printError(
          cl.getOut(),
          ErrorReport.of(
              ErrorReport.INVALID_OPTION, ExitCode.INVALID, message, ErrorLocation.option(field)));
    }
    return ExitCode.INVALID;
  }
}
