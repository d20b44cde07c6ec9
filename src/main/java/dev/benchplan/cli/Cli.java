package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Builds the configured {@link CommandLine}: the one place where exceptions become a one-line
 * message on stderr and an exit code.
 */
public final class Cli {
  private Cli() {}

  /** The root command with every handler installed. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new BenchplanCommand());
    cl.setExecutionExceptionHandler(Cli::onExecutionException);
    cl.setParameterExceptionHandler(Cli::onParameterException);
    cl.setExitCodeExceptionMapper(Cli::exitCodeOf);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }

  static int exitCodeOf(Throwable t) {
    if (t instanceof BenchplanException e) {
      return e.exitCode();
    }
    if (t instanceof CommandLine.ParameterException) {
      return ExitCode.INVALID;
    }
    return ExitCode.INTERNAL;
  }

  private static int onExecutionException(
      Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
    PrintWriter err = cl.getErr();
    Throwable root = unwrap(ex);
    int code = exitCodeOf(root);
    String message = root.getMessage() == null ? root.getClass().getName() : root.getMessage();
    if (code == ExitCode.INTERNAL) {
      err.println("benchplan: internal error: " + root.getClass().getName() + ": " + message);
    } else {
      err.println("benchplan: " + message);
    }
    if (wantsStacktrace(parseResult)) {
      root.printStackTrace(err);
    } else if (code == ExitCode.INTERNAL) {
      err.println("benchplan: run again with --stacktrace for details");
    }
    err.flush();
    return code;
  }

  private static Throwable unwrap(Throwable t) {
    Throwable cur = t;
    while (!(cur instanceof BenchplanException) && cur.getCause() != null
        && (cur instanceof java.util.concurrent.ExecutionException
            || cur instanceof java.util.concurrent.CompletionException
            || cur instanceof java.lang.reflect.UndeclaredThrowableException)) {
      cur = cur.getCause();
    }
    return cur;
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

  /** A bad argument: the error, a suggestion, and how to get help; not the whole usage. */
  private static int onParameterException(CommandLine.ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println("benchplan: " + ex.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
    err.println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for usage.");
    err.flush();
    return ExitCode.INVALID;
  }
}
