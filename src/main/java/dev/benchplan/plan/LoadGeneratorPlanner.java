package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Sizes AIPerf at every load point and chooses the engine (agent-docs/rules/benchmarking/
 * load-generator.md): workers = ceil(C / 100) closed loop, ceil(rate / 50) open loop, at least 1;
 * CPU = ceil(0.4 x workers) + 1 cores; memory = 2048 + 256 x workers MiB. One pod drives at most
 * {@link #MAX_WORKERS_PER_POD} workers; past that the load needs AIPerf's own operator.
 */
public final class LoadGeneratorPlanner {
  /** Concurrent requests one AIPerf worker keeps in flight (AIPerf's Kubernetes default). */
  public static final int CONNECTIONS_PER_WORKER = 100;

  /** Requests per second one AIPerf worker paces. */
  public static final int RATE_PER_WORKER = 50;

  /** AIPerf's own cap on workers in one process (AIPERF_WORKER_MAX_WORKERS_CAP). */
  public static final int MAX_WORKERS_PER_POD = 32;

  /** Memory of AIPerf's fixed services, MiB. */
  static final int BASE_MEMORY_MIB = 2048;

  /** Memory per worker, MiB. */
  static final int WORKER_MEMORY_MIB = 256;

  private static final RuleFile RULE = RuleFile.LOAD_GENERATOR;

  private LoadGeneratorPlanner() {}

  /** AIPerf workers for closed-loop concurrency {@code c}. */
  public static int workersForConcurrency(int c) {
    return Math.max(1, (c + CONNECTIONS_PER_WORKER - 1) / CONNECTIONS_PER_WORKER);
  }

  /** AIPerf workers for an open-loop rate of {@code rate} requests/s. */
  public static int workersForRate(BigDecimal rate) {
    return Math.max(
        1,
        rate.divide(BigDecimal.valueOf(RATE_PER_WORKER), 0, RoundingMode.CEILING).intValueExact());
  }

  /** CPU request in cores: ceil(0.4 x workers) + 1. */
  public static int cpuCores(int workers) {
    return (2 * workers + 4) / 5 + 1;
  }

  /** Memory request in MiB: 2 GiB + 256 MiB x workers. */
  public static int memoryMib(int workers) {
    return BASE_MEMORY_MIB + WORKER_MEMORY_MIB * workers;
  }

  /**
   * The load generator of a plan: each point's sizing (with its steady-state verdict, same order)
   * and the engine; empty when {@code --engine job} cannot drive the load (blocked).
   *
   * @param trace the replayed trace (fixed schedule), else null
   */
  static Optional<BenchmarkPlan.LoadGenerator> plan(
      BenchmarkPlan.Experiment e,
      BenchmarkPlan.@Nullable Trace trace,
      List<BenchmarkPlan.SteadyState> steady,
      @Nullable EngineRequest requested,
      RuleLog log) {
    EngineRequest asked = requested == null ? EngineRequest.AUTO : requested;
    List<String> labels = new ArrayList<>();
    List<Integer> workers = new ArrayList<>();
    String basis;
    switch (e.measurementMode()) {
      case "closed_loop" -> {
        for (int c : Objects.requireNonNull(e.concurrency())) {
          labels.add("concurrency=" + c);
          workers.add(workersForConcurrency(c));
        }
        basis =
            "ceil(C / "
                + CONNECTIONS_PER_WORKER
                + ") workers (AIPerf's "
                + CONNECTIONS_PER_WORKER
                + " connections per worker)";
      }
      case "open_loop" -> {
        for (BigDecimal r : Objects.requireNonNull(e.requestRate())) {
          labels.add("request_rate=" + r.toPlainString());
          workers.add(workersForRate(r));
        }
        basis = "ceil(rate / " + RATE_PER_WORKER + ") workers";
      }
      default -> {
        BigDecimal rate = replayRate(trace);
        labels.add("fixed_schedule");
        workers.add(rate == null ? 1 : workersForRate(rate));
        basis =
            rate == null
                ? "1 worker: the trace's replay rate is unknown"
                : "ceil(rate / "
                    + RATE_PER_WORKER
                    + ") workers at the replay's mean arrival rate "
                    + rate.toPlainString()
                    + " req/s (rows / span; the plan records no peak rate)";
      }
    }
    int most = workers.stream().mapToInt(Integer::intValue).max().orElse(1);
    boolean onePod = most <= MAX_WORKERS_PER_POD;
    String need =
        "the largest point needs "
            + most
            + " AIPerf worker(s) ("
            + basis
            + "); one pod"
            + " runs at most "
            + MAX_WORKERS_PER_POD;
    String engine;
    String reason;
    switch (asked) {
      case JOB -> {
        if (!onePod) {
          log.block(
              BlockerCode.ENGINE_NEEDS_OPERATOR,
              "--engine job: "
                  + need
                  + ", so one pod"
                  + " would under-drive the endpoint and measure the client; use --engine"
                  + " aiperf-operator (AIPerf's own operator runs the workers across pods) or --engine"
                  + " auto");
          return Optional.empty();
        }
        engine = BenchmarkPlan.LoadGenerator.JOB;
        reason = "requested with --engine job; " + need;
      }
      case AIPERF_OPERATOR -> {
        engine = BenchmarkPlan.LoadGenerator.AIPERF_OPERATOR;
        reason = "requested with --engine aiperf-operator; " + need;
      }
      default -> {
        engine =
            onePod ? BenchmarkPlan.LoadGenerator.JOB : BenchmarkPlan.LoadGenerator.AIPERF_OPERATOR;
        reason =
            "auto: "
                + need
                + (onePod
                    ? ", so one pod (a plain Job) suffices"
                    : ", so AIPerf's own operator runs them across pods");
      }
    }
    boolean operator = engine.equals(BenchmarkPlan.LoadGenerator.AIPERF_OPERATOR);
    List<BenchmarkPlan.PointSizing> points = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      int w = workers.get(i);
      points.add(
          new BenchmarkPlan.PointSizing(
              labels.get(i),
              w,
              cpuCores(w),
              memoryMib(w),
              operator ? CONNECTIONS_PER_WORKER : null,
              i < steady.size() ? steady.get(i) : null));
    }
    log.decide(RULE, "load_generator.engine = " + engine, reason);
    log.decide(
        RULE,
        "load_generator.points = "
            + points.stream()
                .map(
                    p ->
                        p.loadPoint()
                            + ": "
                            + p.workers()
                            + " worker(s), "
                            + p.cpuCores()
                            + " CPU, "
                            + p.memoryMib()
                            + " MiB")
                .toList(),
        "workers = "
            + basis
            + ", at least 1; CPU request ceil(0.4 x workers) + 1 cores; memory"
            + " 2048 + 256 x workers MiB");
    return Optional.of(new BenchmarkPlan.LoadGenerator(engine, asked.label(), reason, points));
  }

  /** Rows per second of the replayed schedule (its window when one is set), or null. */
  static @Nullable BigDecimal replayRate(BenchmarkPlan.@Nullable Trace trace) {
    if (trace == null) {
      return null;
    }
    if (trace.window() != null) {
      if (trace.window().requestsPerS() != null) {
        return BigDecimal.valueOf(trace.window().requestsPerS())
            .setScale(3, RoundingMode.CEILING)
            .stripTrailingZeros();
      }
      return null;
    }
    Long span = trace.timestampMs() == null ? null : trace.timestampMs().span();
    if (span == null || span <= 0) {
      return null;
    }
    return BigDecimal.valueOf(trace.rows() * 1000L)
        .divide(BigDecimal.valueOf(span), 3, RoundingMode.CEILING)
        .stripTrailingZeros();
  }
}
