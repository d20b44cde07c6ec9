package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.RecipeShape;
import dev.benchplan.workload.SourceSelection;
import dev.benchplan.workload.Traffic;
import dev.benchplan.workload.UserWorkload;
import dev.benchplan.workload.WorkloadSource;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Decides the experiment: its type, measurement mode, load points, request count or duration,
 * warmup, seed, timeouts, and how the 30-minute limit is enforced by AIPerf's own controls.
 */
final class ExperimentPlanner {
  /** The hard per-run measurement limit (benchmarking/measurement-limit.md). */
  static final int LIMIT_S = dev.benchplan.workload.InputRanges.MAX_MEASUREMENT_LIMIT_S;

  static final long DEFAULT_SEED = 100;
  static final int DEFAULT_OPEN_LOOP_DURATION_S = 600;
  static final int DEFAULT_REQUEST_TIMEOUT_S = 600;

  /** Measured requests that put 10 samples beyond a p99. */
  static final int MIN_DEFAULT_REQUESTS = 1000;

  /** The experiment, the synthetic shape (null for traces), recorded transformations. */
  record Result(
      BenchmarkPlan.Experiment experiment,
      BenchmarkPlan.@Nullable Synthetic synthetic,
      List<BenchmarkPlan.Transformation> transformations) {}

  /**
   * What the planner reads.
   *
   * @param trace trace facts (user_trace only), else null
   * @param latencySlos true when the workload has latency SLOs (an SLO capacity question)
   */
  record Inputs(
      SourceSelection selection,
      UserWorkload workload,
      DeploymentRecord deployment,
      PlanOptions options,
      @Nullable TraceFacts trace,
      boolean latencySlos) {}

  private ExperimentPlanner() {}

