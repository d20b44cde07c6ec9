package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * benchmark_summary.json (schemas/benchmark-summary.schema.json): every metric with units,
 * throughput per GPU and per user, recomputed percentiles. Built by {@link RunDocuments#summary}.
 *
 * @param schemaVersion the documents' schema version
 * @param kind {@code benchmark_summary}
 * @param run the run block
 * @param inputs the input files read
 * @param auditStatus the audit's status
 * @param summarySource aiperf, rebuilt_from_records or none
 * @param metrics AIPerf's metrics by tag, sorted
 * @param gpuCount the GPU count and its source
 * @param throughput throughput per second, per GPU and per user
 * @param recomputedPercentiles percentiles recomputed from the per-request records
 */
public record SummaryDoc(
    @JsonProperty("schema_version") String schemaVersion,
    String kind,
    RunBlock run,
    List<RunBlock.InputFile> inputs,
    @JsonProperty("audit_status") String auditStatus,
    @JsonProperty("summary_source") String summarySource,
    Map<String, Metric> metrics,
    @JsonProperty("gpu_count") GpuCountDoc gpuCount,
    Throughput throughput,
    @JsonProperty("recomputed_percentiles") Percentiles recomputedPercentiles) {

  /** One AIPerf metric: unit and statistics as the export's decimal text. */
  public record Metric(String unit, Map<String, BigDecimal> stats) {}

  /** The GPU count, or null when unknown, and where it came from. */
  public record GpuCountDoc(@Nullable Integer value, String source) {}

  /** Throughput; null where it cannot be computed. */
  public record Throughput(
      @JsonProperty("output_tokens_per_sec") @Nullable BigDecimal outputTokensPerSec,
      @JsonProperty("requests_per_sec") @Nullable BigDecimal requestsPerSec,
      @JsonProperty("output_tokens_per_sec_per_gpu") @Nullable BigDecimal outputTokensPerSecPerGpu,
      @JsonProperty("output_tokens_per_sec_per_user")
          @Nullable BigDecimal outputTokensPerSecPerUser,
      @JsonProperty("per_user_source") String perUserSource) {}

  /**
   * Recomputed percentiles.
   *
   * @param method how they are computed
   * @param metrics per recomputed metric with samples
   * @param note why there are none, or that the records are incomplete; null otherwise
   */
  public record Percentiles(
      PercentileMethod method, Map<String, PercentileMetric> metrics, @Nullable String note) {}

  /** The method block of recomputed percentiles (also in performance_analysis.json). */
  public record PercentileMethod(
      String estimator,
      String interval,
      @Nullable BigDecimal confidence,
      int resamples,
      long seed,
      @JsonProperty("random_generator") String randomGenerator,
      String resampling,
      @JsonProperty("minimum_samples_rule") String minimumSamplesRule,
      @JsonProperty("plan_rule_minimum") String planRuleMinimum,
      String sample) {}

  /** One metric's recomputed percentiles. */
  public record PercentileMetric(String unit, int samples, List<Percentile> percentiles) {}

  /** One percentile with its bootstrap interval. */
  public record Percentile(
      int p,
      @Nullable BigDecimal value,
      @JsonProperty("ci_low") @Nullable BigDecimal ciLow,
      @JsonProperty("ci_high") @Nullable BigDecimal ciHigh,
      long samples,
      @JsonProperty("minimum_samples") long minimumSamples,
      boolean estimable) {}
}
