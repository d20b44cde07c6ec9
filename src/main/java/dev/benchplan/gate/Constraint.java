package dev.benchplan.gate;

import dev.benchplan.aiperf.export.MetricUnit;
import dev.benchplan.rules.GateTolerance;
import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One gated objective: a statistic of an AIPerf metric compared with a threshold.
 *
 * @param name the constraint's name ({@code inference-throughput}, {@code inference-ttft-p99}, or
 *     {@code <metric>-<stat>})
 * @param metric the AIPerf metric tag, e.g. {@code time_to_first_token}
 * @param stat the statistic, e.g. {@code p99}
 * @param operator {@code >=} (a floor) or {@code <=} (a ceiling)
 * @param threshold the threshold, in {@code unit}
 * @param unit the threshold's unit; null means the canonical unit of the measured metric's
 *     dimension (ms for durations, tokens/sec for token throughput)
 * @param origin where the constraint came from, for messages (file and JSON pointer, or a flag)
 * @param tolerance this constraint's own tolerance (a plan gate records one); null: the gate
 *     options' tolerance applies (AICR's overlays and flags)
 * @param toleranceNote what a verdict must say about that tolerance (an older plan's gate), or null
 */
public record Constraint(
    String name,
    String metric,
    String stat,
    Operator operator,
    BigDecimal threshold,
    @Nullable MetricUnit unit,
    String origin,
    @Nullable BigDecimal tolerance,
    @Nullable String toleranceNote) {

  /** A constraint judged with the gate options' tolerance. */
  public Constraint(
      String name,
      String metric,
      String stat,
      Operator operator,
      BigDecimal threshold,
      @Nullable MetricUnit unit,
      String origin) {
    this(name, metric, stat, operator, threshold, unit, origin, null, null);
  }

  public Constraint {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(stat, "stat");
    Objects.requireNonNull(operator, "operator");
    Objects.requireNonNull(threshold, "threshold");
    Objects.requireNonNull(origin, "origin");
    if (operator != Operator.GE && operator != Operator.LE) {
      throw new IllegalArgumentException(name + ": only >= and <= can be gated, not " + operator);
    }
    if (threshold.signum() < 0) {
      throw new IllegalArgumentException(name + ": threshold must not be negative: " + threshold);
    }
    if (tolerance != null && !GateTolerance.inRange(tolerance)) {
      throw new IllegalArgumentException(name + ": tolerance must be in [0, 1): " + tolerance);
    }
  }

  /** This constraint with its own {@code tolerance} and, for an older plan's gate, a note. */
  public Constraint withTolerance(BigDecimal tolerance, @Nullable String note) {
    return new Constraint(name, metric, stat, operator, threshold, unit, origin, tolerance, note);
  }

  /** The tolerance it is judged with: its own, else {@code options}'. */
  public BigDecimal toleranceUnder(GateOptions options) {
    return tolerance != null ? tolerance : options.tolerance();
  }

  /**
   * The threshold after tolerance: a floor is lowered to {@code (1 - t) x threshold}, a ceiling
   * raised to {@code (1 + t) x threshold} (AICR's rule). Exact decimal arithmetic.
   */
  public BigDecimal effectiveThreshold(BigDecimal tolerance) {
    return GateTolerance.effective(operator == Operator.GE, threshold, tolerance);
  }

  /**
   * True when {@code measured} (in this constraint's unit) meets the effective threshold. The
   * boundary is inclusive: a measurement exactly at {@code (1 - t) x threshold} passes a floor, one
   * exactly at {@code (1 + t) x threshold} passes a ceiling — AICR fails only strictly below or
   * above.
   */
  public boolean isMetBy(BigDecimal measured, BigDecimal tolerance) {
    int cmp = measured.compareTo(effectiveThreshold(tolerance));
    return operator == Operator.GE ? cmp >= 0 : cmp <= 0;
  }
}
