package dev.benchplan.render;

import dev.benchplan.aiperf.config.AiperfSettings;
import dev.benchplan.aiperf.config.Dataset;
import dev.benchplan.aiperf.config.Endpoint;
import dev.benchplan.aiperf.config.EndpointType;
import dev.benchplan.aiperf.config.Phase;
import dev.benchplan.aiperf.config.PhaseType;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.VerifiedPlan;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Maps a plan and one load point to the AIPerf settings of one run: the measured phase bounded by
 * the plan's request count and by its duration (or, without one, its measurement limit), preceded
 * by a bounded warmup phase excluded from results.
 */
public final class AiperfSettingsFactory {
  /**
   * Synthetic prompts generated when the plan bounds the run only by time: enough that prompts are
   * rarely reused, so a warm prefix cache cannot inflate results.
   */
  public static final int DURATION_BOUND_SYNTHETIC_ENTRIES = 10_000;

  private AiperfSettingsFactory() {}

  /**
   * The settings of one run.
   *
   * @param tracePathInPod where the trace is readable in the pod (trace workloads), else null
   * @param artifactDir the run's artifact folder in the pod
   */
  public static AiperfSettings forRun(
      VerifiedPlan verified, LoadPoint point, @Nullable String tracePathInPod, String artifactDir) {
    BenchmarkPlan plan = verified.plan();
    BenchmarkPlan.Experiment e = plan.experiment();
    int timeout = e.requestTimeoutS() != null ? e.requestTimeoutS() : e.measurementLimitS();
    Endpoint endpoint =
        new Endpoint(
            verified.endpointUrl(),
            EndpointType.of(plan.endpoint().type()),
            plan.endpoint().path(),
            plan.endpoint().streaming(),
            timeout);

    Dataset dataset;
    boolean ignoreEos = false;
    if (usesTrace(plan)) {
      dataset =
          new Dataset.MooncakeTrace(
              Objects.requireNonNull(tracePathInPod)); // a trace plan mounts it
    } else {
      BenchmarkPlan.Synthetic syn = Objects.requireNonNull(plan.workload().synthetic());
      long entries =
          syn.datasetEntries() != null
              ? syn.datasetEntries()
              : e.requestCount() != null
                  ? e.requestCount() + warmupOf(e, point)
                  : DURATION_BOUND_SYNTHETIC_ENTRIES;
      dataset =
          new Dataset.Synthetic(syn.isl(), syn.islStddev(), syn.osl(), syn.oslStddev(), entries);
      ignoreEos = syn.ignoreEos();
    }

    // the schema caps both at 1800 s
    // duration + grace period within the limit, counted whole (issue 21 item 6)
    int duration =
        (int)
            Math.max(
                1,
                Math.min(
                    e.durationS() != null
                        ? Math.min(e.durationS(), e.measurementLimitS())
                        : e.measurementLimitS(),
                    e.measurementLimitS() - JobBudget.GRACE_PERIOD_SECONDS));
    Phase profiling;
    Phase warmup;
    int warmupCount = warmupOf(e, point);
    switch (e.measurementMode()) {
      case "closed_loop" -> {
        int concurrency = Objects.requireNonNull(point.concurrency());
        profiling = measured(PhaseType.CONCURRENCY, concurrency, null, e, duration, null);
        warmup =
            warmup(PhaseType.CONCURRENCY, Math.min(concurrency, warmupCount), null, warmupCount);
      }
      case "open_loop" -> {
        PhaseType type =
            "constant".equals(e.arrivalPattern()) ? PhaseType.CONSTANT : PhaseType.POISSON;
        profiling = measured(type, null, point.rate(), e, duration, null);
        warmup = warmup(type, null, point.rate(), warmupCount);
      }
      default -> {
        BenchmarkPlan.TraceWindowRows w = Objects.requireNonNull(plan.workload().trace()).window();
        profiling =
            measured(
                PhaseType.FIXED_SCHEDULE,
                null,
                null,
                null,
                duration,
                w == null ? null : new Phase.ReplayWindow(w.startMs(), w.endMs()));
        // the trace's timing has no concurrency to copy: warm up one request at a time
        warmup = warmup(PhaseType.CONCURRENCY, 1, null, warmupCount);
      }
    }
    return new AiperfSettings(
        plan.deployment().servedModel(),
        endpoint,
        plan.deployment().tokenizer(),
        dataset,
        ignoreEos,
        warmup,
        profiling,
        goodput(plan),
        plan.experiment().seed(),
        artifactDir,
        sizingOf(plan, point).map(BenchmarkPlan.PointSizing::workers).orElse(null),
        usesTrace(plan) ? null : Objects.requireNonNull(plan.workload().synthetic()).temperature());
  }

