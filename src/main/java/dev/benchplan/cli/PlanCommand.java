package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan plan}: Write an immutable, SHA-256-addressed series plan from a user workload. */
@Command(name = "plan", mixinStandardHelpOptions = true, description = "Write an immutable, SHA-256-addressed series plan from a user workload.")
public final class PlanCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'plan' is not implemented yet");
  }
}
