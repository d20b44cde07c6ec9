package dev.benchplan.cli;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code benchplan smoke}: Prove an OpenAI-compatible endpoint serves a model; write the smoke artifact. */
@Command(name = "smoke", mixinStandardHelpOptions = true, description = "Prove an OpenAI-compatible endpoint serves a model; write the smoke artifact.")
public final class SmokeCommand implements Callable<Integer> {
  @Mixin FormatMixin format;

  @Override
  public Integer call() {
    throw new BenchplanException(ExitCode.INTERNAL, "'smoke' is not implemented yet");
  }
}
