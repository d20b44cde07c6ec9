package dev.benchplan.validate;

import java.util.Objects;

/**
 * One constraint judged against the measurement (as the gate reports it).
 *
 * @param name the constraint's name, e.g. {@code inference-throughput}
 * @param operator {@code >=} or {@code <=}
 * @param threshold the threshold as written
 * @param tolerance the relative tolerance applied
 * @param effectiveThreshold the threshold after tolerance
 * @param measured the measured value in {@code unit}, or null when it could not be read
 * @param unit the unit of threshold and measurement
 * @param status {@code pass}, {@code fail} or {@code error}
 */
public record ConstraintResult(
    String name, String operator, double threshold, double tolerance, double effectiveThreshold,
    Double measured, String unit, String status) {
  public ConstraintResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(status, "status");
    if (!status.equals("pass") && !status.equals("fail") && !status.equals("error")) {
      throw new IllegalArgumentException("status must be pass, fail or error, got " + status);
    }
  }

  /** Judges a measurement with the constraint's tolerance (inclusive boundary); missing is an error. */
  public static ConstraintResult judge(PerformanceConstraint c, Double measured) {
    String status;
    if (measured == null || !Double.isFinite(measured)) {
      status = "error";
      measured = null;
    } else {
      boolean ok = c.operator().equals(">=")
          ? measured >= c.effectiveThreshold()
          : measured <= c.effectiveThreshold();
      status = ok ? "pass" : "fail";
    }
    return new ConstraintResult(c.name(), c.operator(), c.threshold(), c.tolerance(), c.effectiveThreshold(),
        measured, c.unit(), status);
  }
}
