package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.runrecord.RunRecordDocument;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The run block every per-run document carries, and the input files read for the run.
 *
 * @param label the run's label
 * @param dir its directory
 * @param runId the run id run.json records, or null for a plain AIPerf directory
 * @param seriesId the series
 * @param loadPoint e.g. {@code concurrency=4}
 * @param trial the trial number, or null
 * @param candidate what the run measured (run.json, {@code --label}, or unknown)
 */
public record RunBlock(
    String label,
    String dir,
    @JsonProperty("run_id") @Nullable String runId,
    @JsonProperty("series_id") String seriesId,
    @JsonProperty("load_point") String loadPoint,
    @Nullable Integer trial,
    dev.benchplan.analysis.evidence.Candidate candidate) {

  /** The run block of a run. */
  public static RunBlock of(RunEvidence r) {
    RunRecordDocument record = r.source().runRecord();
    return new RunBlock(
        r.source().label(),
        r.source().dir().toString(),
        record == null ? null : record.runId(),
        r.seriesId(),
        r.loadPoint(),
        r.source().trial(),
        r.candidate());
  }

  /**
   * An input file with its role: {@code summary}, {@code records}, {@code run_json} or {@code
   * plan}.
   */
  public record InputFile(@Nullable String path, @Nullable String sha256, String role) {}

  /**
   * A run as an analysis or comparison lists it: its run block, audit status and input files.
   *
   * @param run the run block
   * @param auditStatus the audit's status
   * @param files the input files
   */
  public record InputEntry(
      RunBlock run, @JsonProperty("audit_status") String auditStatus, List<InputFile> files) {

    /** The entry of a run. */
    public static InputEntry of(RunEvidence r) {
      return new InputEntry(RunBlock.of(r), r.audit().status(), inputs(r));
    }
  }

  /** Input files with path and SHA-256: summary, records, run.json and plan where present. */
  public static List<InputFile> inputs(RunEvidence r) {
    List<InputFile> a = new ArrayList<>();
    if (r.summarySha256() != null) {
      a.add(new InputFile(r.source().summaryFile().toString(), r.summarySha256(), "summary"));
    }
    if (r.scan() != null) {
      a.add(new InputFile(r.scan().file(), r.scan().sha256(), "records"));
    }
    if (r.source().runJson() != null) {
      a.add(
          new InputFile(
              r.source().runJson().toString(),
              dev.benchplan.json.Sha256.ofFile(r.source().runJson()),
              "run_json"));
    }
    if (r.plan() != null && r.plan().path() != null) {
      a.add(
          new InputFile(
              r.plan().path(),
              r.plan().actualSha256() == null ? r.plan().recordedSha256() : r.plan().actualSha256(),
              "plan"));
    }
    return List.copyOf(a);
  }
}
