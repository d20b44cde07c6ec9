package dev.benchplan.cli;

/** Entry point: builds the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    EarlyStart.begin(args); // trace inspect: start reading the trace while the commands are built
    System.exit(Cli.commandLine().execute(args));
  }
}
