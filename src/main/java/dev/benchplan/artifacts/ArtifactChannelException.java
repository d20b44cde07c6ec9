package dev.benchplan.artifacts;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;

/** The artifact block is missing, cut, corrupt or does not match its manifest (exit 3). */
public final class ArtifactChannelException extends BenchplanException {
  private static final long serialVersionUID = 1L;

  public ArtifactChannelException(String message) {
    super(ExitCode.RUNTIME, message);
  }

  public ArtifactChannelException(String message, Throwable cause) {
    super(ExitCode.RUNTIME, message, cause);
  }
}
