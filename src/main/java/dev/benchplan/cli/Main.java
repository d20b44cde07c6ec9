package dev.benchplan.cli;

/** Entry point: builds the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    EarlyStart.begin(args); // trace inspect: start reading the trace while the commands are built
    Integer shortcut = TraceInspectShortcut.run(args); // null unless `trace inspect FILE` alone
    if (shortcut == null) {
      shortcut = AnalyzeShortcut.run(args); // null unless a plain `analyze RUN...`
    }
    System.exit(shortcut != null ? shortcut : Cli.commandLine(args).execute(args));
  }
}
