package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * repeat_decision.json (schemas/repeat-decision.schema.json), written by analyze (one per series)
 * and compare, read by {@code plan --repeat-decision}.
 *
 * @param seriesId the series decided for
 * @param plan the plan the runs were made under, or null for plain AIPerf directories
 * @param decision not_needed, necessary or not_justified
 * @param rationale why
 * @param pilot the pre-authorized pilot, when the decision is the series' noise-floor pilot
 * @param source the analysis or comparison it came from
 */
public record RepeatDecisionDoc(
    @JsonProperty("schema_version") String schemaVersion,
    String kind,
    @JsonProperty("series_id") String seriesId,
    @Nullable FileDoc plan,
    String decision,
    String rationale,
    @Nullable Pilot pilot,
    Source source,
    @com.fasterxml.jackson.annotation.JsonInclude(
            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        @Nullable Map<String, String> workload) {

  /** The decision document. */
  public static RepeatDecisionDoc of(
      String seriesId,
      @Nullable FileDoc plan,
      String decision,
      String rationale,
      @Nullable Pilot pilot,
      String analysisId,
      String analysisSha256) {
    return of(seriesId, plan, decision, rationale, pilot, analysisId, analysisSha256, null);
  }

  /**
   * The decision document; {@code workload} is what the runs recorded of their workload (AIPerf's
   * own input config: ISL/OSL and their spread, model, tokenizer, endpoint type, streaming, AIPerf
   * version) for a pilot of plain AIPerf runs, which have no plan for {@code plan
   * --repeat-decision} to check the pilot against.
   */
  public static RepeatDecisionDoc of(
      String seriesId,
      @Nullable FileDoc plan,
      String decision,
      String rationale,
      @Nullable Pilot pilot,
      String analysisId,
      String analysisSha256,
      @Nullable Map<String, String> workload) {
    return new RepeatDecisionDoc(
        RunDocuments.SCHEMA_VERSION,
        "repeat_decision",
        seriesId,
        plan,
        decision,
        rationale,
        pilot,
        new Source(analysisId, analysisSha256),
        plan == null && pilot != null ? workload : null);
  }

  /** The pilot: repetitions of one configuration at one load point. */
  public record Pilot(
      int repetitions,
      @JsonProperty("load_point") @Nullable String loadPoint,
      String configuration) {}

  /** The analysis or comparison the decision came from. */
  public record Source(
      @JsonProperty("analysis_id") String analysisId,
      @JsonProperty("analysis_sha256") String analysisSha256) {}
}
