package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.SmokeEvidence;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Enforces agent-docs/rules/benchmarking/steady-state.md: every load point measures enough requests
 * (and, closed loop, warms up enough) to reach steady state, and says so per point. Closed loop: at
 * least 8 x C measured and C warmup requests; open loop: at least 8 x rate x the estimated request
 * latency ({@link RunLengthEstimator}); a fixed-schedule replay is exempt. Where the measurement
 * limit caps a point below the minimum the limit wins (time-bounded, a warning); below the minimum
 * otherwise is {@code STEADY_STATE_SHORT}, unless {@code --allow-short-points} accepts it.
 */
final class SteadyStateRule {
  /** Measured requests per concurrent slot (closed loop) or per request in flight (open loop). */
  static final int REQUESTS_PER_SLOT = 8;

  private static final RuleFile RULE = RuleFile.STEADY_STATE;
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  /**
   * What the rule reads.
   *
   * @param synthetic the planned request shape, or null for a trace replay
   * @param requestCountAt where traffic.request_count is written in the user workload (for
   *     messages)
   * @param durationAt where traffic.duration_s is written
   */
  record Inputs(
      BenchmarkPlan.Experiment experiment,
      BenchmarkPlan.@Nullable Synthetic synthetic,
      SmokeEvidence smoke,
      PlanOptions options,
      String requestCountAt,
      String durationAt) {}

  /** One point's figures before the verdict. */
  private record Figures(
      String label,
      @Nullable Long minimum,
      @Nullable Long cap,
      @Nullable Long planned,
      boolean byDuration,
      @Nullable Integer warmupMinimum,
      int warmup) {}

  private SteadyStateRule() {}

