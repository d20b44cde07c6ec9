package dev.benchplan.cli;

import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.ErrorMapper;
import dev.benchplan.error.ErrorReport;
import dev.benchplan.error.ExitCode;
import java.io.PrintWriter;
import java.util.List;
import picocli.AutoComplete;
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

  /** The subcommands, in the order the usage lists them. */
  static final List<String> SUBCOMMANDS =
      List.of(
          "trace",
          "smoke",
          "plan",
          "render",
          "run",
          "gate",
          "analyze",
          "compare",
          "verify",
          "validate",
          "rbac",
          "generate-completion");

  private static Object subcommand(String name) {
    return switch (name) {
      case "trace" -> new TraceCommand();
      case "smoke" -> new SmokeCommand();
      case "plan" -> new PlanCommand();
      case "render" -> new RenderCommand();
      case "run" -> new RunCommand();
      case "gate" -> new GateCommand();
      case "analyze" -> new AnalyzeCommand();
      case "compare" -> new CompareCommand();
      case "verify" -> new VerifyCommand();
      case "validate" -> new ValidateCommand();
      case "rbac" -> new RbacCommand();
      case "generate-completion" -> new AutoComplete.GenerateCompletion();
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }

  /** The root command with every subcommand and every handler installed. */
  public static CommandLine commandLine() {
    return build(SUBCOMMANDS);
  }

  /**
   * The command line for one call: when its first argument names a subcommand, the root with that
   * subcommand only (picocli reads every command's annotations when it is added: building all of
   * them took about a quarter of a second of CPU before `plan` or `render` did anything); else
   * (help, the version, a typo that wants suggestions, the completion script) every subcommand.
   */
  public static CommandLine commandLine(String[] args) {
    String first = args.length > 0 ? args[0] : "";
    boolean one = SUBCOMMANDS.contains(first) && !first.equals("generate-completion");
    return build(one ? List.of(first) : SUBCOMMANDS);
  }

  private static CommandLine build(List<String> names) {
    CommandLine cl = new CommandLine(new BenchplanCommand());
    for (String name : names) {
      cl.addSubcommand(name, subcommand(name));
    }
    // the settings below reach the subcommands added so far only: they come last
    cl.setExecutionExceptionHandler(Cli::onExecutionException);
    cl.setParameterExceptionHandler(Cli::onParameterException);
    cl.setExitCodeExceptionMapper(t -> ErrorMapper.map(t).exitCode());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    NumericOptions.register(cl);
    CommandExitCodes.install(cl);
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
