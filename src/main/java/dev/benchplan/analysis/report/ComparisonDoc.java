package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * comparison.json (schemas/comparison.schema.json), also what {@code compare --format json} prints:
 * eligibility, both sides, per load point and metric the effect and verdict, the repeat decision
 * and the overall verdict.
 *
 * @param schemaVersion the documents' schema version
 * @param kind {@code comparison}
 * @param question the reference plan's question, or null
 * @param plan the reference plan, or null for plain AIPerf directories
 * @param eligibility the shared identity
 * @param reference the reference runs
 * @param candidate the candidate runs
 * @param paired AB/BA pairs
 * @param method how intervals, MDE and verdicts are drawn
 * @param noiseFloor the series noise floor used (metric to CV), or null
 * @param noiseFloorSource where that floor was measured; absent without one
 * @param metrics one row per load point and metric
 * @param errors the error rate per load point and side (every run given, valid or not)
 * @param excluded the runs left out of the comparison, invalid under the audit, with why
 * @param repeatDecision whether another run is worth it
 * @param verdict improved, regressed, mixed, no_change or inconclusive
 * @param failOn what exits 1: {@code regressed} (a gated metric regressed) or {@code inconclusive}
 *     (also a gated metric inconclusive)
 * @param exitCode 0 nothing failed, 1 a gated metric regressed (or inconclusive under {@code
 *     --fail-on inconclusive})
 * @param exitReason why this exit code, saying when exit 0 means nothing could be decided
 */
public record ComparisonDoc(
    @JsonProperty("schema_version") String schemaVersion,
    String kind,
    @Nullable String question,
    @Nullable FileDoc plan,
    Eligibility eligibility,
    List<RunBlock.InputEntry> reference,
    List<RunBlock.InputEntry> candidate,
    boolean paired,
    Method method,
    @JsonProperty("noise_floor") @Nullable Map<String, @Nullable BigDecimal> noiseFloor,
    @JsonProperty("noise_floor_source") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable NoiseFloorSource noiseFloorSource,
    List<MetricRow> metrics,
    List<ErrorRow> errors,
    List<Excluded> excluded,
    @JsonProperty("repeat_decision") RepeatDecision repeatDecision,
    String verdict,
    @JsonProperty("fail_on") String failOn,
    @JsonProperty("exit_code") int exitCode,
    @JsonProperty("exit_reason") String exitReason) {

  /** The error rate at one load point, both sides. */
  public record ErrorRow(
      @JsonProperty("load_point") String loadPoint, ErrorSide reference, ErrorSide candidate) {}

  /** One side's errors at a load point: the runs counted, requests, failures, rate and limit. */
  public record ErrorSide(
      int runs,
      @Nullable BigDecimal requests,
      BigDecimal errors,
      @Nullable BigDecimal rate,
      BigDecimal limit,
      @JsonProperty("over_limit") List<String> overLimit) {
    /** From the computed figures. */
    public static ErrorSide of(dev.benchplan.analysis.compare.ErrorRows.Side s) {
      return new ErrorSide(
          s.runs(),
          s.requests() == null ? null : s.requests().stripTrailingZeros(),
          s.errors().stripTrailingZeros(),
          s.rate() == null ? null : s.rate().round(Measured.DIGITS).stripTrailingZeros(),
          s.limit(),
          s.overLimit());
    }
  }

  /** A run left out of the comparison: invalid under the audit. */
  public record Excluded(
      String side,
      String run,
      @JsonProperty("load_point") String loadPoint,
      List<String> reasons) {}

  /** Eligible, and the identity both sides share (field to value). */
  public record Eligibility(boolean eligible, Map<String, String> fields, List<String> warnings) {}

  /** The method block. */
  public record Method(
      String interval,
      @Nullable BigDecimal confidence,
      String mde,
      @JsonProperty("verdict_rule") String verdictRule) {}

  /** Where the series noise floor was measured: the series itself or a pilot decided for it. */
  public record NoiseFloorSource(
      String description,
      @JsonProperty("analysis_id") String analysisId,
      @JsonProperty("pilot_series_id") @Nullable String pilotSeriesId,
      int runs,
      @JsonProperty("exp_root") String expRoot) {}

  /**
   * One load point and metric: the values of both sides, the effect and its verdict, and what
   * qualifies it ({@code caveats}: a percentile not estimable on these runs, which forces {@code
   * inconclusive}; a short steady state, a warmup below C, client bound or not judged, unstable
   * throughput).
   */
  public record MetricRow(
      @JsonProperty("load_point") String loadPoint,
      String metric,
      String unit,
      String better,
      boolean gated,
      @JsonProperty("reference_values") List<@Nullable BigDecimal> referenceValues,
      @JsonProperty("candidate_values") List<@Nullable BigDecimal> candidateValues,
      EffectDoc effect,
      String verdict,
      List<String> caveats) {}

  /** The comparison's repeat decision. */
  public record RepeatDecision(String decision, String rationale) {}
}
