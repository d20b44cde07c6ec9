package dev.benchplan.cli;

import dev.benchplan.analysis.AnalyzeService;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.TypeConversionException;

/**
 * Runs the commonest analyze call, {@code analyze RUN... [--exp-root DIR] [--report-dir DIR]
 * [--format json|text]}, without building the command line, as {@link TraceInspectShortcut} does
 * for {@code trace inspect}: picocli's model of the command (its annotations, converters and help)
 * is a fixed cost of every call, paid on the thread that then loads the run. Any other argument
 * ({@code --gpus}, {@code --slo}, help, an argument file, a value picocli would refuse, such as a
 * file given as a directory) goes to the parser as before. What it prints and its exit code are the
 * parsed command's: the same {@link AnalyzeService#analyze}, the same output, the same failure
 * report ({@link Cli#reportFailure}).
 */
final class AnalyzeShortcut {
  private AnalyzeShortcut() {}

  /** What the shortcut takes from a command line. */
  record Call(List<Path> runs, Path expRoot, @Nullable Path reportDir, boolean json) {}

  /**
   * Runs {@code args} when they are a plain analyze call, on the process's stdout and stderr.
   *
   * @return the exit code, or null when the arguments need the parser
   */
  static @Nullable Integer run(String[] args) {
    Call call = parse(args);
    if (call == null) {
      return null;
    }
    return run(
        call,
        TraceInspectShortcut.writer(System.out, System.getProperty("sun.stdout.encoding")),
        TraceInspectShortcut.writer(System.err, System.getProperty("sun.stderr.encoding")));
  }

  /** Runs a call on the given writers (tests compare it with the parsed command). */
  static int run(Call call, PrintWriter out, PrintWriter err) {
    try {
      AnalyzeService.Outcome outcome =
          AnalyzeService.analyze(
              new AnalyzeService.Request(
                  call.runs(), call.expRoot(), call.reportDir(), null, List.of()));
      return Printer.print(out, call.json(), new AnalyzeCommand.Output(outcome), 0);
    } catch (Exception e) { // as picocli hands a command's exception to the handler
      return Cli.reportFailure(e, out, err, false, call.json());
    }
  }

  /**
   * The call, when {@code args} are {@code analyze} with one or more RUNs and at most one each of
   * {@code --exp-root}, {@code --report-dir} and {@code --format json|text} (also spelt {@code
   * --option=value}), every value one picocli would take as it is; else null.
   */
  static @Nullable Call parse(String[] args) {
    if (args.length < 2 || !args[0].equals("analyze")) {
      return null;
    }
    List<Path> runs = new ArrayList<>();
    String expRoot = null;
    String reportDir = null;
    String format = null;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("-")) {
        if (!plain(a)) {
          return null;
        }
        try {
          runs.add(Path.of(a));
        } catch (InvalidPathException e) {
          return null;
        }
        continue;
      }
      String option;
      String value;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        option = a.substring(0, eq);
        value = a.substring(eq + 1);
      } else if (i + 1 < args.length) {
        option = a;
        value = args[++i];
      } else {
        return null;
      }
      if (!plain(value)) {
        return null; // an option's value that looks like an option: the parser decides
      }
      switch (option) {
        case "--exp-root" -> {
          if (expRoot != null) {
            return null;
          }
          expRoot = value;
        }
        case "--report-dir" -> {
          if (reportDir != null) {
            return null;
          }
          reportDir = value;
        }
        case "--format" -> {
          if (format != null || !(value.equals("json") || value.equals("text"))) {
            return null;
          }
          format = value;
        }
        default -> {
          return null;
        }
      }
    }
    if (runs.isEmpty()) {
      return null;
    }
    try {
      DirectoryConverter dirs = new DirectoryConverter();
      // picocli converts the default value too
      Path exp = dirs.convert(expRoot == null ? "experiments" : expRoot);
      Path report = reportDir == null ? null : dirs.convert(reportDir);
      return new Call(runs, exp, report, "json".equals(format));
    } catch (TypeConversionException e) {
      return null; // the parser reports it, in its words
    }
  }

  /** An argument picocli takes as it is: no option, argument file or odd character. */
  private static boolean plain(String a) {
    return !a.isEmpty() && !a.startsWith("-") && !a.startsWith("@") && a.indexOf('\0') < 0;
  }
}
