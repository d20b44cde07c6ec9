package dev.benchplan.validate;

import java.util.Objects;

/**
 * One inference performance constraint as AICR writes it: {@code inference-throughput >= 5000}
 * (tokens/s) or {@code inference-ttft-p99 <= 200} (ms), checked with a relative tolerance.
 *
 * @param name {@link #THROUGHPUT} or {@link #TTFT_P99}
 * @param operator {@code >=} for throughput, {@code <=} for TTFT p99
 * @param threshold the value written in the overlay
 * @param tolerance the relative tolerance (0.10: throughput fails below 0.9 x threshold, TTFT p99
 *     above 1.1 x threshold)
 */
public record PerformanceConstraint(String name, String operator, double threshold, double tolerance) {
  /** Output token throughput, tokens/s, {@code >=}. */
  public static final String THROUGHPUT = "inference-throughput";
  /** Time to first token p99, ms, {@code <=}. */
  public static final String TTFT_P99 = "inference-ttft-p99";
  /** AICR's tolerance. */
  public static final double DEFAULT_TOLERANCE = 0.10;

  public PerformanceConstraint {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(operator, "operator");
    if (!name.equals(THROUGHPUT) && !name.equals(TTFT_P99)) {
      throw new IllegalArgumentException("unknown constraint " + name);
    }
    String expected = name.equals(THROUGHPUT) ? ">=" : "<=";
    if (!operator.equals(expected)) {
      throw new IllegalArgumentException(name + " takes only " + expected + ", got " + operator);
    }
    if (!Double.isFinite(threshold) || threshold <= 0) {
      throw new IllegalArgumentException(name + ": threshold must be a positive number");
    }
    if (!Double.isFinite(tolerance) || tolerance < 0 || tolerance >= 1) {
      throw new IllegalArgumentException(name + ": tolerance must be in [0, 1)");
    }
  }

  /** The unit of the measured value. */
  public String unit() {
    return name.equals(THROUGHPUT) ? "tokens/sec" : "ms";
  }

  /** The threshold after tolerance: 0.9 x for throughput, 1.1 x for TTFT p99 (at 10%). */
  public double effectiveThreshold() {
    // decimal arithmetic: 200 x 1.1 is exactly 220, so a boundary value is judged as written
    java.math.BigDecimal t = java.math.BigDecimal.valueOf(threshold);
    java.math.BigDecimal tol = java.math.BigDecimal.valueOf(tolerance);
    java.math.BigDecimal factor = operator.equals(">=")
        ? java.math.BigDecimal.ONE.subtract(tol) : java.math.BigDecimal.ONE.add(tol);
    return t.multiply(factor).doubleValue();
  }

  /** The defaults when validate runs without an overlay: >= 5000 tok/s, TTFT p99 <= 200 ms. */
  public static java.util.List<PerformanceConstraint> defaults() {
    return java.util.List.of(
        new PerformanceConstraint(THROUGHPUT, ">=", 5000, DEFAULT_TOLERANCE),
        new PerformanceConstraint(TTFT_P99, "<=", 200, DEFAULT_TOLERANCE));
  }
}
