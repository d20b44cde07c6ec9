package dev.benchplan.render;

import dev.benchplan.plan.BenchmarkPlan;

/**
 * The expected size of the artifact tree a Job leaves, from the planned request count, and the
 * bound of the pod-log channel that carries it back.
 *
 * <p>Per measured run: one {@code profile_export.jsonl} record per request (~3.8 KB measured on
 * the real Qwen3-0.6B sweep, rounded up to {@value #RECORD_BYTES}), one {@code inputs.json} entry
 * per dataset entry ({@value #BYTES_PER_INPUT_TOKEN} bytes per input token plus
 * {@value #INPUT_ENTRY_BYTES}), and {@value #FIXED_BYTES} for the summary, CSV, telemetry and logs.
 *
 * @param bytes the estimate for every measured run of the Job
 */
public record ArtifactEstimate(long bytes) {
  /** Bytes of one per-request record. */
  public static final long RECORD_BYTES = 4096;
  /** Bytes per input token in inputs.json (prompt text plus JSON quoting). */
  public static final long BYTES_PER_INPUT_TOKEN = 5;
  /** Fixed bytes per dataset entry in inputs.json. */
  public static final long INPUT_ENTRY_BYTES = 256;
  /** Summary, CSV, GPU telemetry, AIPerf's own logs, aggregates. */
  public static final long FIXED_BYTES = 256 * 1024;
  /** Input length assumed when the plan states none (trace replay). */
  public static final long DEFAULT_INPUT_TOKENS = 4096;
  /** Requests assumed for a run bounded only by time, when the plan states no expectation. */
  public static final long DEFAULT_REQUESTS = AiperfSettingsFactory.DURATION_BOUND_SYNTHETIC_ENTRIES;
  /**
   * The largest tree (raw bytes) the pod-log channel carries: the log is gzip + base64, measured
   * at 0.29 of the raw size on the real sweep and 0.64 on a pessimistic generated tree (JSONL with
   * full-precision floats plus 10% random binary); 12 MiB at 0.64 is 7.7 MiB of log, inside the
   * kubelet's default 10 MiB log rotation with room for AIPerf's own output.
   */
  public static final long LOG_CHANNEL_MAX_BYTES = 12L * 1024 * 1024;

  /** The estimate for {@code runs} measured runs of {@code plan}. */
  public static ArtifactEstimate of(BenchmarkPlan plan, int runs) {
    BenchmarkPlan.Experiment e = plan.experiment();
    long requests = e.requestCount() != null ? e.requestCount()
        : e.expectedMeasuredRequests() != null ? e.expectedMeasuredRequests() : DEFAULT_REQUESTS;
    long entries = requests + e.warmupRequests();
    long isl = plan.workload().synthetic() != null ? plan.workload().synthetic().isl()
        : DEFAULT_INPUT_TOKENS;
    long perRun = requests * RECORD_BYTES + entries * (isl * BYTES_PER_INPUT_TOKEN + INPUT_ENTRY_BYTES)
        + FIXED_BYTES;
    return new ArtifactEstimate(perRun * runs);
  }

  /** True when the tree fits the pod-log channel. */
  public boolean fitsLogChannel() {
    return bytes <= LOG_CHANNEL_MAX_BYTES;
  }

  /** The size in MiB, one decimal. */
  public String mib() {
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }
}
