package dev.benchplan.rules;

/**
 * The project's rule files, relative to {@code agent-docs/rules/}. Every decision and every blocker
 * cites one of them by this name.
 */
public enum RuleFile {
  /** The user-workload input contract. */
  USER_WORKLOAD("execution/user-workload.md"),
  /** The deployment ledger and the smoke test that must precede a plan. */
  DEPLOYMENT_LEDGER("execution/deployment-ledger.md"),
  /** The plan file itself: question, identifiers, immutability, output. */
  BENCHMARK_PLAN("execution/benchmark-plan.md"),
  /** AIPerf version resolution and pinning. */
  TOOL_VERSION("benchmarking/tool-version.md"),
  /** What a series freezes and how a series is reused. */
  SERIES_BOUNDARIES("benchmarking/series-boundaries.md"),
  /** Which workload input is used, and proxy fit. */
  PROXY_WORKLOAD_SELECTION("benchmarking/proxy-workload-selection.md"),
  /** Load points and sample counts. */
  CONCURRENCY_GRID("benchmarking/concurrency-grid.md"),
  /** Enough measured and warmup requests at every load point to reach steady state. */
  STEADY_STATE("benchmarking/steady-state.md"),
  /** AIPerf's size at each load point, and the engine that runs it. */
  LOAD_GENERATOR("benchmarking/load-generator.md"),
  /** Closed loop, open loop or fixed schedule. */
  MEASUREMENT_MODE("benchmarking/measurement-mode.md"),
  /** The 30-minute bound on every measured run. */
  MEASUREMENT_LIMIT("benchmarking/measurement-limit.md"),
  /** How many runs, and the noise-floor pilot. */
  COMPARISON_UNCERTAINTY("benchmarking/comparison-uncertainty.md"),
  /** Exclusive use of the endpoint and its GPUs while measuring. */
  BENCHMARK_ISOLATION("benchmarking/benchmark-isolation.md"),
  /** Which runs may support a claim. */
  EVIDENCE_ELIGIBILITY("benchmarking/evidence-eligibility.md"),
  /** Failures a plan can foresee, and the error-rate limit a run uses. */
  EXPECTED_ERRORS("benchmarking/expected-errors.md"),
  /** A suspected stalled worker, diagnosed from the per-request records. */
  STALL_DIAGNOSIS("benchmarking/stall-diagnosis.md"),
  /** The load generator is never the bottleneck: client-bound runs are errors. */
  CLIENT_BOUND("benchmarking/client-bound.md");

  private final String path;

  RuleFile(String path) {
    this.path = path;
  }

  /**
   * The file name relative to {@code agent-docs/rules/}, e.g. {@code benchmarking/tool-version.md}.
   */
  public String path() {
    return path;
  }

  @Override
  public String toString() {
    return path;
  }
}
