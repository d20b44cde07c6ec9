package dev.benchplan.aiperf.config;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One AIPerf phase (warmup or the measured profiling phase) with its load and its bound.
 *
 * @param type how requests are issued
 * @param concurrency slots for {@link PhaseType#CONCURRENCY}, else null
 * @param rate requests/s for the rate types, else null
 * @param requests stop after this many requests (null: no count bound)
 * @param durationSeconds stop issuing after this many seconds (null: no time bound)
 * @param gracePeriodSeconds how long in-flight responses still count after the duration (only with
 *     a duration)
 * @param window inclusive replay window in trace milliseconds for {@link PhaseType#FIXED_SCHEDULE};
 *     null replays the whole trace from its first timestamp
 */
public record Phase(
    PhaseType type,
    @Nullable Integer concurrency,
    @Nullable BigDecimal rate,
    @Nullable Long requests,
    Integer durationSeconds,
    @Nullable Integer gracePeriodSeconds,
    @Nullable ReplayWindow window) {

  /** An inclusive window of trace timestamps, in milliseconds. */
  public record ReplayWindow(long startMs, long endMs) {
    public ReplayWindow {
      if (startMs < 0 || endMs < startMs) {
        throw new IllegalArgumentException(
            "replay window must satisfy 0 <= start <= end: " + startMs + ".." + endMs);
      }
    }
  }

  public Phase {
    Objects.requireNonNull(type, "type");
    if (type == PhaseType.CONCURRENCY && (concurrency == null || concurrency < 1)) {
      throw new IllegalArgumentException("a concurrency phase needs concurrency >= 1");
    }
    if (type.isRate() && (rate == null || rate.signum() <= 0)) {
      throw new IllegalArgumentException("a " + type.configName() + " phase needs a rate > 0");
    }
    if (!type.isRate() && rate != null) {
      throw new IllegalArgumentException("only rate phases take a rate");
    }
    if (requests != null && requests < 1) {
      throw new IllegalArgumentException("requests must be >= 1");
    }
    if (durationSeconds != null && durationSeconds < 1) {
      throw new IllegalArgumentException("duration must be >= 1 s");
    }
    if (type != PhaseType.FIXED_SCHEDULE && requests == null && durationSeconds == null) {
      throw new IllegalArgumentException("a " + type.configName() + " phase needs a bound");
    }
    if (gracePeriodSeconds != null && (durationSeconds == null || gracePeriodSeconds < 0)) {
      throw new IllegalArgumentException("a grace period needs a duration and must be >= 0");
    }
    if (window != null && type != PhaseType.FIXED_SCHEDULE) {
      throw new IllegalArgumentException("only a fixed-schedule phase takes a replay window");
    }
  }
}
