package dev.benchplan.plan;

/**
 * An explicit replay window of a trace, in trace milliseconds, both ends inclusive. Replaying only
 * a window is a transformation of the workload, recorded in the plan.
 *
 * @param startMs first timestamp replayed
 * @param endMs last timestamp replayed
 */
public record TraceWindow(long startMs, long endMs) {
  public TraceWindow {
    if (startMs < 0 || endMs < startMs) {
      throw new IllegalArgumentException(
          "trace window must satisfy 0 <= START_MS <= END_MS, got " + startMs + ":" + endMs);
    }
  }

  /**
   * Parses {@code START_MS:END_MS}.
   *
   * @throws IllegalArgumentException naming what was expected
   */
  public static TraceWindow parse(String text) {
    String[] parts = text.trim().split(":", -1);
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a window: expected START_MS:END_MS," + " e.g. 0:1500000");
    }
    try {
      return new TraceWindow(Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not a window: START_MS and END_MS must"
              + " be whole milliseconds, e.g. 0:1500000");
    }
  }

  @Override
  public String toString() {
    return startMs + ":" + endMs;
  }
}
