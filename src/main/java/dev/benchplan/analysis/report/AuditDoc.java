package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * benchmark_audit.json (schemas/benchmark-audit.schema.json): whether one run may serve as
 * evidence, and why. Built by {@link RunDocuments#audit}.
 *
 * @param schemaVersion the documents' schema version
 * @param kind {@code benchmark_audit}
 * @param run the run block
 * @param inputs the input files read
 * @param seriesId the series
 * @param plan the plan run.json names, or null for a plain AIPerf directory
 * @param question the plan's question, or null
 * @param workloadIdentity the comparison identity (field to value)
 * @param status valid, valid_with_recovery or invalid
 * @param nextAction continue_analysis, rerun_benchmark or stop
 * @param requests expected, reported and recorded request counts
 * @param checks every check, in a fixed order
 * @param recoveries what was rebuilt, and how
 * @param blockers the failed checks' details
 * @param versions the parser, AIPerf version and export layout
 */
public record AuditDoc(
    @JsonProperty("schema_version") String schemaVersion,
    String kind,
    RunBlock run,
    List<RunBlock.InputFile> inputs,
    @JsonProperty("series_id") String seriesId,
    @Nullable FileDoc plan,
    @Nullable String question,
    @JsonProperty("workload_identity") Map<String, String> workloadIdentity,
    String status,
    @JsonProperty("next_action") String nextAction,
    Requests requests,
    List<Check> checks,
    List<String> recoveries,
    List<String> blockers,
    Versions versions) {

  /**
   * Request counts.
   *
   * @param expected the configured request count, or null when not configured
   * @param successfulSummary successful requests AIPerf's summary reports, or null
   * @param failedSummary failed requests the summary reports, or null
   * @param records what the per-request records hold, or null without records
   */
  public record Requests(
      @Nullable Long expected,
      @JsonProperty("successful_summary") @Nullable Long successfulSummary,
      @JsonProperty("failed_summary") @Nullable Long failedSummary,
      @Nullable Records records) {}

  /** Counts in the per-request records. */
  public record Records(
      long warmup,
      long attempted,
      long successful,
      long failed,
      long cancelled,
      @JsonProperty("errors_by_kind") Map<String, Long> errorsByKind) {}

  /** One audit check. */
  public record Check(String id, String status, @Nullable String detail) {}

  /** What read the run. */
  public record Versions(
      String parser,
      @Nullable String aiperf,
      @JsonProperty("export_layout") @Nullable String exportLayout) {}
}
