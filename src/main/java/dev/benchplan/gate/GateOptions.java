package dev.benchplan.gate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.rules.ExpectedErrors;
import dev.benchplan.rules.GateTolerance;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * How strictly the gate applies its constraints.
 *
 * @param tolerance relative slack on every threshold, in [0, 1): 0.10 lets throughput fall to 90%
 *     of its floor and TTFT rise to 110% of its ceiling
 * @param maxErrorRate the largest acceptable share of failed requests, in [0, 1]; above it, fail
 */
public record GateOptions(BigDecimal tolerance, BigDecimal maxErrorRate) {
  /** AICR's tolerance: 10%. */
  public static final BigDecimal DEFAULT_TOLERANCE = GateTolerance.AICR_DEFAULT;

  /** At most 1% failed requests by default (benchmarking/expected-errors.md). */
  public static final BigDecimal DEFAULT_MAX_ERROR_RATE = ExpectedErrors.DEFAULT_LIMIT;

  public GateOptions {
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(maxErrorRate, "maxErrorRate");
    if (tolerance.signum() < 0 || tolerance.compareTo(BigDecimal.ONE) >= 0) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--tolerance"),
          "--tolerance: expected a fraction in [0, 1) such as 0.10, got "
              + tolerance.toPlainString());
    }
    if (maxErrorRate.signum() < 0 || maxErrorRate.compareTo(BigDecimal.ONE) > 0) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--max-error-rate"),
          "--max-error-rate: expected a fraction in [0, 1] such as 0.01, got "
              + maxErrorRate.toPlainString());
    }
  }

  /** The defaults: tolerance 0.10, max error rate 0.01. */
  public static GateOptions defaults() {
    return new GateOptions(DEFAULT_TOLERANCE, DEFAULT_MAX_ERROR_RATE);
  }
}
