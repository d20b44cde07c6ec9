package dev.benchplan.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The root command (its subcommands are added by {@link Cli}, only those a call needs). */
@Command(
    name = "benchplan",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Plans, renders and runs reproducible AIPerf benchmarks against NVIDIA Dynamo deployments"
          + " on Kubernetes, and gates them on throughput and latency.",
      ""
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  success / gate passed or skipped",
      "  1  gate failed",
      "  2  invalid input or configuration blocker (nothing written)",
      "  3  cluster, endpoint or run error",
      "  4  internal error"
    })
public final class BenchplanCommand implements Runnable {
  @Option(
      names = "--stacktrace",
      scope = ScopeType.INHERIT,
      description = "Print the full stack trace of an error.")
  boolean stacktrace;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
