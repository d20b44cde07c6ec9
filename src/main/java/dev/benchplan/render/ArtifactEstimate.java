package dev.benchplan.render;

import dev.benchplan.plan.BenchmarkPlan;
import java.util.Locale;

/**
 * The expected size of the artifact tree a Job leaves, from the planned request count, and the
 * bound of the pod-log channel that carries it back.
 *
 * <p>Basis, per measured run: one {@code profile_export.jsonl} record per measured request, {@value
 * #RECORD_BASE_BYTES} bytes plus {@value #BYTES_PER_OUTPUT_TOKEN} per output token (measured on the
 * 30 records of the real Qwen3-0.6B sweep in ../shared/data/aiperf/sweep-qwen3-0.6b: 3,801-3,824
 * bytes at 200 output tokens, of which 1,221 bytes of metadata and scalar metrics and 13.0 bytes
 * per {@code inter_chunk_latency} value; both rounded up); one {@code inputs.json} entry per
 * dataset entry ({@value #BYTES_PER_INPUT_TOKEN} bytes per input token plus {@value
 * #INPUT_ENTRY_BYTES}); and {@value #FIXED_BYTES} for the summary, CSV, telemetry and logs (the
 * real sweep's summary and GPU telemetry are 39 KB per run).
 *
 * @param bytes the estimate for every measured run of the Job
 * @param requests measured requests per run the estimate assumes
 * @param recordBytes bytes per per-request record it assumes
 */
public record ArtifactEstimate(long bytes, long requests, long recordBytes) {
  /** Bytes of one per-request record besides its per-token latencies. */
  public static final long RECORD_BASE_BYTES = 1280;

  /** Bytes per output token in a per-request record (one inter-chunk latency each). */
  public static final long BYTES_PER_OUTPUT_TOKEN = 14;

  /** Bytes per input token in inputs.json (prompt text plus JSON quoting). */
  public static final long BYTES_PER_INPUT_TOKEN = 5;

  /** Fixed bytes per dataset entry in inputs.json. */
  public static final long INPUT_ENTRY_BYTES = 256;

  /** Summary, CSV, GPU telemetry, AIPerf's own logs, aggregates. */
  public static final long FIXED_BYTES = 256 * 1024;

  /** Input length assumed when the plan states none (trace replay). */
  public static final long DEFAULT_INPUT_TOKENS = 4096;

  /** Output length assumed when the plan states none (trace replay). */
  public static final long DEFAULT_OUTPUT_TOKENS = 256;

  /** Requests assumed for a run bounded only by time, when the plan states no expectation. */
  public static final long DEFAULT_REQUESTS =
      AiperfSettingsFactory.DURATION_BOUND_SYNTHETIC_ENTRIES;

  /**
   * The largest tree (raw bytes) the pod-log channel carries: the log is gzip + base64, measured at
   * 0.29 of the raw size on the real sweep and 0.64 on a pessimistic generated tree (JSONL with
   * full-precision floats plus 10% random binary); 12 MiB at 0.64 is 7.7 MiB of log, inside the
   * kubelet's default 10 MiB log rotation (the logs API serves only the current file) with room for
   * AIPerf's own output.
   */
  public static final long LOG_CHANNEL_MAX_BYTES = 12L * 1024 * 1024;

  /** An estimate of {@code bytes} with no stated basis (a bound shown in messages). */
  public ArtifactEstimate(long bytes) {
    this(bytes, 0, 0);
  }

  /** The estimate for {@code runs} measured runs of {@code plan}. */
  public static ArtifactEstimate of(BenchmarkPlan plan, int runs) {
    BenchmarkPlan.Experiment e = plan.experiment();
    long requests =
        e.requestCount() != null
            ? e.requestCount()
            : e.expectedMeasuredRequests() != null
                ? e.expectedMeasuredRequests()
                : DEFAULT_REQUESTS;
    BenchmarkPlan.Synthetic syn = plan.workload().synthetic();
    long entries =
        syn != null && syn.datasetEntries() != null
            ? syn.datasetEntries()
            : requests + e.warmupRequests();
    long isl = syn != null ? syn.isl() : DEFAULT_INPUT_TOKENS;
    long osl = syn != null ? syn.osl() : DEFAULT_OUTPUT_TOKENS;
    long record = RECORD_BASE_BYTES + BYTES_PER_OUTPUT_TOKEN * osl;
    long perRun =
        requests * record
            + entries * (isl * BYTES_PER_INPUT_TOKEN + INPUT_ENTRY_BYTES)
            + FIXED_BYTES;
    return new ArtifactEstimate(perRun * runs, requests, record);
  }

  /** True when the tree fits the pod-log channel. */
  public boolean fitsLogChannel() {
    return bytes <= LOG_CHANNEL_MAX_BYTES;
  }

  /** The size in MiB, one decimal. */
  public String mib() {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }

  /**
   * The basis in one phrase: requests per run times the record size, plus inputs and fixed files.
   */
  public String basis() {
    return requests
        + " request(s) per run x "
        + recordBytes
        + " B per record (measured on the real Qwen3-0.6B"
        + " sweep), plus inputs.json and "
        + (FIXED_BYTES / 1024)
        + " KiB of summary/telemetry per run";
  }
}