  static Optional<Result> plan(Inputs in, RuleLog log) {
    PlanOptions o = in.options();
    int limit = o.measurementLimitS() == null ? LIMIT_S : o.measurementLimitS();
    if (limit < 1 || limit > LIMIT_S) {
      log.block(
          BlockerCode.MEASUREMENT_LIMIT_EXCEEDED,
          "--measurement-limit "
              + limit
              + "s: every measured run is bounded to at most "
              + LIMIT_S
              + " s (30 minutes)");
      return Optional.empty();
    }
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.measurement_limit_s = " + limit,
        o.measurementLimitS() == null
            ? "the 30-minute per-run limit"
            : "requested with --measurement-limit, within the 30-minute limit");
    WorkloadSource source = in.selection().source();
    ExperimentType type = o.experiment() != null ? o.experiment() : defaultType(in);
    if (source == WorkloadSource.user_trace && type != ExperimentType.trace_fidelity) {
      log.block(
          BlockerCode.EXPERIMENT_SOURCE_MISMATCH,
          "--experiment "
              + type
              + " with a user trace: a trace is replayed with its own schedule"
              + " (trace_fidelity); dropping its timestamps or lengths would be a transformation into a"
              + " new workload. Remove the trace from the workload to plan "
              + type);
      return Optional.empty();
    }
    if (source != WorkloadSource.user_trace && type == ExperimentType.trace_fidelity) {
      log.block(
          BlockerCode.EXPERIMENT_SOURCE_MISMATCH,
          "--experiment trace_fidelity needs a user"
              + " trace (artifacts.supporting_traces or --trace);"
              + " the workload source is "
              + source);
      return Optional.empty();
    }
    log.decide(
        RuleFile.MEASUREMENT_MODE,
        "experiment.type = " + type,
        o.experiment() != null
            ? "requested with --experiment"
            : "the default for a "
                + source
                + " workload"
                + (type == ExperimentType.capacity
                    ? " with several load points or a declared grid maximum"
                    : ""));
    return type == ExperimentType.trace_fidelity
        ? trace(in, limit, log)
        : load(in, type, limit, log);
  }

  private static ExperimentType defaultType(Inputs in) {
    if (in.selection().source() == WorkloadSource.user_trace) {
      return ExperimentType.trace_fidelity;
    }
    if (in.selection().source() == WorkloadSource.recipe_proxy) {
      return ExperimentType.static_shape;
    }
    Traffic t = in.workload().traffic();
    int points =
        (t.concurrency() == null ? 0 : t.concurrency().size())
            + (t.requestRate() == null ? 0 : t.requestRate().size());
    boolean gridMax =
        in.options().maxConcurrency() != null
            || in.options().maxRequestRate() != null
            || t.maxConcurrency() != null
            || t.maxRequestRate() != null;
    return points > 1 || (points == 0 && gridMax)
        ? ExperimentType.capacity
        : ExperimentType.static_shape;
  }

  private static Optional<Result> trace(Inputs in, int limit, RuleLog log) {
    PlanOptions o = in.options();
    TraceFacts f = Objects.requireNonNull(in.trace(), "a user trace has its scan facts");
    if (o.measurementMode() != null && o.measurementMode() != MeasurementMode.fixed_schedule) {
      log.block(
          BlockerCode.MEASUREMENT_MODE_INVALID,
          "--measurement-mode "
              + o.measurementMode()
              + " with trace_fidelity: a trace replay keeps its fixed schedule");
      return Optional.empty();
    }
    if (f.timestampRows() < f.rows()) {
      log.block(
          BlockerCode.TRACE_NO_TIMESTAMPS,
          "trace "
              + f.path()
              + ": "
              + (f.rows() - f.timestampRows())
              + " of "
              + f.rows()
              + " rows have no timestamp;"
              + " trace_fidelity replays every row at its own timestamp (ms), so each row needs one");
      return Optional.empty();
    }
    TraceWindow w = o.traceWindow();
    List<BenchmarkPlan.Transformation> transformations = new ArrayList<>();
    long spanMs;
    long requests;
    if (w != null) {
      long rows = f.windowRows() == null ? 0 : f.windowRows();
      if (rows == 0) {
        log.block(
            BlockerCode.TRACE_WINDOW_EMPTY,
            "--trace-window "
                + w
                + ": no row of "
                + f.path()
                + " has a timestamp in the window (trace timestamps "
                + f.minMs()
                + ".."
                + f.maxMs()
                + " ms)");
        return Optional.empty();
      }
      spanMs = Math.max(0, Math.min(w.endMs(), f.maxMs()) - Math.max(w.startMs(), f.minMs()));
      requests = rows;
      transformations.add(
          new BenchmarkPlan.Transformation(
              "replay_window",
              "explicit --trace-window "
                  + w
                  + " (inclusive, trace ms): only rows with a timestamp in"
                  + " the window are replayed; a new workload and a new series",
              w.startMs(),
              w.endMs(),
              rows,
              f.rows()));
      log.decide(
          RuleFile.PROXY_WORKLOAD_SELECTION,
          "workload.transformations = [replay_window " + w + "]",
          "the user named an explicit window; "
              + rows
              + " of "
              + f.rows()
              + " rows are replayed, recorded as a transformation (never a silent cut)");
    } else {
      // every row has a timestamp (checked above), so the span is known
      spanMs = Objects.requireNonNull(f.spanMs(), "span of a timestamped trace");
      requests = f.rows();
    }
    long limitMs = limit * 1000L;
    if (spanMs > limitMs) {
      log.block(
          BlockerCode.TRACE_EXCEEDS_LIMIT,
          "trace "
              + f.path()
              + ": "
              + (w == null ? "its schedule spans " : "the window " + w + " spans ")
              + minutes(spanMs)
              + " ("
              + spanMs
              + " ms) at 1x replay, longer than the "
              + limit
              + " s measurement limit;"
              + " name an explicit window with --trace-window START_MS:END_MS (recorded as a"
              + " transformation and a new series) — a trace is never silently truncated");
      return Optional.empty();
    }
    long spanS = (spanMs + 999) / 1000;
    int timeout;
    if (o.requestTimeoutS() != null) {
      timeout = o.requestTimeoutS();
      if (spanS + timeout > limit) {
        log.block(
            BlockerCode.MEASUREMENT_LIMIT_EXCEEDED,
            "--request-timeout "
                + timeout
                + "s: the schedule spans "
                + spanS
                + " s, so the last requests could run to "
                + (spanS + timeout)
                + " s, past the "
                + limit
                + " s limit");
        return Optional.empty();
      }
    } else {
      timeout = (int) Math.min(DEFAULT_REQUEST_TIMEOUT_S, limit - spanS);
      if (timeout < 1) {
        log.block(
            BlockerCode.TRACE_EXCEEDS_LIMIT,
            "trace "
                + f.path()
                + ": the schedule spans "
                + spanS
                + " s, leaving no time within the "
                + limit
                + " s limit for the last requests to finish; name a shorter --trace-window");
        return Optional.empty();
      }
    }
    if (timeout < 60) {
      log.warn(
          RuleFile.MEASUREMENT_LIMIT,
          "the schedule spans "
              + spanS
              + " s of the "
              + limit
              + " s limit: requests still running "
              + timeout
              + " s after the last arrival time out");
    }
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.limit_control = trace_span",
        "fixed-schedule"
            + " replay of "
            + requests
            + " requests spanning "
            + minutes(spanMs)
            + "; requests time out"
            + " after "
            + timeout
            + " s, so the run ends within "
            + (spanS + timeout)
            + " s <= "
            + limit
            + " s");
    log.decide(
        RuleFile.MEASUREMENT_MODE,
        "experiment.measurement_mode = fixed_schedule",
        "trace_fidelity sends every row at its own timestamp (ms from trace start)");
    log.decide(
        RuleFile.MEASUREMENT_MODE,
        "experiment.request_count = " + requests,
        "a fixed-schedule replay sends every row of the "
            + (w == null ? "trace" : "window")
            + " once, at its own time");
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.request_timeout_s = " + timeout,
        o.requestTimeoutS() != null
            ? "requested with --request-timeout"
            : "min("
                + DEFAULT_REQUEST_TIMEOUT_S
                + ", limit "
                + limit
                + " - span "
                + spanS
                + " s): the last row is sent at the schedule's end and"
                + " must finish (or time out) within the limit");
    int warmup = o.warmupRequests() == null ? 0 : o.warmupRequests();
    log.decide(
        RuleFile.SERIES_BOUNDARIES,
        "experiment.warmup_requests = " + warmup,
        o.warmupRequests() != null
            ? "requested with --warmup-requests; warmup requests are" + " excluded from results"
            : "no warmup for a replay: warmup traffic would change the"
                + " cache state the trace's own prefix reuse produces; the smoke test already loaded"
                + " the model");
    long seed = seed(o, log);
    BenchmarkPlan.Experiment e =
        new BenchmarkPlan.Experiment(
            ExperimentType.trace_fidelity.name(),
            MeasurementMode.fixed_schedule.name(),
            null,
            null,
            null,
            requests,
            warmup,
            null,
            limit,
            timeout,
            seed,
            "trace_span",
            1,
            new BenchmarkPlan.Grid(
                "schedule", "trace", null, "one replay of the trace's own schedule"),
            requests,
            null,
            null);
    return Optional.of(new Result(e, null, transformations));
  }

  private static Optional<Result> load(Inputs in, ExperimentType type, int limit, RuleLog log) {
    PlanOptions o = in.options();
    Traffic t = in.workload().traffic();
    boolean proxy = in.selection().source() == WorkloadSource.recipe_proxy;
    BenchmarkPlan.Synthetic synthetic =
        proxy
            ? new BenchmarkPlan.Synthetic(proxyRecipe(in).isl(), proxyRecipe(in).osl(), 0, 0, true)
            : new BenchmarkPlan.Synthetic(
                Objects.requireNonNull(
                    t.inputTokens(), "traffic.input_tokens of a synthetic workload"),
                Objects.requireNonNull(
                    t.outputTokens(), "traffic.output_tokens of a synthetic workload"),
                t.inputTokensStddev() == null ? 0 : t.inputTokensStddev(),
                t.outputTokensStddev() == null ? 0 : t.outputTokensStddev(),
                true,
                o.datasetEntries(),
                o.temperature());
    log.decide(
        RuleFile.PROXY_WORKLOAD_SELECTION,
        "workload.synthetic = ISL "
            + synthetic.isl()
            + " (stddev "
            + synthetic.islStddev()
            + "), OSL "
            + synthetic.osl()
            + " (stddev "
            + synthetic.oslStddev()
            + "), ignore_eos",
        (proxy ? "the recipe's shape" : "the user's exact" + " values")
            + "; ignore_eos so every response has the planned output length");
    Long ctx = in.deployment().maxContextLength();
    if (!proxy && ctx != null && (long) synthetic.isl() + synthetic.osl() > ctx) {
      log.block(
          BlockerCode.STATIC_SHAPE_EXCEEDS_CONTEXT,
          "user workload "
              + in.workload().document().at("/traffic/input_tokens")
              + ": input "
              + synthetic.isl()
              + " + output "
              + synthetic.osl()
              + " tokens exceed the served max_context_length "
              + ctx
              + " of the deployment; every request would be rejected");
      return Optional.empty();
    }
    List<Integer> userConc =
        proxy
            ? List.of(proxyRecipe(in).concurrencyPerGpu() * in.deployment().gpuTotal())
            : t.hasConcurrency() ? t.concurrency() : null;
    List<BigDecimal> userRate = proxy ? null : t.hasRequestRate() ? t.requestRate() : null;
    Integer maxConc =
        o.maxConcurrency() != null ? o.maxConcurrency() : proxy ? null : t.maxConcurrency();
    BigDecimal maxRate =
        o.maxRequestRate() != null ? o.maxRequestRate() : proxy ? null : t.maxRequestRate();
    if (proxy && type == ExperimentType.capacity && maxConc == null && userConc != null) {
      maxConc = userConc.get(0);
      userConc = null;
    }

    MeasurementMode mode = o.measurementMode();
    String modeReason;
    if (mode == MeasurementMode.fixed_schedule) {
      log.block(
          BlockerCode.MEASUREMENT_MODE_INVALID,
          "--measurement-mode"
              + " fixed_schedule needs a user trace; the workload source is "
              + in.selection().source());
      return Optional.empty();
    }
    if (mode != null) {
      modeReason = "requested with --measurement-mode";
      if (mode == MeasurementMode.closed_loop && userRate != null) {
        log.warn(
            RuleFile.CONCURRENCY_GRID,
            "traffic.request_rate "
                + userRate
                + " is not used:"
                + " this series measures closed-loop concurrency; rate points are a separate series");
        userRate = null;
      }
      if (mode == MeasurementMode.open_loop && userConc != null) {
        log.warn(
            RuleFile.CONCURRENCY_GRID,
            "traffic.concurrency "
                + userConc
                + " is not used:"
                + " this series measures open-loop request rates; concurrency points are a separate"
                + " series");
        userConc = null;
      }
    } else if (userConc != null && userRate != null) {
      log.block(
          BlockerCode.LOAD_AXIS_AMBIGUOUS,
          "user workload "
              + in.workload().document().at("/traffic")
              + ": both concurrency "
              + userConc
              + " and request_rate "
              + userRate
              + " are given; concurrency and request-rate points are"
              + " separate series — choose one with --measurement-mode closed_loop|open_loop");
      return Optional.empty();
    } else if (userConc != null) {
      mode = MeasurementMode.closed_loop;
      modeReason = proxy ? "the recipe runs closed-loop concurrency" : "the user gave concurrency";
    } else if (userRate != null) {
      mode = MeasurementMode.open_loop;
      modeReason = "the user gave request rates";
    } else if (type == ExperimentType.capacity && in.latencySlos()) {
      mode = MeasurementMode.open_loop;
      modeReason =
          "a latency-SLO capacity question is answered with open-loop (Poisson)"
              + " request-rate points";
    } else if (maxRate != null && maxConc == null) {
      mode = MeasurementMode.open_loop;
      modeReason = "a request-rate grid maximum was declared";
    } else {
      mode = MeasurementMode.closed_loop;
      modeReason = "closed-loop concurrency measures saturation and peak throughput";
    }
    if (mode == MeasurementMode.closed_loop
        && type == ExperimentType.capacity
        && in.latencySlos()) {
      log.warn(
          RuleFile.MEASUREMENT_MODE,
          "a latency-SLO capacity question measured in closed"
              + " loop: concurrency points describe saturation, not the traffic an SLO allows;"
              + " open-loop request-rate points answer it directly");
    }
    log.decide(RuleFile.MEASUREMENT_MODE, "experiment.measurement_mode = " + mode, modeReason);

    return mode == MeasurementMode.closed_loop
        ? closedLoop(in, type, limit, synthetic, userConc, maxConc, log)
        : openLoop(in, type, limit, synthetic, userRate, maxRate, log);
  }

  private static Optional<Result> closedLoop(
      Inputs in,
      ExperimentType type,
      int limit,
      BenchmarkPlan.Synthetic synthetic,
      @Nullable List<Integer> userConc,
      @Nullable Integer maxConc,
      RuleLog log) {
    PlanOptions o = in.options();
    Traffic t = in.workload().traffic();
    boolean proxy = in.selection().source() == WorkloadSource.recipe_proxy;
    List<Integer> points;
    BenchmarkPlan.Grid grid;
    if (userConc != null) {
      points = userConc;
      String origin = proxy ? "recipe" : "user_values";
      String reason =
          proxy
              ? "the recipe's "
                  + proxyRecipe(in).concurrencyPerGpu()
                  + " concurrent requests per GPU x "
                  + in.deployment().gpuTotal()
                  + " deployment GPUs"
              : "exact user values " + userConc;
      grid = new BenchmarkPlan.Grid("concurrency", origin, null, reason);
    } else if (maxConc != null && type == ExperimentType.capacity) {
      points = powersOfTwo(maxConc);
      grid =
          new BenchmarkPlan.Grid(
              "concurrency",
              "powers_of_two",
              BigDecimal.valueOf(maxConc),
              "bounded powers-of-two grid up to the declared maximum "
                  + maxConc
                  + (Integer.bitCount(maxConc) == 1
                      ? ""
                      : " (the maximum itself is the last point: a" + " declared user value)"));
    } else if (type == ExperimentType.capacity) {
      log.block(
          BlockerCode.GRID_UNBOUNDED,
          "capacity experiment without load"
              + " points: give traffic.concurrency values, or declare a grid maximum"
              + " (traffic.max_concurrency or --max-concurrency); a grid is never unbounded");
      return Optional.empty();
    } else {
      log.block(
          BlockerCode.LOAD_POINTS_MISSING,
          "static_shape needs a load:"
              + " give traffic.concurrency (or traffic.request_rate) in the user workload");
      return Optional.empty();
    }
    log.decide(RuleFile.CONCURRENCY_GRID, "experiment.concurrency = " + points, grid.reason());
    int maxPoint = Collections.max(points);
    Long durationS = t.durationS() == null || proxy ? null : t.durationS();
    if (!withinLimit(in, durationS, limit, log)) {
      return Optional.empty();
    }
    Long userCount = proxy ? null : t.requestCount();
    Long requestCount =
        userCount != null
            ? userCount
            : durationS != null
                ? null
                : Long.valueOf(Math.max(MIN_DEFAULT_REQUESTS, 10L * maxPoint));
    String countReason =
        userCount != null
            ? "exact user value traffic.request_count"
            : durationS != null
                ? "duration-bounded (traffic.duration_s "
                    + durationS
                    + " s); the"
                    + " measured count is whatever completes"
                : "max(1000, 10 x the largest concurrency "
                    + maxPoint
                    + "): recipes use 10 x concurrency;"
                    + " 1000 puts at least 10 measured requests beyond a p99";
    log.decide(
        RuleFile.CONCURRENCY_GRID, "experiment.request_count = " + requestCount, countReason);
    BenchmarkPlan.RunEstimate estimate = null;
    if (requestCount != null) {
      Optional<BenchmarkPlan.RunEstimate> e =
          closedLoopEstimate(
              in, synthetic, points, requestCount, userCount != null, durationS, limit, log);
      if (e.isEmpty()) {
        return Optional.empty();
      }
      estimate = e.get();
    }
    String control =
        requestCount == null
            ? "duration"
            : durationS != null ? "request_count+duration" : "request_count+limit_cap";
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.limit_control = " + control,
        requestCount == null
            ? "AIPerf's benchmark duration bounds each point to " + durationS + " s"
            : "AIPerf stops each point after "
                + requestCount
                + " measured requests or at the"
                + " benchmark duration cap of "
                + (durationS != null ? durationS : limit)
                + " s, whichever comes first; a point stopped by the cap is flagged by its measured"
                + " request count");
    List<Integer> warmups =
        points.stream().map(c -> o.warmupRequests() != null ? o.warmupRequests() : c).toList();
    BenchmarkPlan.RunEstimate runEstimate = estimate;
    return bounds(
            o,
            warmups,
            "one warmup request per concurrent slot of each point"
                + " (the recipes' 1 x concurrency), excluded from results",
            limit,
            log)
        .map(
            x ->
                new Result(
                    x.experiment(
                        type,
                        MeasurementMode.closed_loop,
                        points,
                        null,
                        null,
                        grid,
                        new Measurement(
                            requestCount, durationS, limit, control, requestCount, runEstimate),
                        warmups),
                    synthetic,
                    List.of()));
  }

  private static Optional<Result> openLoop(
      Inputs in,
      ExperimentType type,
      int limit,
      BenchmarkPlan.Synthetic synthetic,
      @Nullable List<BigDecimal> userRate,
      @Nullable BigDecimal maxRate,
      RuleLog log) {
    PlanOptions o = in.options();
    Traffic t = in.workload().traffic();
    List<BigDecimal> points;
    BenchmarkPlan.Grid grid;
    if (userRate != null) {
      points = userRate;
      grid =
          new BenchmarkPlan.Grid(
              "request_rate", "user_values", null, "exact user values " + plain(points));
    } else if (maxRate != null && type == ExperimentType.capacity) {
      points = powersOfTwo(maxRate);
      grid =
          new BenchmarkPlan.Grid(
              "request_rate",
              "powers_of_two",
              maxRate,
              "bounded"
                  + " powers-of-two grid of requests/s up to the declared maximum "
                  + maxRate.toPlainString());
    } else if (type == ExperimentType.capacity) {
      log.block(
          BlockerCode.GRID_UNBOUNDED,
          "capacity experiment with open-loop"
              + " request-rate points but no rates: give traffic.request_rate values, or declare a grid"
              + " maximum (traffic.max_request_rate or --max-request-rate); a grid is never unbounded"
              + (in.options().maxConcurrency() != null
                      || in.workload().traffic().maxConcurrency() != null
                  ? " (or sweep the declared concurrency maximum with --measurement-mode closed_loop)"
                  : ""));
      return Optional.empty();
    } else {
      log.block(
          BlockerCode.LOAD_POINTS_MISSING,
          "static_shape needs a load:"
              + " give traffic.request_rate (or traffic.concurrency) in the user workload");
      return Optional.empty();
    }
    log.decide(
        RuleFile.CONCURRENCY_GRID, "experiment.request_rate = " + plain(points), grid.reason());
    String arrival = t.arrivalPattern() != null ? t.arrivalPattern() : "poisson";
    log.decide(
        RuleFile.MEASUREMENT_MODE,
        "experiment.arrival_pattern = " + arrival,
        t.arrivalPattern() != null
            ? "exact user value"
            : "open-loop points use Poisson arrivals;"
                + " each point records offered vs achieved rate");
    Long requestCount = t.requestCount();
    Long durationS =
        t.durationS() != null
            ? t.durationS()
            : requestCount == null ? (long) Math.min(DEFAULT_OPEN_LOOP_DURATION_S, limit) : null;
    if (!withinLimit(in, durationS, limit, log)) {
      return Optional.empty();
    }
    BigDecimal minRate = Collections.min(points);
    Long expected;
    BigDecimal estimateS;
    if (requestCount != null && durationS == null) {
      BigDecimal seconds = RunLengthEstimator.openLoopSeconds(requestCount, minRate);
      estimateS = seconds;
      if (seconds.compareTo(BigDecimal.valueOf(limit)) > 0) {
        log.block(
            BlockerCode.MEASUREMENT_LIMIT_EXCEEDED,
            "user workload "
                + in.workload().document().at("/traffic/request_count")
                + ": "
                + requestCount
                + " requests at the lowest rate "
                + minRate.toPlainString()
                + " req/s take about "
                + seconds
                + " s, more than the "
                + limit
                + " s limit; lower the count or give"
                + " traffic.duration_s");
        return Optional.empty();
      }
      expected = requestCount;
    } else {
      long duration =
          Objects.requireNonNull(
              durationS, "traffic.duration_s when no request count bounds the run");
      estimateS = BigDecimal.valueOf(duration);
      long byDuration =
          minRate
              .multiply(BigDecimal.valueOf(duration))
              .setScale(0, RoundingMode.FLOOR)
              .longValueExact();
      expected = requestCount == null ? byDuration : Math.min(requestCount, byDuration);
    }
    String control = durationS != null ? "duration" : "request_count";
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.limit_control = " + control,
        durationS != null
            ? "AIPerf's benchmark duration bounds each rate point to "
                + durationS
                + " s"
                + (t.durationS() == null ? " (default: 10 minutes, MLPerf's minimum run)" : "")
            : requestCount
                + " requests at >= "
                + minRate.toPlainString()
                + " req/s finish within "
                + limit
                + " s");
    List<Integer> warmups =
        points.stream()
            .map(
                r ->
                    o.warmupRequests() != null
                        ? o.warmupRequests()
                        : r.multiply(BigDecimal.TEN)
                            .setScale(0, RoundingMode.CEILING)
                            .intValueExact())
            .toList();
    Optional<Bounds> b =
        bounds(
            o,
            warmups,
            "ten seconds of traffic at each point's rate, excluded from results",
            limit,
            log);
    BenchmarkPlan.RunEstimate estimate =
        new BenchmarkPlan.RunEstimate(
            estimateS,
            minRate.toPlainString(),
            null,
            durationS != null
                ? "AIPerf's benchmark duration of " + durationS + " s bounds every rate point"
                : requestCount
                    + " requests arrive over "
                    + estimateS.toPlainString()
                    + " s at the lowest rate "
                    + minRate.toPlainString()
                    + " req/s");
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.run_estimate = "
            + estimateS.toPlainString()
            + " s (request rate "
            + minRate.toPlainString()
            + ")",
        estimate.basis());
    Measurement measurement =
        new Measurement(requestCount, durationS, limit, control, expected, estimate);
    return b.map(
        x ->
            new Result(
                x.experiment(
                    type,
                    MeasurementMode.open_loop,
                    null,
                    points,
                    arrival,
                    grid,
                    measurement,
                    warmups),
                synthetic,
                List.of()));
  }

  /**
   * Estimates the longest closed-loop point (the lowest concurrency) with {@link
   * RunLengthEstimator} and refuses a request count that cannot finish within the limit: AIPerf's
   * duration cap would cut the run, a silent truncation. When the user gave a duration too, the
   * duration bounds the run as they allowed, and the cut is a warning.
   */
  private static Optional<BenchmarkPlan.RunEstimate> closedLoopEstimate(
      Inputs in,
      BenchmarkPlan.Synthetic synthetic,
      List<Integer> points,
      long requestCount,
      boolean userCount,
      @Nullable Long durationS,
      int limit,
      RuleLog log) {
    RuleFile rule = RuleFile.MEASUREMENT_LIMIT;
    Optional<RunLengthEstimator.RequestTime> rt =
        RunLengthEstimator.requestTime(in.deployment().smoke(), synthetic.isl(), synthetic.osl());
    if (rt.isEmpty()) {
      String basis =
          "no request time is known (the deployment's smoke evidence is "
              + in.deployment().smoke().kind()
              + " without timings); AIPerf's duration cap of "
              + (durationS != null ? durationS : limit)
              + " s bounds each point";
      log.decide(rule, "experiment.run_estimate = unknown", basis);
      return Optional.of(new BenchmarkPlan.RunEstimate(null, null, null, basis));
    }
    int slowest = Collections.min(points);
    BigDecimal seconds = RunLengthEstimator.closedLoopSeconds(requestCount, slowest, rt.get());
    String basis =
        requestCount
            + " requests at concurrency "
            + slowest
            + " (the lowest point): "
            + ((requestCount + slowest - 1) / slowest)
            + " requests per slot x "
            + rt.get().basis();
    BenchmarkPlan.RunEstimate estimate =
        new BenchmarkPlan.RunEstimate(seconds, Integer.toString(slowest), rt.get().ms(), basis);
    String count =
        userCount
            ? "user workload "
                + in.workload().document().at("/traffic/request_count")
                + ": "
                + requestCount
            : "the default request count " + requestCount;
    if (durationS != null && seconds.compareTo(BigDecimal.valueOf(durationS)) > 0) {
      log.warn(
          rule,
          count
              + " takes at least "
              + seconds.toPlainString()
              + " s at concurrency "
              + slowest
              + ", so traffic.duration_s "
              + durationS
              + " s ends that point first, with"
              + " fewer measured requests ("
              + basis
              + ")");
    } else if (seconds.compareTo(BigDecimal.valueOf(limit)) > 0) {
      log.block(
          BlockerCode.MEASUREMENT_LIMIT_EXCEEDED,
          count
              + " requests at concurrency "
              + slowest
              + " take at least "
              + seconds.toPlainString()
              + " s, more than the "
              + limit
              + " s measurement limit, so AIPerf's cap would cut the run ("
              + basis
              + "); lower"
              + " traffic.request_count, raise the lowest concurrency, or bound the run by time with"
              + " traffic.duration_s");
      return Optional.empty();
    }
    log.decide(
        rule,
        "experiment.run_estimate = at least "
            + seconds.toPlainString()
            + " s (concurrency "
            + slowest
            + ")",
        basis);
    return Optional.of(estimate);
  }

  /**
   * The measurement limit on a duration: a user's {@code traffic.duration_s} above it is a blocker
   * (false), since AIPerf would run past what the series allows.
   */
  private static boolean withinLimit(Inputs in, @Nullable Long durationS, int limit, RuleLog log) {
    if (durationS != null && durationS > limit) {
      log.block(
          BlockerCode.MEASUREMENT_LIMIT_EXCEEDED,
          "user workload "
              + in.workload().document().at("/traffic/duration_s")
              + ": "
              + durationS
              + " s exceeds"
              + " the "
              + limit
              + " s measurement limit");
      return false;
    }
    return true;
  }

  /** The warmup, per-request timeout and seed of a load experiment. */
  private record Bounds(int warmup, int timeout, long seed) {
    /**
     * The experiment of either loop: its points (concurrency or request rates), how each point's
     * measurement is bounded, the per-point warmup, and these bounds.
     */
    BenchmarkPlan.Experiment experiment(
        ExperimentType type,
        MeasurementMode mode,
        @Nullable List<Integer> concurrency,
        @Nullable List<BigDecimal> requestRate,
        @Nullable String arrivalPattern,
        BenchmarkPlan.Grid grid,
        Measurement m,
        List<Integer> warmups) {
      return new BenchmarkPlan.Experiment(
          type.name(),
          mode.name(),
          concurrency,
          requestRate,
          arrivalPattern,
          m.requestCount(),
          warmup,
          m.durationS(),
          m.limit(),
          timeout,
          seed,
          m.control(),
          warmups.size(), // one warmup per load point
          grid,
          m.expected(),
          warmups,
          m.estimate());
    }
  }

  /**
   * How each load point's measurement is bounded: the request count, the duration, the limit, which
   * of them controls the run, the measured requests expected, and the run estimate.
   */
  private record Measurement(
      @Nullable Long requestCount,
      @Nullable Long durationS,
      int limit,
      String control,
      @Nullable Long expected,
      BenchmarkPlan.@Nullable RunEstimate estimate) {}

  /**
   * Decides the warmup (per point: {@code --warmup-requests}, else each point's own default for
   * {@code defaultReason}; {@code warmup_requests} is the largest), the timeout and the seed; empty
   * when the timeout is blocked.
   */
  private static Optional<Bounds> bounds(
      PlanOptions o, List<Integer> warmups, String defaultReason, int limit, RuleLog log) {
    int warmup = Collections.max(warmups);
    log.decide(
        RuleFile.SERIES_BOUNDARIES,
        "experiment.warmup_requests_per_point = " + warmups + " (warmup_requests = " + warmup + ")",
        o.warmupRequests() != null ? "requested with --warmup-requests" : defaultReason);
    int timeout = timeout(o, limit, log);
    if (timeout < 0) {
      return Optional.empty();
    }
    return Optional.of(new Bounds(warmup, timeout, seed(o, log)));
  }

  private static int timeout(PlanOptions o, int limit, RuleLog log) {
    int timeout =
        o.requestTimeoutS() != null
            ? o.requestTimeoutS()
            : Math.min(DEFAULT_REQUEST_TIMEOUT_S, limit);
    if (timeout < 1 || timeout > limit) {
      log.block(
          BlockerCode.MEASUREMENT_LIMIT_EXCEEDED,
          "--request-timeout "
              + timeout
              + "s: a request timeout must lie within the "
              + limit
              + " s measurement limit");
      return -1;
    }
    log.decide(
        RuleFile.MEASUREMENT_LIMIT,
        "experiment.request_timeout_s = " + timeout,
        o.requestTimeoutS() != null
            ? "requested with --request-timeout"
            : "min("
                + DEFAULT_REQUEST_TIMEOUT_S
                + ", limit "
                + limit
                + "): bounded execution: no request"
                + " outlives "
                + timeout
                + " s, and none outlives the run's limit");
    return timeout;
  }

  private static long seed(PlanOptions o, RuleLog log) {
    long seed = o.seed() != null ? o.seed() : DEFAULT_SEED;
    log.decide(
        RuleFile.SERIES_BOUNDARIES,
        "experiment.seed = " + seed,
        o.seed() != null
            ? "requested with --seed"
            : "a fixed seed (the Dynamo recipes' 100) so every run of the"
                + " series sends the same synthetic prompts");
    return seed;
  }

  /** 1, 2, 4, ... up to max; max itself is the last point when it is not a power of two. */
  static List<Integer> powersOfTwo(int max) {
    List<Integer> points = new ArrayList<>();
    for (long p = 1; p <= max; p *= 2) {
      points.add((int) p);
    }
    if (points.get(points.size() - 1) != max) {
      points.add(max);
    }
    return points;
  }

  /** 1, 2, 4, ... requests/s up to max (max itself last when not a power of two; [max] below 1). */
  static List<BigDecimal> powersOfTwo(BigDecimal max) {
    List<BigDecimal> points = new ArrayList<>();
    for (BigDecimal p = BigDecimal.ONE;
        p.compareTo(max) <= 0;
        p = p.multiply(BigDecimal.valueOf(2))) {
      points.add(p);
    }
    if (points.isEmpty() || points.get(points.size() - 1).compareTo(max) != 0) {
      points.add(max);
    }
    return points;
  }

  private static String plain(List<BigDecimal> values) {
    return values.stream().map(BigDecimal::toPlainString).toList().toString();
  }

  static String minutes(long ms) {
    return String.format(java.util.Locale.ROOT, "%.1f min", ms / 60000.0);
  }

  /** The recipe of a recipe-proxy workload (the selection names one for that source). */
  private static RecipeShape proxyRecipe(Inputs in) {
    return Objects.requireNonNull(in.selection().recipe(), "a recipe proxy names its recipe");
  }
}