  /**
   * AIPerf's size at {@code point} as the plan records it in {@code load_generator.points}
   * (agent-docs/rules/benchmarking/load-generator.md); empty for a plan written before the rule.
   */
  public static Optional<BenchmarkPlan.PointSizing> sizingOf(BenchmarkPlan plan, LoadPoint point) {
    BenchmarkPlan.LoadGenerator lg = plan.loadGenerator();
    if (lg == null || lg.points() == null) {
      return Optional.empty();
    }
    for (BenchmarkPlan.PointSizing p : lg.points()) {
      if (matches(p.loadPoint(), point)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static boolean matches(String label, LoadPoint point) {
    int eq = label.indexOf('=');
    if (eq < 0) {
      return point.concurrency() == null && point.rate() == null;
    }
    String axis = label.substring(0, eq);
    BigDecimal value;
    try {
      value = new BigDecimal(label.substring(eq + 1));
    } catch (NumberFormatException e) {
      return false;
    }
    return axis.equals("concurrency")
        ? point.concurrency() != null
            && value.compareTo(BigDecimal.valueOf(point.concurrency())) == 0
        : axis.equals("request_rate") && point.rate() != null && value.compareTo(point.rate()) == 0;
  }

  /**
   * The measured phase: bounded by the plan's request count (none for a replay, {@code e} null) and
   * by {@code duration} with the grace period.
   */
  private static Phase measured(
      PhaseType type,
      @Nullable Integer concurrency,
      @Nullable BigDecimal rate,
      BenchmarkPlan.@Nullable Experiment e,
      int duration,
      Phase.@Nullable ReplayWindow window) {
    return new Phase(
        type,
        concurrency,
        rate,
        e == null ? null : e.requestCount(),
        duration,
        JobBudget.GRACE_PERIOD_SECONDS,
        window);
  }

  /** A warmup phase of {@code count} requests within the warmup limit, or null for none. */
  private static @Nullable Phase warmup(
      PhaseType type, @Nullable Integer concurrency, @Nullable BigDecimal rate, int count) {
    return count > 0
        ? new Phase(
            type, concurrency, rate, (long) count, JobBudget.WARMUP_LIMIT_SECONDS, null, null)
        : null;
  }

  /** The warmup requests of this point: the plan's per-point value, else its one value. */
  static int warmupOf(BenchmarkPlan.Experiment e, LoadPoint point) {
    return e.warmupAtLoad(point.concurrency(), point.rate());
  }

  /** True when the prompts come from the plan's trace (a user trace), not synthetic lengths. */
  public static boolean usesTrace(BenchmarkPlan plan) {
    return plan.workload().trace() != null
        && ("user_trace".equals(plan.workload().source()) || plan.workload().synthetic() == null);
  }

  /**
   * The plan's goodput thresholds; none when the plan has none (AiperfSettings reads null as none
   * too).
   */
  private static Map<String, BigDecimal> goodput(BenchmarkPlan plan) {
    Map<String, BigDecimal> goodput = plan.objectives().goodput();
    return goodput == null ? Map.of() : goodput;
  }
}
