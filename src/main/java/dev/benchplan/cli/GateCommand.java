package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan gate}: Gate an AIPerf summary export on throughput and TTFT constraints. */
@Command(name = "gate", mixinStandardHelpOptions = true, description = "Gate an AIPerf summary export on throughput and TTFT constraints.")
public final class GateCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'gate' is not implemented yet");
  }
}
