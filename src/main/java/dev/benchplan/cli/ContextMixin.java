package dev.benchplan.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** {@code --context}: the kubeconfig context of the commands that talk to a cluster. */
public final class ContextMixin {
  @Option(
      names = "--context",
      paramLabel = "CTX",
      description = "kubeconfig context (default: the current one).")
  @Nullable String context;

  /** The context given, or null for the kubeconfig's current one. */
  public @Nullable String context() {
    return context;
  }
}