  /** The verdict of every load point, in the plan's order; blockers go to {@code log}. */
  static List<BenchmarkPlan.SteadyState> check(Inputs in, RuleLog log) {
    BenchmarkPlan.Experiment e = in.experiment();
    if (MeasurementMode.fixed_schedule.name().equals(e.measurementMode())) {
      String basis =
          "a fixed-schedule replay measures every row at its recorded time: the trace's"
              + " own schedule is the load, so there is no steady state to wait for";
      log.decide(RULE, "steady state: exempt (fixed-schedule replay)", basis);
      return List.of(
          new BenchmarkPlan.SteadyState(
              BenchmarkPlan.SteadyState.EXEMPT, null, e.requestCount(), basis));
    }
    Optional<RunLengthEstimator.RequestTime> rt =
        in.synthetic() == null
            ? Optional.empty()
            : RunLengthEstimator.requestTime(
                in.smoke(), in.synthetic().isl(), in.synthetic().osl());
    boolean closed = MeasurementMode.closed_loop.name().equals(e.measurementMode());
    List<Figures> figures = new ArrayList<>();
    if (closed) {
      for (int i = 0; i < Objects.requireNonNull(e.concurrency()).size(); i++) {
        figures.add(closedLoop(e, i, rt));
      }
    } else {
      for (BigDecimal rate : Objects.requireNonNull(e.requestRate())) { // open loop: the rates
        figures.add(openLoop(e, rate, rt));
      }
    }
    String latency = rt.map(RunLengthEstimator.RequestTime::basis).orElse(null);
    Map<String, List<String>> shortBy = new LinkedHashMap<>();
    Map<String, Long> neededBy = new LinkedHashMap<>();
    List<BenchmarkPlan.SteadyState> out = new ArrayList<>();
    List<String> timeBounded = new ArrayList<>();
    int notEnforced = 0;
    for (Figures f : figures) {
      List<String> shortfalls = new ArrayList<>();
      if (f.warmupMinimum() != null && f.warmup() < f.warmupMinimum()) {
        String field = "--warmup-requests " + f.warmup();
        shortBy
            .computeIfAbsent(field, k -> new ArrayList<>())
            .add(f.label() + " (minimum " + f.warmupMinimum() + ")");
        neededBy.merge(field, (long) f.warmupMinimum(), Math::max);
        shortfalls.add(f.warmup() + " warmup requests < " + f.warmupMinimum());
      }
      // known: both the minimum and the planned count (written out so NullAway follows it)
      long effective =
          f.minimum() == null || f.planned() == null
              ? 0
              : f.cap() == null ? f.minimum() : Math.min(f.minimum(), f.cap());
      if (f.minimum() != null && f.planned() != null && f.planned() < effective) {
        String field = f.byDuration() ? "traffic.duration_s" : "traffic.request_count";
        shortBy
            .computeIfAbsent(field, k -> new ArrayList<>())
            .add(f.label() + " (plans " + f.planned() + ", minimum " + effective + ")");
        neededBy.merge(
            field,
            f.byDuration() ? durationNeeded(e, f, effective, rt.orElseThrow()) : effective,
            Math::max);
        shortfalls.add(f.planned() + " measured requests < " + effective);
      }
      String status;
      String basis;
      if (!shortfalls.isEmpty()) {
        status = BenchmarkPlan.SteadyState.SHORT_ACCEPTED;
        basis =
            "below the steady-state minimum ("
                + String.join("; ", shortfalls)
                + "), accepted with --allow-short-points";
      } else if (f.minimum() == null || f.planned() == null) {
        status = BenchmarkPlan.SteadyState.NOT_ENFORCED;
        notEnforced++;
        basis =
            "no request-time estimate: the measured requests of a time-bounded point cannot be"
                + " counted ahead; the minimum is "
                + (closed ? f.minimum() + " (8 x concurrency)" : "8 x rate x mean request latency");
      } else if (f.cap() != null && f.cap() < f.minimum()) {
        status = BenchmarkPlan.SteadyState.TIME_BOUNDED;
        basis =
            "the "
                + e.measurementLimitS()
                + " s measurement limit admits at most "
                + f.cap()
                + " measured requests, below the steady-state minimum "
                + f.minimum()
                + "; the limit wins";
        timeBounded.add(f.label() + " (at most " + f.cap() + " of " + f.minimum() + ")");
      } else {
        status = BenchmarkPlan.SteadyState.MEETS;
        basis =
            f.planned()
                + " measured requests >= the minimum "
                + f.minimum()
                + (closed
                    ? " (8 x concurrency), "
                        + f.warmup()
                        + " warmup requests >= "
                        + f.warmupMinimum()
                    : " (8 x rate x request latency)");
      }
      out.add(new BenchmarkPlan.SteadyState(status, f.minimum(), f.planned(), basis));
    }

    String minimumRule =
        closed
            ? "at least 8 x C measured and C warmup requests at every point"
            : "at least 8 x rate x mean request latency measured requests at every point";
    if (!shortBy.isEmpty()) {
      boolean allow = in.options().allowShortPoints();
      for (Map.Entry<String, List<String>> s : shortBy.entrySet()) {
        String field = s.getKey();
        String where =
            field.startsWith("--")
                ? field
                : field.equals("traffic.duration_s")
                    ? "user workload " + in.durationAt() + ": " + field + " " + e.durationS() + " s"
                    : "user workload "
                        + in.requestCountAt()
                        + ": "
                        + field
                        + " "
                        + e.requestCount();
        String fix =
            fix(field, Objects.requireNonNull(neededBy.get(field))); // merged with every shortfall
        String points = String.join(", ", s.getValue());
        if (allow) {
          log.warn(
              RULE,
              where
                  + " is below the steady-state minimum ("
                  + minimumRule
                  + ") at "
                  + points
                  + "; accepted with --allow-short-points: analysis marks these points not"
                  + " steady state");
        } else {
          log.block(
              BlockerCode.STEADY_STATE_SHORT,
              where
                  + " is below the steady-state minimum ("
                  + minimumRule
                  + ") at "
                  + points
                  + "; "
                  + fix
                  + ", or accept the short points"
                  + " explicitly with --allow-short-points (recorded in the plan; analysis marks them"
                  + " not steady state)");
        }
      }
      if (allow) {
        log.decide(
            RULE,
            "load_generator.points[*].steady_state = short_accepted at "
                + shortBy.values().stream().flatMap(List::stream).toList(),
            "--allow-short-points accepts points below the steady-state minimum; each is recorded"
                + " and marked not steady state by analysis");
      }
    }
    for (String t : timeBounded) {
      log.warn(
          RULE,
          "load point "
              + t
              + ": the "
              + e.measurementLimitS()
              + " s measurement limit"
              + " caps the measured requests below the steady-state minimum ("
              + (latency == null ? "" : latency + "); ")
              + "the limit wins: the point is time-bounded, not blocked, and"
              + " analysis marks it not steady state");
    }
    if (notEnforced > 0) {
      log.decide(
          RULE,
          "steady state: stated, not enforced at " + notEnforced + " point(s)",
          (closed
                  ? "a closed-loop point bounded only by traffic.duration_s needs 8 x C measured"
                  : "an open-loop point needs 8 x rate x mean request latency measured")
              + " requests; the deployment's smoke evidence ("
              + in.smoke().kind()
              + ") has no request time to estimate them from");
    } else if (shortBy.isEmpty()) {
      log.decide(
          RULE,
          "steady state at every load point: "
              + out.stream().map(BenchmarkPlan.SteadyState::status).distinct().toList(),
          minimumRule + (latency == null ? "" : "; request latency from the " + latency));
    }
    return out;
  }

