package dev.benchplan.gate;

import java.time.Instant;
import java.util.Objects;

/**
 * When the evaluated work started and stopped (for CTRF's summary times and JUnit's timestamps):
 * for {@code gate}, the evaluation itself; for {@code run}, the benchmark run.
 *
 * @param start when it started
 * @param stop when it stopped (not before start)
 */
public record ReportTiming(Instant start, Instant stop) {
  public ReportTiming {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(stop, "stop");
    if (stop.isBefore(start)) {
      throw new IllegalArgumentException("stop " + stop + " is before start " + start);
    }
  }

  /** Milliseconds between start and stop. */
  public long durationMillis() {
    return stop.toEpochMilli() - start.toEpochMilli();
  }
}
