package dev.benchplan.analysis.report;

import java.math.BigDecimal;
import java.math.MathContext;
import org.jspecify.annotations.Nullable;

/**
 * A computed double as the analysis documents write it: ten significant digits (enough for any
 * measurement AIPerf reports), trailing zeros stripped, and null for NaN or infinity (JSON has
 * neither). The one rule behind every number of the analysis documents.
 */
public final class Measured {
  static final MathContext DIGITS = new MathContext(10);

  private Measured() {}

  /** The values to write, in order (null for each one that is not finite). */
  public static java.util.List<@Nullable BigDecimal> all(double[] values) {
    return java.util.Arrays.stream(values).mapToObj(Measured::of).toList();
  }

  /** The value to write, or null when it is not finite. */
  public static @Nullable BigDecimal of(double v) {
    return Double.isFinite(v) ? new BigDecimal(v, DIGITS).stripTrailingZeros() : null;
  }
}
