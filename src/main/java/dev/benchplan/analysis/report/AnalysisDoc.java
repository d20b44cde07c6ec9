package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * performance_analysis.json (schemas/performance-analysis.schema.json): the runs, the method, one
 * {@link SeriesDoc} per series and the overall verdict.
 *
 * @param schemaVersion the documents' schema version
 * @param kind {@code performance_analysis}
 * @param analysisId the analysis id
 * @param question the plan's question, or null
 * @param plan the plan of the first run whose plan was read, or null
 * @param expRoot the experiment root
 * @param inputs every run with its audit status and input files
 * @param method how the numbers are drawn
 * @param series one block per series
 * @param verdict the series' verdict, or mixed
 * @param limitations what the analysis cannot claim
 */
public record AnalysisDoc(
    @JsonProperty("schema_version") String schemaVersion,
    String kind,
    @JsonProperty("analysis_id") String analysisId,
    @Nullable String question,
    @Nullable FileDoc plan,
    @JsonProperty("exp_root") String expRoot,
    List<RunBlock.InputEntry> inputs,
    Method method,
    List<SeriesDoc> series,
    String verdict,
    List<String> limitations) {

  /** The method block. */
  public record Method(
      SummaryDoc.PercentileMethod percentiles,
      @JsonProperty("noise_floor") String noiseFloor,
      String mde,
      @JsonProperty("small_delta_pct") @Nullable BigDecimal smallDeltaPct,
      @JsonProperty("small_delta_rationale") String smallDeltaRationale,
      @JsonProperty("bootstrap_seed") long bootstrapSeed) {}
}
