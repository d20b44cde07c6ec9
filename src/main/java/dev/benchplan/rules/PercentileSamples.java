package dev.benchplan.rules;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * The one implementation of the sample rule for gated percentiles
 * (agent-docs/rules/benchmarking/concurrency-grid.md): a percentile resting on fewer than {@value
 * #MIN_SAMPLES} measured requests is refused by {@code plan} and flagged by {@code gate}; fewer
 * than {@value #WARN_BEYOND} requests beyond the percentile (a p99 on fewer than 1,000) is a
 * warning in both.
 */
public final class PercentileSamples {
  /** Fewer measured requests than this never carry a gated percentile. */
  public static final int MIN_SAMPLES = 100;

  /** Fewer requests than this beyond the percentile earn a warning (p99: 1,000 requests). */
  public static final int WARN_BEYOND = 10;

  private PercentileSamples() {}

  /** What the rule says of one percentile on a number of requests. */
  public enum Level {
    /** Enough requests, and enough beyond the percentile. */
    OK,
    /** Fewer than {@value #MIN_SAMPLES} requests. */
    TOO_FEW,
    /** Enough requests, but fewer than {@value #WARN_BEYOND} beyond the percentile. */
    FEW_BEYOND
  }

  /**
   * One percentile's sample basis.
   *
   * @param stat the statistic, e.g. {@code p99}
   * @param percentile its percentile, e.g. 99
   * @param requests measured requests it rests on
   * @param beyond requests beyond it, exactly n x (100 - p) / 100
   */
  public record Assessment(
      String stat, BigDecimal percentile, long requests, BigDecimal beyond, Level level) {
    /** The figure in words, e.g. "rests on 64 measured requests, 0.64 beyond the p99". */
    public String describe() {
      return "rests on "
          + requests
          + " measured requests, "
          + plain(beyond)
          + " beyond the "
          + stat;
    }

    /** The warning text for a level other than OK, naming {@code what} (a gate or constraint). */
    public String warning(String what) {
      return switch (level) {
        case TOO_FEW ->
            what
                + " ("
                + stat
                + ") "
                + describe()
                + ": a gated percentile needs at"
                + " least "
                + MIN_SAMPLES
                + " measured requests (concurrency-grid.md)";
        case FEW_BEYOND ->
            what
                + " ("
                + stat
                + ") "
                + describe()
                + ": fewer than "
                + WARN_BEYOND
                + " requests lie beyond the percentile ("
                + stat
                + " wants at least "
                + plain(minimumFor(percentile))
                + " requests; concurrency-grid.md)";
        case OK -> what + " (" + stat + ") " + describe();
      };
    }
  }

  /** The percentile of a statistic such as {@code p99} or {@code p99.9}; empty for avg, min... */
  public static Optional<BigDecimal> percentile(String stat) {
    return stat != null && stat.matches("p\\d+(\\.\\d+)?")
        ? Optional.of(new BigDecimal(stat.substring(1)))
        : Optional.empty();
  }

  /** Assesses a percentile statistic on {@code requests}; empty when the stat is no percentile. */
  public static Optional<Assessment> assess(String stat, long requests) {
    return percentile(stat)
        .map(
            p -> {
              // exact: n x (100 - p) / 100, so 1000 requests put exactly 10.0 beyond a p99
              BigDecimal beyond =
                  BigDecimal.valueOf(requests)
                      .multiply(BigDecimal.valueOf(100).subtract(p))
                      .divide(BigDecimal.valueOf(100));
              Level level =
                  requests < MIN_SAMPLES
                      ? Level.TOO_FEW
                      : beyond.compareTo(BigDecimal.valueOf(WARN_BEYOND)) < 0
                          ? Level.FEW_BEYOND
                          : Level.OK;
              return new Assessment(stat, p, requests, beyond, level);
            });
  }

  /** The fewest requests that put {@value #WARN_BEYOND} beyond percentile {@code p}. */
  static BigDecimal minimumFor(BigDecimal p) {
    BigDecimal tail = BigDecimal.valueOf(100).subtract(p);
    return tail.signum() <= 0
        ? BigDecimal.ZERO
        : BigDecimal.valueOf(WARN_BEYOND * 100L).divide(tail, 0, java.math.RoundingMode.CEILING);
  }

  private static String plain(BigDecimal v) {
    return v.stripTrailingZeros().toPlainString();
  }
}
