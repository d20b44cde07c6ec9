package dev.benchplan.error;

/** The one exit-code scheme every benchplan command uses. */
public final class ExitCode {
  /** Success, or the gate passed (or skipped). */
  public static final int OK = 0;

  /** The gate failed: a measured value missed its constraint. */
  public static final int GATE_FAILED = 1;

  /** Invalid input or a configuration blocker; nothing was written. */
  public static final int INVALID = 2;

  /** A cluster, endpoint or run error. */
  public static final int RUNTIME = 3;

  /** An internal bug. */
  public static final int INTERNAL = 4;

  private ExitCode() {}
}