  private static Figures closedLoop(
      BenchmarkPlan.Experiment e, int index, Optional<RunLengthEstimator.RequestTime> rt) {
    int c = Objects.requireNonNull(e.concurrency()).get(index);
    long minimum = (long) REQUESTS_PER_SLOT * c;
    Long cap = rt.map(t -> saturatingMultiply(c, waves(e.measurementLimitS(), t))).orElse(null);
    Long planned = e.requestCount();
    boolean byDuration = false;
    if (e.durationS() != null && rt.isPresent()) {
      long byTime = saturatingMultiply(c, waves(e.durationS(), rt.get()));
      if (planned == null || byTime < planned) {
        planned = byTime;
        byDuration = true;
      }
    }
    return new Figures("concurrency " + c, minimum, cap, planned, byDuration, c, e.warmupAt(index));
  }

  private static Figures openLoop(
      BenchmarkPlan.Experiment e, BigDecimal rate, Optional<RunLengthEstimator.RequestTime> rt) {
    String label = "request rate " + rate.toPlainString();
    Long planned = e.requestCount();
    boolean byDuration = false;
    if (e.durationS() != null) {
      long byTime = arrivals(rate, BigDecimal.valueOf(e.durationS()));
      if (planned == null || byTime < planned) {
        planned = byTime;
        byDuration = true;
      }
    }
    if (rt.isEmpty()) {
      return new Figures(label, null, null, planned, byDuration, null, 0);
    }
    long minimum =
        rate.multiply(BigDecimal.valueOf(REQUESTS_PER_SLOT))
            .multiply(rt.get().ms())
            .divide(THOUSAND, 0, RoundingMode.CEILING)
            .longValueExact();
    long cap = arrivals(rate, BigDecimal.valueOf(e.measurementLimitS()));
    return new Figures(label, minimum, cap, planned, byDuration, null, 0);
  }

  /** The seconds of traffic.duration_s that reach {@code requests} at the point. */
  private static long durationNeeded(
      BenchmarkPlan.Experiment e, Figures f, long requests, RunLengthEstimator.RequestTime rt) {
    if (MeasurementMode.closed_loop.name().equals(e.measurementMode())) {
      int c = Integer.parseInt(f.label().substring("concurrency ".length()));
      long waves = (requests + c - 1) / c;
      return rt.ms()
          .multiply(BigDecimal.valueOf(waves))
          .divide(THOUSAND, 0, RoundingMode.CEILING)
          .longValueExact();
    }
    BigDecimal rate = new BigDecimal(f.label().substring("request rate ".length()));
    return BigDecimal.valueOf(requests).divide(rate, 0, RoundingMode.CEILING).longValueExact();
  }

  private static String fix(String field, long needed) {
    return switch (field) {
      case "traffic.duration_s" -> "raise traffic.duration_s to at least " + needed + " s";
      case "traffic.request_count" -> "raise traffic.request_count to at least " + needed;
      default ->
          "raise --warmup-requests to at least "
              + needed
              + " (or leave it out: each"
              + " point then warms up with as many requests as its concurrency)";
    };
  }

  /** Whole request times that fit in {@code seconds} (a request takes at least {@code t}). */
  private static long waves(long seconds, RunLengthEstimator.RequestTime t) {
    if (t.ms().signum() <= 0) {
      return Long.MAX_VALUE / Integer.MAX_VALUE;
    }
    return BigDecimal.valueOf(seconds)
        .multiply(THOUSAND)
        .divide(t.ms(), 0, RoundingMode.FLOOR)
        .longValueExact();
  }

  private static long arrivals(BigDecimal rate, BigDecimal seconds) {
    return rate.multiply(seconds).setScale(0, RoundingMode.FLOOR).longValueExact();
  }

  private static long saturatingMultiply(long a, long b) {
    long r = a * b;
    return a != 0 && (r / a != b) ? Long.MAX_VALUE : r;
  }
}
