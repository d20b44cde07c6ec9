package dev.benchplan.analysis.series;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.benchplan.analysis.report.NoiseFloorDoc;
import dev.benchplan.analysis.stats.NoiseFloor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One line of {@code performance_findings.jsonl}: what a later analysis or comparison of the series
 * reads back (history, best prior, the noise floor carried forward). Written in this component
 * order; read leniently (an earlier line may lack a later field, and reads as empty or 0, as the
 * tree reader did).
 *
 * @param analysisId the analysis that wrote the line
 * @param seriesId the series
 * @param validRuns valid runs analysed
 * @param invalidRuns invalid runs (reported, excluded)
 * @param runs every run with its summary's SHA-256 and audit status
 * @param loadPoints per load point, metric key to the mean over the valid runs (numbers as the line
 *     holds them: an integral token stays integral, so a history copied into a later analysis keeps
 *     its bytes)
 * @param sloFeasible per load point, whether every SLO was met (empty without SLOs)
 * @param noiseFloor metric key to the noise floor the analysis used (empty for none)
 * @param noiseFloorPilot when that floor was measured by a pilot series decided for this one: the
 *     pilot and its analysis, so a floor carried on keeps naming where it was measured; else absent
 * @param verdict the series verdict
 * @param repeatDecision the decision (not_needed / necessary / not_justified)
 * @param decisionSource for a pilot series: the decision it was planned from, naming the series
 *     whose noise floor it measures; absent otherwise
 * @param candidate what the analysed runs measured (id and name); absent in lines written before
 *     candidates were recorded (their candidate is unknown)
 * @param measuredAt when the newest analysed run started (from its records), or null
 * @param noiseFloors per load point, the noise floor measured there (metric key to floor); absent
 *     in older lines (their {@code noise_floor} names no load point and is never applied)
 * @param analysisSha256 SHA-256 of performance_analysis.json (set when appended)
 * @param analysisPath where performance_analysis.json was written (set when appended)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({
  "analysis_id",
  "series_id",
  "valid_runs",
  "invalid_runs",
  "runs",
  "load_points",
  "slo_feasible",
  "noise_floor",
  "noise_floor_pilot",
  "verdict",
  "repeat_decision",
  "decision_source",
  "candidate",
  "measured_at",
  "noise_floors",
  "analysis_sha256",
  "analysis_path"
})
public record FindingLine(
    @JsonProperty("analysis_id") String analysisId,
    @JsonProperty("series_id") String seriesId,
    @JsonProperty("valid_runs") @Nullable Integer validRuns,
    @JsonProperty("invalid_runs") @Nullable Integer invalidRuns,
    List<RunRef> runs,
    @JsonProperty("load_points") Map<String, Map<String, @Nullable Number>> loadPoints,
    @JsonProperty("slo_feasible") Map<String, Boolean> sloFeasible,
    @JsonProperty("noise_floor") Map<String, NoiseFloorDoc> noiseFloor,
    @JsonProperty("noise_floor_pilot") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable PilotRef noiseFloorPilot,
    String verdict,
    @JsonProperty("repeat_decision") String repeatDecision,
    @JsonProperty("decision_source") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable DecisionSourceRef decisionSource,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable CandidateRef candidate,
    @JsonProperty("measured_at") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable String measuredAt,
    @JsonProperty("noise_floors") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable Map<String, Map<String, NoiseFloorDoc>> noiseFloors,
    @JsonProperty("analysis_sha256") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable String analysisSha256,
    @JsonProperty("analysis_path") @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable String analysisPath) {

  /** Absent fields of an earlier line read as empty, as the tree reader's defaults did. */
  public FindingLine {
    analysisId = analysisId == null ? "" : analysisId;
    verdict = verdict == null ? "" : verdict;
    repeatDecision = repeatDecision == null ? "" : repeatDecision;
    runs = runs == null ? List.of() : List.copyOf(runs);
    loadPoints = loadPoints == null ? Map.of() : loadPoints;
    sloFeasible = sloFeasible == null ? Map.of() : sloFeasible;
    noiseFloor = noiseFloor == null ? Map.of() : noiseFloor;
  }

  /** Valid runs (0 when the line does not say). */
  public int valid() {
    return validRuns == null ? 0 : validRuns;
  }

  /** The same line as appended: with the analysis' SHA-256 and path. */
  public FindingLine appended(String sha256, String path) {
    return copy(loadPoints, sha256, path);
  }

  /** The noise floors the line records, metric key to floor, in the order written. */
  public Map<String, NoiseFloor> floors() {
    Map<String, NoiseFloor> out = new LinkedHashMap<>();
    noiseFloor.forEach((k, v) -> out.put(k, v.toFloor(k)));
    return out;
  }

  /** The same line with {@code load_points} replaced (the reader sets them from the tree). */
  FindingLine withLoadPoints(Map<String, Map<String, @Nullable Number>> points) {
    return copy(points, analysisSha256, analysisPath);
  }

  // the one place a line is derived from another: everything else it says stays
  private FindingLine copy(
      Map<String, Map<String, @Nullable Number>> points,
      @Nullable String sha256,
      @Nullable String path) {
    return new FindingLine(
        analysisId,
        seriesId,
        validRuns,
        invalidRuns,
        runs,
        points,
        sloFeasible,
        noiseFloor,
        noiseFloorPilot,
        verdict,
        repeatDecision,
        decisionSource,
        candidate,
        measuredAt,
        noiseFloors,
        sha256,
        path);
  }

  /** The candidate's name as documents show it: "unknown" for a line that records none. */
  public String candidateName() {
    return candidate == null ? "unknown (not recorded: an older finding)" : candidate.name();
  }

  /** The floors measured at one load point (empty when the line records none there). */
  public Map<String, NoiseFloor> floorsAt(String loadPoint) {
    Map<String, NoiseFloor> out = new LinkedHashMap<>();
    if (noiseFloors != null && noiseFloors.get(loadPoint) != null) {
      noiseFloors.get(loadPoint).forEach((k, v) -> out.put(k, v.toFloor(k)));
    }
    return out;
  }

  /**
   * The candidate of a finding: its id (what decides "the same candidate") and name.
   *
   * @param id e.g. {@code ledger:<sha12>}, {@code label:NAME}, {@code unknown:<RUN>}
   * @param name how documents name it
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonPropertyOrder({"id", "name"})
  public record CandidateRef(String id, String name) {}

  /**
   * The pilot that measured a noise floor.
   *
   * @param seriesId the pilot series
   * @param analysisId the analysis of its runs
   * @param loadPoint the load point its decision named
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonPropertyOrder({"series_id", "analysis_id", "load_point"})
  public record PilotRef(
      @JsonProperty("series_id") String seriesId,
      @JsonProperty("analysis_id") String analysisId,
      @JsonProperty("load_point") @Nullable String loadPoint) {}

  /** One run of the line. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonPropertyOrder({"label", "summary_sha256", "status"})
  public record RunRef(
      String label,
      @JsonProperty("summary_sha256") @Nullable String summarySha256,
      String status) {}

  /**
   * The decision a pilot series was planned from ({@code run_policy.decision_source} of its plan).
   *
   * @param seriesId the series the pilot measures the noise floor for
   * @param sha256 the decision file's SHA-256
   * @param loadPoint the load point the decision named
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonPropertyOrder({"series_id", "sha256", "load_point"})
  public record DecisionSourceRef(
      @JsonProperty("series_id") @Nullable String seriesId,
      @Nullable String sha256,
      @JsonProperty("load_point") @Nullable String loadPoint) {}
}
