package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan inspect}: Validate, hash and characterise a Mooncake trace in one streaming pass. */
@Command(name = "inspect", mixinStandardHelpOptions = true, description = "Validate, hash and characterise a Mooncake trace in one streaming pass.")
public final class TraceInspectCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'inspect' is not implemented yet");
  }
}
