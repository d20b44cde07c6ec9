package dev.benchplan.diagnostics;

import java.util.Locale;

/**
 * The load AIPerf was told to drive.
 *
 * @param mode closed loop (a concurrency), open loop (a request rate) or unknown (a fixed schedule,
 *     or not recorded)
 * @param value the concurrency, or the rate in requests per second; 0 when unknown
 * @param source where it was read, e.g. {@code input_config /loadgen/concurrency}
 */
public record LoadTarget(Mode mode, double value, String source) {
  /** How the load was driven. */
  public enum Mode {
    CLOSED_LOOP,
    OPEN_LOOP,
    UNKNOWN
  }

  public LoadTarget {
    if (mode != Mode.UNKNOWN && !(value > 0)) {
      throw new IllegalArgumentException("a load target needs a positive value, got " + value);
    }
  }

  public static LoadTarget concurrency(int c, String source) {
    return new LoadTarget(Mode.CLOSED_LOOP, c, source);
  }

  public static LoadTarget rate(double requestsPerSecond, String source) {
    return new LoadTarget(Mode.OPEN_LOOP, requestsPerSecond, source);
  }

  public static LoadTarget unknown(String why) {
    return new LoadTarget(Mode.UNKNOWN, 0, why);
  }

  @Override
  public String toString() {
    return switch (mode) {
      case CLOSED_LOOP -> String.format(Locale.ROOT, "concurrency %.0f", value);
      case OPEN_LOOP -> String.format(Locale.ROOT, "request rate %s/s", StallDetector.num(value));
      case UNKNOWN -> "no load target (" + source + ")";
    };
  }
}
