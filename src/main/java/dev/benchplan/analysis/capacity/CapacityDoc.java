package dev.benchplan.analysis.capacity;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The capacity block of a series in performance_analysis.json ({@code /series/N/capacity}): how
 * throughput and latency scale across a load grid, where the knee is, and the highest load point
 * that meets every SLO.
 *
 * @param loadParameter the grid's load parameter, e.g. {@code concurrency}
 * @param throughputMetric the throughput scaled (mean over runs per point)
 * @param latencyMetric the latency whose growth is set against throughput's
 * @param kneeRule the knee's definition, as applied
 * @param steps one per pair of neighbouring load points, in numeric order
 * @param knee the last load point before latency first grows faster than throughput; null when it
 *     never does in the sweep
 * @param saturated a knee was found
 * @param extendTo the load point to extend the sweep to when it did not saturate; null otherwise
 * @param highestSloFeasible the highest load point meeting every SLO; null without SLOs or when
 *     none is met
 * @param statement the answer in one line, as text, summary.md and report.html print it
 */
public record CapacityDoc(
    @JsonProperty("load_parameter") String loadParameter,
    @JsonProperty("throughput_metric") String throughputMetric,
    @JsonProperty("latency_metric") String latencyMetric,
    @JsonProperty("knee_rule") String kneeRule,
    List<Step> steps,
    @Nullable String knee,
    boolean saturated,
    @JsonProperty("extend_to") @Nullable String extendTo,
    @JsonProperty("highest_slo_feasible") @Nullable Feasible highestSloFeasible,
    String statement) {

  /**
   * From one load point to the next higher one.
   *
   * @param from the lower load point
   * @param to the higher load point
   * @param loadRatio load(to) / load(from)
   * @param throughputRatio throughput(to) / throughput(from)
   * @param latencyRatio latency(to) / latency(from); null when either is missing
   * @param scalingEfficiency throughput ratio / load ratio: 1 is linear scaling
   * @param marginalLatencyPerThroughput added latency per added throughput (latency unit per
   *     throughput unit); null when throughput did not grow
   * @param latencyOutpacesThroughput latency ratio &gt; throughput ratio
   */
  public record Step(
      String from,
      String to,
      @JsonProperty("load_ratio") @Nullable BigDecimal loadRatio,
      @JsonProperty("throughput_ratio") @Nullable BigDecimal throughputRatio,
      @JsonProperty("latency_ratio") @Nullable BigDecimal latencyRatio,
      @JsonProperty("scaling_efficiency") @Nullable BigDecimal scalingEfficiency,
      @JsonProperty("marginal_latency_per_throughput")
          @Nullable BigDecimal marginalLatencyPerThroughput,
      @JsonProperty("latency_outpaces_throughput") boolean latencyOutpacesThroughput) {}

  /**
   * The mean of a metric over a point's runs with its 95% Student-t interval.
   *
   * @param mean the mean
   * @param ciLow the interval's low end; null with fewer than two runs
   * @param ciHigh the interval's high end; null with fewer than two runs
   * @param runs the runs it rests on
   */
  public record Estimate(
      @Nullable BigDecimal mean,
      @JsonProperty("ci_low") @Nullable BigDecimal ciLow,
      @JsonProperty("ci_high") @Nullable BigDecimal ciHigh,
      int runs) {}

  /**
   * One SLO at the highest feasible point.
   *
   * @param slo e.g. {@code time_to_first_token.p99 <= 60.0}
   * @param observed the metric's mean and interval
   * @param status {@code met} (the whole interval meets it), {@code met_single_run} (one run: no
   *     interval) or {@code met_interval_crosses} (the mean meets it, the interval reaches past it)
   */
  public record SloMargin(String slo, Estimate observed, String status) {}

  /**
   * The highest load point meeting every SLO (on the means over runs).
   *
   * @param loadPoint the point
   * @param throughput its throughput with its interval
   * @param slos each SLO with its interval and status
   * @param certain every SLO {@code met} with its whole interval
   * @param nextPoint the next higher load point of the grid (it misses an SLO); null when the
   *     feasible point is the highest of the sweep
   */
  public record Feasible(
      @JsonProperty("load_point") String loadPoint,
      Estimate throughput,
      List<SloMargin> slos,
      boolean certain,
      @JsonProperty("next_point") @Nullable String nextPoint) {}
}
