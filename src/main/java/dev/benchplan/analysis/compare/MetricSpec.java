package dev.benchplan.analysis.compare;

import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.stats.Direction;
import java.util.List;
import java.util.Optional;

/**
 * A per-run metric analyze and compare judge: a summary statistic (or a derived per-GPU rate), its
 * direction, and whether it is gated (a regression fails compare with exit 1).
 *
 * @param key e.g. {@code time_to_first_token.p99}
 * @param metric the AIPerf metric tag
 * @param stat the statistic
 * @param unit the unit values are in
 * @param direction which way is better
 * @param gated whether a regression fails the comparison (the gate's two metrics)
 * @param perGpu divide by the run's GPU count
 */
public record MetricSpec(
    String key,
    String metric,
    String stat,
    String unit,
    Direction direction,
    boolean gated,
    boolean perGpu) {
  /** The metrics compared and analysed, in table order. */
  public static final List<MetricSpec> STANDARD =
      List.of(
          new MetricSpec(
              "output_token_throughput.avg",
              "output_token_throughput",
              "avg",
              "tokens/sec",
              Direction.HIGHER_IS_BETTER,
              true,
              false),
          new MetricSpec(
              "output_token_throughput_per_gpu",
              "output_token_throughput",
              "avg",
              "tokens/sec/gpu",
              Direction.HIGHER_IS_BETTER,
              false,
              true),
          new MetricSpec(
              "request_throughput.avg",
              "request_throughput",
              "avg",
              "requests/sec",
              Direction.HIGHER_IS_BETTER,
              false,
              false),
          new MetricSpec(
              "time_to_first_token.p99",
              "time_to_first_token",
              "p99",
              "ms",
              Direction.LOWER_IS_BETTER,
              true,
              false),
          new MetricSpec(
              "time_to_first_token.p50",
              "time_to_first_token",
              "p50",
              "ms",
              Direction.LOWER_IS_BETTER,
              false,
              false),
          new MetricSpec(
              "inter_token_latency.avg",
              "inter_token_latency",
              "avg",
              "ms",
              Direction.LOWER_IS_BETTER,
              false,
              false),
          new MetricSpec(
              "request_latency.p99",
              "request_latency",
              "p99",
              "ms",
              Direction.LOWER_IS_BETTER,
              false,
              false),
          new MetricSpec(
              "output_token_throughput_per_user.avg",
              "output_token_throughput_per_user",
              "avg",
              "tokens/sec/user",
              Direction.HIGHER_IS_BETTER,
              false,
              false));

  /** The run's value, when it has one. */
  public Optional<Double> value(RunEvidence run) {
    Optional<Double> v = run.stat(metric, stat);
    if (!perGpu) {
      return v;
    }
    Integer gpus = run.gpus().value();
    return gpus == null || gpus <= 0 ? Optional.empty() : v.map(x -> x / gpus);
  }

  /** The values of the runs that have one, in order. */
  public double[] values(List<RunEvidence> runs) {
    return runs.stream()
        .map(this::value)
        .filter(Optional::isPresent)
        .mapToDouble(Optional::get)
        .toArray();
  }
}
