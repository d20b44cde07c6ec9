package dev.benchplan.workload;

import dev.benchplan.rules.GateTolerance;
import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One service-level objective from the user workload, exactly as given (no rounding).
 *
 * @param metric an AIPerf metric tag ({@code time_to_first_token}), or one of benchplan's derived
 *     metrics: {@code output_token_throughput_per_gpu}, {@code error_rate}
 * @param stat the statistic: {@code avg}, {@code p95}, {@code p99}...
 * @param operator {@code <=} for a maximum, {@code >=} for a minimum
 * @param threshold the user's value
 * @param unit the unit of the threshold (ms for latencies)
 * @param pointer where in the workload the objective was written
 * @param tolerance the gate's relative slack in [0, 1): 0 unless the workload sets one
 */
public record Slo(
    String metric,
    String stat,
    String operator,
    BigDecimal threshold,
    String unit,
    String pointer,
    BigDecimal tolerance) {
  /** An objective gated exactly (no tolerance). */
  public Slo(
      String metric,
      String stat,
      String operator,
      BigDecimal threshold,
      String unit,
      String pointer) {
    this(metric, stat, operator, threshold, unit, pointer, GateTolerance.OBJECTIVE_DEFAULT);
  }

  public Slo {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(stat, "stat");
    Objects.requireNonNull(threshold, "threshold");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(tolerance, "tolerance");
    if (!GateTolerance.inRange(tolerance)) {
      throw new IllegalArgumentException("tolerance must be in [0, 1): " + tolerance);
    }
    if (!operator.equals("<=") && !operator.equals(">=")) {
      throw new IllegalArgumentException("operator must be <= or >=: " + operator);
    }
  }

  /** The percentile this objective rests on (e.g. 99 for p99), or null for avg/min/max/std. */
  public @Nullable Double percentile() {
    return stat.matches("p\\d+(\\.\\d+)?") ? Double.valueOf(stat.substring(1)) : null;
  }

  /** True for an upper bound on a per-request latency, which AIPerf can count as goodput. */
  public boolean isLatencyBound() {
    return operator.equals("<=") && MetricCatalog.isPerRequestLatency(metric);
  }
}
