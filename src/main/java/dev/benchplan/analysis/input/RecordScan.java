package dev.benchplan.analysis.input;

import dev.benchplan.diagnostics.RequestTimeline;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one pass over {@code profile_export.jsonl} found: counts by phase and outcome, integrity
 * problems (first occurrence named by line), and the per-request values of the profiling phase's
 * successful requests, aligned by request (NaN where a record lacks the metric).
 *
 * @param file the records file
 * @param sha256 its SHA-256
 * @param lines non-blank lines
 * @param malformed lines that are not a JSON object record; {@code firstMalformed} names the first
 * @param firstMalformed "line N: why", or null
 * @param profiling records in the profiling phase
 * @param warmup records in the warmup phase
 * @param cancelled profiling records marked cancelled
 * @param errors profiling records with an error
 * @param errorKinds error description to count
 * @param duplicateIds request ids seen more than once
 * @param firstDuplicate "line N: id", or null
 * @param nonFinite NaN or infinite metric values
 * @param firstNonFinite "line N: metric", or null
 * @param negative negative durations, counts or rates
 * @param firstNegative "line N: metric = value", or null
 * @param badTimestamps records whose end precedes their start or lacks one
 * @param firstBadTimestamp "line N: why", or null
 * @param units metric tag to the unit seen first
 * @param unitProblems unknown or inconsistent units ("metric: ...")
 * @param minStartNs earliest profiling request start (ns), or null
 * @param maxEndNs latest profiling request end (ns), or null
 * @param values metric tag to per-request values (successful profiling requests)
 * @param timeline start, end and TTFT of every profiling request with usable timestamps (failed and
 *     cancelled ones included: they were in flight), for the diagnostics
 */
public record RecordScan(
    String file,
    String sha256,
    long lines,
    long malformed,
    @Nullable String firstMalformed,
    long profiling,
    long warmup,
    long cancelled,
    long errors,
    Map<String, Long> errorKinds,
    long duplicateIds,
    @Nullable String firstDuplicate,
    long nonFinite,
    @Nullable String firstNonFinite,
    long negative,
    @Nullable String firstNegative,
    long badTimestamps,
    @Nullable String firstBadTimestamp,
    Map<String, String> units,
    List<String> unitProblems,
    @Nullable Long minStartNs,
    @Nullable Long maxEndNs,
    Map<String, DoubleList> values,
    RequestTimeline timeline) {

  /** Successful profiling requests (the sample behind every recomputed statistic). */
  public long successes() {
    return profiling - errors - cancelled;
  }

  /**
   * Sorts every kept metric's values on a daemon thread (the second core is idle once the scan is
   * done), while the caller goes on with the timeline's diagnostics; whoever asks for a list still
   * being sorted waits for that sort instead of sorting again.
   */
  public void sortAhead() {
    Thread t =
        new Thread(() -> values.values().forEach(DoubleList::sortAhead), "benchplan-records-sort");
    t.setDaemon(true);
    t.start();
  }

  /** Values of one metric, or an empty list. */
  public DoubleList values(String metric) {
    DoubleList v = values.get(metric);
    return v == null ? new DoubleList() : v;
  }
}
