package dev.benchplan.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code benchplan trace}: commands on Mooncake-format request traces. */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = "Commands on Mooncake-format request traces.",
    subcommands = {TraceInspectCommand.class})
public final class TraceCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }
}
