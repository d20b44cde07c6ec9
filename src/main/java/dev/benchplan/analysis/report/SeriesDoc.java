package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.benchplan.analysis.capacity.CapacityDoc;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The block of one series in performance_analysis.json ({@code /series/N}), built by {@code
 * SeriesAnalysis}.
 *
 * @param seriesId the series
 * @param seriesIdSource where the series id came from: the plan or run.json, or auto-derived for
 *     plain AIPerf folders (from the workload, tool, endpoint and model identity)
 * @param candidate what these runs measured: one candidate per block, never pooled
 * @param runs the valid runs' labels
 * @param invalidRuns the invalid runs, each with its blockers
 * @param slos the SLOs evaluated (flags and plan)
 * @param loadPoints per load point: metrics, SLOs, goodput, steady state
 * @param noiseFloor the noise floor and where it came from
 * @param history earlier valid analyses of the series
 * @param comparisons against the previous valid analysis and the series baseline
 * @param pareto the frontiers of a grid
 * @param capacity the capacity answer of a grid of numeric load points; null otherwise
 * @param repeatDecision whether another run is worth it
 * @param verdict the series verdict
 * @param evidence "single-run evidence" or "N valid runs"
 */
public record SeriesDoc(
    @JsonProperty("series_id") String seriesId,
    @JsonProperty("series_id_source") String seriesIdSource,
    dev.benchplan.analysis.evidence.Candidate candidate,
    List<String> runs,
    @JsonProperty("invalid_runs") List<String> invalidRuns,
    List<SloDef> slos,
    @JsonProperty("load_points") List<LoadPoint> loadPoints,
    @JsonProperty("noise_floor") NoiseFloorBlock noiseFloor,
    History history,
    List<Comparison> comparisons,
    Pareto pareto,
    @Nullable CapacityDoc capacity,
    @JsonProperty("repeat_decision") RepeatDecision repeatDecision,
    String verdict,
    String evidence) {

  /** An SLO as evaluated. */
  public record SloDef(
      String metric, String stat, String operator, @Nullable BigDecimal threshold, String source) {}

  /**
   * One load point.
   *
   * @param loadPoint e.g. {@code concurrency=4}
   * @param runs valid runs at it
   * @param metrics per standard metric: unit, direction, mean and the run values
   * @param sloEvaluation each SLO against the mean over runs
   * @param sloFeasible every SLO met, or null without SLOs
   * @param goodput AIPerf's goodput and the one recomputed from the records
   * @param steadyState the plan's steady-state verdict; absent when no plan records one
   */
  public record LoadPoint(
      @JsonProperty("load_point") String loadPoint,
      int runs,
      Map<String, MetricMean> metrics,
      @JsonProperty("slo_evaluation") List<SloEvaluation> sloEvaluation,
      @JsonProperty("slo_feasible") @Nullable Boolean sloFeasible,
      Goodput goodput,
      @JsonProperty("steady_state") @JsonInclude(JsonInclude.Include.NON_NULL)
          @Nullable SteadyState steadyState) {}

  /** One metric at a load point. */
  public record MetricMean(
      String unit, String better, @Nullable BigDecimal mean, List<@Nullable BigDecimal> values) {}

  /** One SLO at a load point: observed (null without evidence) and pass, fail or missing. */
  public record SloEvaluation(String slo, @Nullable BigDecimal observed, String status) {}

  /**
   * Goodput at a load point: AIPerf's, and either why it is not recomputed or the recomputed one.
   *
   * @param aiperfGoodput AIPerf's goodput (mean over runs), or null
   * @param note why goodput is not recomputed; absent when it is
   * @param counted the recomputed goodput; absent when it is not
   */
  public record Goodput(
      @JsonProperty("aiperf_goodput") @Nullable BigDecimal aiperfGoodput,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String note,
      @JsonUnwrapped @Nullable Counted counted) {}

  /** Goodput recomputed from the per-request records under the per-request latency SLOs. */
  public record Counted(
      @JsonProperty("good_requests") long goodRequests,
      long requests,
      @JsonProperty("good_fraction") @Nullable BigDecimal goodFraction,
      @JsonProperty("goodput_requests_per_sec") @Nullable BigDecimal goodputRequestsPerSec,
      String rule) {}

  /** The plan's steady-state verdict of a load point. */
  public record SteadyState(String status, boolean steady, String note) {}

  /**
   * The series noise floor.
   *
   * @param source where it was measured, or null without one
   * @param pilot the pilot decided for this series that measured it; absent otherwise
   * @param metrics per metric
   * @param note how far to trust it
   */
  public record NoiseFloorBlock(
      @Nullable String source,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable PilotSource pilot,
      Map<String, NoiseFloorDoc> metrics,
      String note,
      @JsonProperty("load_points") Map<String, PointFloor> loadPoints) {}

  /**
   * The noise floor at one load point: a floor applies only where it was measured.
   *
   * @param source where it came from (this analysis' repetitions, --noise-floor, the pilot)
   * @param runs the runs behind it
   * @param metrics metric key to floor
   */
  public record PointFloor(String source, int runs, Map<String, NoiseFloorDoc> metrics) {}

  /** The pilot series whose analysis measured a carried noise floor. */
  public record PilotSource(
      @JsonProperty("series_id") @Nullable String seriesId,
      @JsonProperty("analysis_id") String analysisId,
      int runs,
      @JsonProperty("load_point") @Nullable String loadPoint) {}

  /** Earlier valid analyses of the series under the experiment root. */
  public record History(
      List<HistoryEntry> history,
      @JsonProperty("series_baseline") @Nullable HistoryEntry seriesBaseline,
      @JsonProperty("previous_valid") @Nullable HistoryEntry previousValid,
      @JsonProperty("best_prior") Map<String, BestPrior> bestPrior,
      @JsonProperty("missing_references") List<String> missingReferences) {}

  /** One earlier analysis: its verdict and per load point means. */
  public record HistoryEntry(
      @JsonProperty("analysis_id") String analysisId,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String candidate,
      @JsonProperty("measured_at") @JsonInclude(JsonInclude.Include.NON_NULL)
          @Nullable String measuredAt,
      String verdict,
      @JsonProperty("load_points") Map<String, Map<String, @Nullable Number>> loadPoints) {}

  /** The best earlier value of a metric. */
  public record BestPrior(
      @JsonProperty("analysis_id") String analysisId,
      @JsonProperty("load_point") String loadPoint,
      @Nullable BigDecimal value,
      @JsonProperty("slo_feasible_only") boolean sloFeasibleOnly) {}

  /** One metric at one load point against an earlier analysis. */
  public record Comparison(
      String against,
      @JsonProperty("analysis_id") String analysisId,
      @JsonProperty("load_point") String loadPoint,
      String metric,
      String better,
      boolean gated,
      @Nullable BigDecimal prior,
      @Nullable BigDecimal current,
      @JsonProperty("change_pct") @Nullable BigDecimal changePct,
      @JsonProperty("mde_pct") @Nullable BigDecimal mdePct,
      String assessment,
      @JsonProperty("prior_candidate") String priorCandidate,
      @JsonProperty("prior_measured_at") @Nullable String priorMeasuredAt,
      @JsonProperty("same_candidate") boolean sameCandidate) {}

  /**
   * The Pareto frontiers of a grid (two or more load points).
   *
   * @param grid two or more load points
   * @param frontiers the frontiers; absent when not a grid
   */
  public record Pareto(boolean grid, @JsonUnwrapped @Nullable Frontiers frontiers) {}

  /** The frontiers of a grid. */
  public record Frontiers(
      @JsonProperty("throughput_metric") String throughputMetric,
      @JsonProperty("throughput_vs_ttft_p99") List<FrontierPoint> throughputVsTtftP99,
      @JsonProperty("throughput_vs_interactivity") List<FrontierPoint> throughputVsInteractivity,
      @JsonProperty("highest_slo_feasible_point") @Nullable String highestSloFeasiblePoint) {}

  /** One load point on a frontier plot. */
  public record FrontierPoint(
      @JsonProperty("load_point") String loadPoint,
      @Nullable BigDecimal x,
      @Nullable BigDecimal y,
      @JsonProperty("y_metric") String yMetric,
      @JsonProperty("on_frontier") boolean onFrontier) {}

  /** The series' repeat decision. */
  public record RepeatDecision(
      @JsonProperty("series_id") String seriesId,
      String decision,
      String rationale,
      RepeatDecisionDoc.@Nullable Pilot pilot) {}
}
