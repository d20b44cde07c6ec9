package dev.benchplan.gate;

import dev.benchplan.error.ExitCode;
import java.util.Locale;

/** The outcome of a constraint, of the request-error check, or of the whole gate. */
public enum Status {
  /** Met. */
  PASS,
  /** Missed. */
  FAIL,
  /** Nothing to check. */
  SKIP,
  /** Could not be decided (missing metric, cancelled or failed run): never a pass. */
  ERROR;

  /** The lowercase name used in JSON. */
  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The exit code of a gate with this verdict: 0 pass/skip, 1 fail, 3 error. */
  public int exitCode() {
    return switch (this) {
      case PASS, SKIP -> ExitCode.OK;
      case FAIL -> ExitCode.GATE_FAILED;
      case ERROR -> ExitCode.RUNTIME;
    };
  }
}
