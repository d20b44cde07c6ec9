package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan run}: Run a rendered perf.yaml in the cluster, collect artifacts, gate. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a rendered perf.yaml in the cluster, collect artifacts, gate.")
public final class RunCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'run' is not implemented yet");
  }
}
