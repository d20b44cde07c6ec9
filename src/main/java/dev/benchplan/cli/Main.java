package dev.benchplan.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** Entry point: builds the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(
        run(
            args,
            TraceInspectShortcut.writer(System.out, System.getProperty("sun.stdout.encoding")),
            TraceInspectShortcut.writer(System.err, System.getProperty("sun.stderr.encoding"))));
  }

  /**
   * One call of {@code benchplan args...} on {@code out} and {@code err}, as the user's goes (the
   * command harness of the tests takes this path too).
   *
   * @return the exit code
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    EarlyStart.begin(args); // trace inspect: start reading the trace while the commands are built
    TraceInspectShortcut.Call trace =
        TraceInspectShortcut.parse(args); // `trace inspect FILE` alone
    if (trace != null) {
      return TraceInspectShortcut.run(trace, out, err);
    }
    CommandLine cl = Cli.commandLine(args);
    cl.setOut(out);
    cl.setErr(err);
    return cl.execute(args);
  }
}
