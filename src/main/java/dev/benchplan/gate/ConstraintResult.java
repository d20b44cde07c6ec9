package dev.benchplan.gate;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How one constraint fared.
 *
 * @param name the constraint's name
 * @param metric the AIPerf metric tag
 * @param stat the statistic
 * @param operator {@code >=} or {@code <=}
 * @param threshold the threshold as given, in {@code unit}
 * @param tolerance the relative tolerance applied
 * @param effectiveThreshold the threshold after tolerance, in {@code unit}
 * @param measured the measured statistic converted to {@code unit}; null when it could not be read
 * @param unit the unit threshold and measurement are compared in
 * @param exportUnit the unit the export wrote for this metric (null when the metric is absent)
 * @param status pass, fail or error
 * @param message one line saying why
 */
public record ConstraintResult(
    String name,
    String metric,
    String stat,
    Operator operator,
    BigDecimal threshold,
    BigDecimal tolerance,
    BigDecimal effectiveThreshold,
    @Nullable BigDecimal measured,
    String unit,
    @Nullable String exportUnit,
    Status status,
    String message) {

  public ConstraintResult {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(threshold, "threshold");
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(effectiveThreshold, "effectiveThreshold");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(message, "message");
    if (status == Status.SKIP) {
      throw new IllegalArgumentException("a constraint is pass, fail or error, never skip");
    }
    if (measured == null && status != Status.ERROR) {
      throw new IllegalArgumentException(name + ": a pass or fail needs a measurement");
    }
  }
}
