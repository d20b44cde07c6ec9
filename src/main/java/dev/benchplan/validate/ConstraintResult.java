package dev.benchplan.validate;

import java.util.Objects;

/**
 * One constraint judged against the measurement.
 *
 * @param constraint the constraint
 * @param measured the measured value in the constraint's unit, or null when missing
 * @param status {@code pass}, {@code fail} or {@code error} (the metric is missing)
 */
public record ConstraintResult(PerformanceConstraint constraint, Double measured, String status) {
  public ConstraintResult {
    Objects.requireNonNull(constraint, "constraint");
    Objects.requireNonNull(status, "status");
    if (!status.equals("pass") && !status.equals("fail") && !status.equals("error")) {
      throw new IllegalArgumentException("status must be pass, fail or error, got " + status);
    }
  }

  /** Judges a measurement with the constraint's tolerance; a missing value is an error. */
  public static ConstraintResult judge(PerformanceConstraint c, Double measured) {
    if (measured == null || !Double.isFinite(measured)) {
      return new ConstraintResult(c, null, "error");
    }
    boolean ok = c.operator().equals(">=")
        ? measured >= c.effectiveThreshold()
        : measured <= c.effectiveThreshold();
    return new ConstraintResult(c, measured, ok ? "pass" : "fail");
  }
}
