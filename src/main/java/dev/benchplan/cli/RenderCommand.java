package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan render}: Render a plan into aiperf-config.yaml and a perf.yaml Kubernetes Job. */
@Command(name = "render", mixinStandardHelpOptions = true, description = "Render a plan into aiperf-config.yaml and a perf.yaml Kubernetes Job.")
public final class RenderCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'render' is not implemented yet");
  }
}
