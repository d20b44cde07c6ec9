package dev.benchplan.analysis.input;

import dev.benchplan.runrecord.RunRecordDocument;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One measured AIPerf run found on disk: where its files are and what benchplan recorded about it.
 *
 * @param label a short name for tables and file names (relative path under the RUN argument)
 * @param dir the directory holding AIPerf's files for this run
 * @param summaryFile {@code profile_export_aiperf.json} (may not exist: the audit says so)
 * @param recordsFile {@code profile_export.jsonl} (may not exist)
 * @param runJson benchplan's {@code run.json} for a benchplan run directory, else null
 * @param runRecord run.json as read by {@link dev.benchplan.runrecord.RunRecordReader}, else null
 * @param trial the repetition index from a {@code run_NNNN}/{@code trial_NNNN} folder, else null
 */
public record RunSource(
    String label,
    Path dir,
    Path summaryFile,
    Path recordsFile,
    @Nullable Path runJson,
    @Nullable RunRecordDocument runRecord,
    @Nullable Integer trial) {
  public RunSource {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(summaryFile, "summaryFile");
    Objects.requireNonNull(recordsFile, "recordsFile");
  }

  /** True for a benchplan run directory (one with run.json). */
  public boolean benchplanRun() {
    return runJson != null;
  }
}
