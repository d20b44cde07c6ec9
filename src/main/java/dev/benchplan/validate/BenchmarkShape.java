package dev.benchplan.validate;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The load validate applies, AICR's exactly: a static shape (ISL = OSL = 128, stddev 0, output
 * length fixed with ignore_eos), streaming chat, concurrency C = per-GPU concurrency x GPUs or
 * per-worker concurrency x worker replicas, max(1000, 8 x C) measured requests after a warmup of
 * one request per concurrency slot, 100 synthetic dataset entries, seed 100, temperature 0.
 *
 * @param workers token-generating worker replicas
 * @param gpus the GPUs the load is scaled by when it is per GPU, else null
 * @param perGpu concurrency per GPU, or null when the load is per worker
 * @param perWorker concurrency per worker, or null when the load is per GPU
 * @param isl input tokens per request
 * @param osl output tokens per request
 */
public record BenchmarkShape(
    int workers,
    @Nullable Integer gpus,
    @Nullable Integer perGpu,
    @Nullable Integer perWorker,
    int isl,
    int osl) {
  /** AICR's floor of the request count (AICR_INFERENCE_PERF_MIN_REQUESTS). */
  public static final int MIN_REQUESTS = 1000;

  /**
   * AICR's measured requests per concurrency slot (AICR_INFERENCE_PERF_REQUESTS_PER_CONCURRENCY).
   */
  public static final int REQUESTS_PER_SLOT = 8;

  /** AICR's warmup requests per concurrency slot (AICR_INFERENCE_PERF_WARMUP_PER_CONCURRENCY). */
  public static final int WARMUP_PER_SLOT = 1;

  /** AICR's synthetic dataset size (a constant there). */
  public static final int DATASET_ENTRIES = 100;

  /** AICR's random seed (a constant there). */
  public static final long SEED = 100;

  /** AICR's sampling temperature. */
  public static final BigDecimal TEMPERATURE = BigDecimal.ZERO;

  /** The measured run's bound (the project's 30-minute rule). */
  public static final int MEASUREMENT_LIMIT_S = 1800;

  public BenchmarkShape {
    if (workers < 1 || isl < 1 || osl < 1) {
      throw new IllegalArgumentException("workers, ISL and OSL must be positive");
    }
    if ((perGpu == null) == (perWorker == null)) {
      throw new IllegalArgumentException("the load is per GPU or per worker, exactly one");
    }
    if (perGpu != null && (gpus == null || gpus < 1 || perGpu < 1)) {
      throw new IllegalArgumentException(
          "a per-GPU load needs a positive GPU count and concurrency");
    }
    if (perWorker != null && perWorker < 1) {
      throw new IllegalArgumentException("concurrency per worker must be positive");
    }
    // one of the two is given; per GPU comes with the GPU count
    long c =
        perGpu != null
            ? (long) perGpu * Objects.requireNonNull(gpus)
            : (long) Objects.requireNonNull(perWorker) * workers;
    if (c > 1_000_000) {
      throw new IllegalArgumentException("concurrency " + c + " is implausibly high");
    }
  }

  /** A per-worker load (benchplan's default: 16 x workers). */
  public BenchmarkShape(int workers, int concurrencyPerWorker, int isl, int osl) {
    this(workers, null, null, concurrencyPerWorker, isl, osl);
  }

  /** A per-GPU load (AICR's: 256 x GPUs). */
  public static BenchmarkShape perGpu(
      int workers, int gpus, int concurrencyPerGpu, int isl, int osl) {
    return new BenchmarkShape(workers, gpus, concurrencyPerGpu, null, isl, osl);
  }

  /** Concurrency C: per GPU x GPUs, or per worker x workers. */
  public int concurrency() {
    return perGpu != null
        ? perGpu * Objects.requireNonNull(gpus)
        : Objects.requireNonNull(perWorker) * workers;
  }

  /** How C was made, e.g. {@code 256 per GPU x 8 GPUs}. */
  public String basis() {
    return perGpu != null
        ? perGpu + " per GPU x " + gpus + " GPU(s)"
        : perWorker + " per worker x " + workers + " worker(s)";
  }

  /** Measured requests: max(1000, 8 x C), AICR's formula. */
  public int requestCount() {
    return requestCount(concurrency());
  }

  /** max(1000, 8 x C). */
  public static int requestCount(int concurrency) {
    return (int) Math.max(MIN_REQUESTS, (long) REQUESTS_PER_SLOT * concurrency);
  }

  /** Warmup requests, excluded from results: one per concurrency slot. */
  public int warmupRequests() {
    return WARMUP_PER_SLOT * concurrency();
  }
}
