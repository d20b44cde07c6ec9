package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan validate}: One-shot inference performance gate for a cluster. */
@Command(name = "validate", mixinStandardHelpOptions = true, description = "One-shot inference performance gate for a cluster.")
public final class ValidateCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'validate' is not implemented yet");
  }
}
