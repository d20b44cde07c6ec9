package dev.benchplan.plan;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * The planning clock: the system clock, or a fixed instant from {@code SOURCE_DATE_EPOCH} (seconds
 * since the epoch) so identical inputs give byte-identical plans.
 */
public final class PlanClock {
  /** The reproducible-builds variable. */
  public static final String SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH";

  private PlanClock() {}

  /**
   * Where {@link #fromEnvironment} takes the time from: {@code SOURCE_DATE_EPOCH} or {@code
   * system_clock}.
   */
  public static String source(Map<String, String> env) {
    String epoch = env.get(SOURCE_DATE_EPOCH);
    return epoch == null || epoch.isBlank() ? "system_clock" : SOURCE_DATE_EPOCH;
  }

  /**
   * The clock for an environment.
   *
   * @throws BenchplanException (exit 2) when SOURCE_DATE_EPOCH is set but not whole seconds
   */
  public static Clock fromEnvironment(Map<String, String> env) {
    String epoch = env.get(SOURCE_DATE_EPOCH);
    if (epoch == null || epoch.isBlank()) {
      return Clock.systemUTC();
    }
    try {
      return Clock.fixed(Instant.ofEpochSecond(Long.parseLong(epoch.trim())), ZoneOffset.UTC);
    } catch (NumberFormatException e) {
      throw BenchplanException.invalid(
          ErrorLocation.field("SOURCE_DATE_EPOCH"),
          SOURCE_DATE_EPOCH
              + "='"
              + epoch
              + "': expected whole"
              + " seconds since 1970-01-01T00:00:00Z, e.g. 1767225600");
    }
  }
}
