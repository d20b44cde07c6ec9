package dev.benchplan.validate;

/**
 * The load validate applies: a static shape (ISL/OSL, stddev 0, ignore_eos), streaming chat,
 * concurrency = per-worker concurrency x workers, request count max(200, 8 x concurrency) (the
 * steady-state minimum, agent-docs/rules/benchmarking/steady-state.md), and a
 * warmup of one request per concurrency slot so cold start stays out of the measured window.
 *
 * @param workers token-generating worker replicas
 * @param concurrencyPerWorker concurrency per worker
 * @param isl input tokens per request
 * @param osl output tokens per request
 */
public record BenchmarkShape(int workers, int concurrencyPerWorker, int isl, int osl) {
  /** The floor of the request count (AICR's). */
  public static final int MIN_REQUESTS = 200;
  /** The measured run's bound (the project's 30-minute rule). */
  public static final int MEASUREMENT_LIMIT_S = 1800;

  public BenchmarkShape {
    if (workers < 1 || concurrencyPerWorker < 1 || isl < 1 || osl < 1) {
      throw new IllegalArgumentException("workers, concurrency per worker, ISL and OSL must be positive");
    }
    if ((long) workers * concurrencyPerWorker > 1_000_000) {
      throw new IllegalArgumentException("concurrency " + (long) workers * concurrencyPerWorker + " is implausibly high");
    }
  }

  /** Concurrency: per-worker concurrency x workers (16 x workers by default). */
  public int concurrency() {
    return workers * concurrencyPerWorker;
  }

  /** Measured requests: max(200, 8 x concurrency), the steady-state minimum. */
  public int requestCount() {
    return Math.max(MIN_REQUESTS, 8 * concurrency());
  }

  /** Warmup requests, excluded from results: one per concurrency slot. */
  public int warmupRequests() {
    return concurrency();
  }
}
