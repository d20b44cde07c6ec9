package dev.benchplan.analysis.series;

import dev.benchplan.analysis.capacity.Capacity;
import dev.benchplan.analysis.capacity.CapacityDoc;
import dev.benchplan.analysis.compare.MetricSpec;
import dev.benchplan.analysis.compare.Pareto;
import dev.benchplan.analysis.compare.Slo;
import dev.benchplan.analysis.compare.UnresolvedPoints;
import dev.benchplan.analysis.evidence.Candidate;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.DoubleList;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.input.RecordScan;
import dev.benchplan.analysis.report.Measured;
import dev.benchplan.analysis.report.NoiseFloorDoc;
import dev.benchplan.analysis.report.RepeatDecisionDoc;
import dev.benchplan.analysis.report.SeriesDoc;
import dev.benchplan.analysis.stats.NoiseFloor;
import dev.benchplan.plan.BenchmarkPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The analysis of the valid runs of one series: per load point metrics, SLOs and goodput, the noise
 * floor (from a pilot in these runs, else carried forward from the series' findings), history and
 * comparisons, the Pareto frontiers of a grid, the repeat decision and the verdict.
 */
public final class SeriesAnalysis {
  /**
   * Below this change (percent) a single-run comparison without a noise floor is a small delta that
   * needs the pilot: AIPerf's own guidance puts run-to-run variance at +-15% for 50-100 requests.
   */
  public static final double SMALL_DELTA_PCT = 15.0;

  /** The decision rationale that pre-authorizes the series pilot. */
  public static final String PILOT_RATIONALE = "series noise-floor pilot (n=3 total)";

  private SeriesAnalysis() {}

  /**
   * The result for one series.
   *
   * @param doc the series block of performance_analysis.json
   * @param finding the line for performance_findings.jsonl (analysis_sha256 added by the caller)
   * @param verdict the series verdict
   * @param repeatDecision the repeat decision block
   * @param workload the runs' recorded workload identity (for a pilot of plain AIPerf runs)
   */
  public record Result(
      SeriesDoc doc,
      FindingLine finding,
      String verdict,
      SeriesDoc.RepeatDecision repeatDecision,
      Map<String, String> workload) {}

  /**
   * The plan's steady-state verdict of a load point (agent-docs/rules/benchmarking/
   * steady-state.md): {@code status}, {@code steady} (false for points accepted short or bounded by
   * the measurement limit: "not steady state") and the plan's basis; empty when no run's plan
   * records one.
   */
  static Optional<SeriesDoc.SteadyState> steadyState(String loadPoint, List<RunEvidence> runs) {
    for (RunEvidence r : runs) {
      BenchmarkPlan plan = r.plan() == null ? null : r.plan().plan();
      if (plan == null || plan.loadGenerator() == null) {
        continue;
      }
      for (BenchmarkPlan.PointSizing point : plan.loadGenerator().points()) {
        BenchmarkPlan.SteadyState ss = point.steadyState();
        if (ss != null && sameLoadPoint(point.loadPoint(), loadPoint)) {
          boolean notSteady = ss.notSteady();
          return Optional.of(
              new SeriesDoc.SteadyState(
                  ss.status(),
                  !notSteady,
                  notSteady ? "not steady state: " + ss.basis() : ss.basis()));
        }
      }
    }
    return Optional.empty();
  }

  /** {@code concurrency=16} equals {@code concurrency=16.0}; a replay has one point. */
  private static boolean sameLoadPoint(String planned, String analysed) {
    if (planned.equals(analysed)) {
      return true;
    }
    int a = planned.indexOf('=');
    int b = analysed.indexOf('=');
    if (a < 0 || b < 0 || !planned.substring(0, a).equals(analysed.substring(0, b))) {
      return false;
    }
    try {
      return new java.math.BigDecimal(planned.substring(a + 1))
              .compareTo(new java.math.BigDecimal(analysed.substring(b + 1)))
          == 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Analyses one series of one candidate, with no floor named from outside the runs. */
  public static Result analyze(
      String seriesId,
      List<RunEvidence> runs,
      List<Slo> flagSlos,
      List<FindingLine> history,
      String analysisId,
      @Nullable Path expRoot) {
    return analyze(
        seriesId,
        runs.isEmpty() ? Candidate.side("analyze") : runs.get(0).candidate(),
        runs,
        flagSlos,
        history,
        analysisId,
        expRoot,
        null);
  }

  /**
   * Analyses the runs of one series and one candidate (never pooled with another's).
   *
   * @param named a floor the user named ({@code --noise-floor}), or null
   */
  public static Result analyze(
      String seriesId,
      Candidate candidate,
      List<RunEvidence> runs,
      List<Slo> flagSlos,
      List<FindingLine> history,
      String analysisId,
      @Nullable Path expRoot,
      NoiseFloors.@Nullable Named named) {
    List<RunEvidence> valid = runs.stream().filter(RunEvidence::valid).toList();
    List<String> runLabels = valid.stream().map(r -> r.source().label()).toList();
    List<String> invalidRuns =
        runs.stream()
            .filter(r -> !r.valid())
            .map(r -> r.source().label() + ": " + String.join("; ", r.audit().blockers()))
            .toList();
    List<Slo> slos = new ArrayList<>(flagSlos);
    PlanInfo planned = RunEvidence.firstReadPlan(runs);
    BenchmarkPlan plannedDoc = planned == null ? null : planned.plan();
    if (plannedDoc != null) {
      slos.addAll(Slo.fromPlan(plannedDoc));
    }
    List<SeriesDoc.SloDef> sloDefs =
        slos.stream()
            .map(
                slo ->
                    new SeriesDoc.SloDef(
                        slo.metric(),
                        slo.stat(),
                        slo.operator(),
                        Measured.of(slo.threshold()),
                        slo.source()))
            .toList();

    Map<String, List<RunEvidence>> byPoint = new LinkedHashMap<>();
    valid.stream()
        .sorted(
            Comparator.comparingDouble((RunEvidence r) -> pointOrder(r.loadPoint()))
                .thenComparing(r -> r.source().label()))
        .forEach(r -> byPoint.computeIfAbsent(r.loadPoint(), k -> new ArrayList<>()).add(r));

    List<SeriesDoc.LoadPoint> points = new ArrayList<>();
    Map<String, Map<String, Double>> means = new LinkedHashMap<>();
    Map<String, Boolean> feasible = new LinkedHashMap<>();
    for (Map.Entry<String, List<RunEvidence>> e : byPoint.entrySet()) {
      Map<String, SeriesDoc.MetricMean> metrics = new LinkedHashMap<>();
      Map<String, Double> m = new LinkedHashMap<>();
      for (MetricSpec spec : MetricSpec.STANDARD) {
        double[] v = spec.values(e.getValue());
        if (v.length == 0) {
          continue;
        }
        double mean = mean(v);
        metrics.put(
            spec.key(),
            new SeriesDoc.MetricMean(
                spec.unit(), spec.direction().json(), Measured.of(mean), Measured.all(v)));
        m.put(spec.key(), mean);
      }
      means.put(e.getKey(), m);
      List<SeriesDoc.SloEvaluation> sloEval = new ArrayList<>();
      boolean allMet = !slos.isEmpty();
      for (Slo slo : slos) {
        String name = slo.key() + " " + slo.operator() + " " + slo.threshold();
        double[] v =
            e.getValue().stream()
                .map(r -> r.stat(slo.metric(), slo.stat()))
                .filter(Optional::isPresent)
                .mapToDouble(Optional::get)
                .toArray();
        if (v.length == 0) {
          sloEval.add(new SeriesDoc.SloEvaluation(name, null, "missing_evidence"));
          allMet = false;
          continue;
        }
        double obs = mean(v);
        boolean met = slo.met(obs);
        sloEval.add(new SeriesDoc.SloEvaluation(name, Measured.of(obs), met ? "pass" : "fail"));
        allMet &= met;
      }
      feasible.put(e.getKey(), allMet);
      points.add(
          new SeriesDoc.LoadPoint(
              e.getKey(),
              e.getValue().size(),
              metrics,
              List.copyOf(sloEval),
              slos.isEmpty() ? null : allMet,
              goodput(e.getValue(), slos),
              steadyState(e.getKey(), e.getValue()).orElse(null)));
    }

    // noise floor per load point (issue 31): this candidate's own repetitions there, else a floor
    // the user named (--noise-floor), else the pilot the series' decision chain names by SHA-256;
    // never whatever the experiment root holds, never another load point's or candidate's
    Map<String, Map<String, NoiseFloor>> floorsAt = new LinkedHashMap<>();
    Map<String, SeriesDoc.PointFloor> pointFloors = new LinkedHashMap<>();
    NoiseFloors.Named chain =
        named != null ? null : NoiseFloors.pilot(history, seriesId, expRoot).orElse(null);
    SeriesDoc.PilotSource floorFrom = null;
    FindingLine.PilotRef floorPilot = null;
    for (Map.Entry<String, List<RunEvidence>> e : byPoint.entrySet()) {
      Map<String, NoiseFloor> f = new LinkedHashMap<>();
      String source;
      if (e.getValue().size() >= 2) {
        for (MetricSpec spec : MetricSpec.STANDARD) {
          double[] v = spec.values(e.getValue());
          if (v.length >= 2) {
            f.put(spec.key(), NoiseFloor.of(spec.key(), v));
          }
        }
        source =
            "this analysis: "
                + e.getValue().size()
                + " runs of candidate "
                + candidate.name()
                + " at "
                + e.getKey();
      } else if (named != null && !named.at(e.getKey()).isEmpty()) {
        f.putAll(named.at(e.getKey()));
        source = named.description();
      } else if (chain != null && !chain.at(e.getKey()).isEmpty()) {
        f.putAll(chain.at(e.getKey()));
        source = chain.description();
        floorPilot =
            new FindingLine.PilotRef(
                java.util.Objects.requireNonNullElse(chain.pilotSeriesId(), ""),
                chain.analysisId(),
                e.getKey());
        floorFrom =
            new SeriesDoc.PilotSource(
                chain.pilotSeriesId(),
                chain.analysisId(),
                f.values().stream().mapToInt(NoiseFloor::runs).max().orElse(0),
                e.getKey());
      } else {
        continue;
      }
      floorsAt.put(e.getKey(), f);
      Map<String, NoiseFloorDoc> docs = new LinkedHashMap<>();
      f.forEach((k, nf) -> docs.put(k, NoiseFloorDoc.of(nf)));
      pointFloors.put(
          e.getKey(),
          new SeriesDoc.PointFloor(
              source, f.values().stream().mapToInt(NoiseFloor::runs).max().orElse(0), docs));
    }
    // the block's headline floor: the load point with the most runs behind it (as before)
    Map.Entry<String, SeriesDoc.PointFloor> headline =
        pointFloors.entrySet().stream()
            .max(Comparator.comparingInt(e -> e.getValue().runs()))
            .orElse(null);
    Map<String, NoiseFloor> floors =
        headline == null ? Map.of() : floorsAt.getOrDefault(headline.getKey(), Map.of());
    String floorSource =
        headline == null
            ? null
            : headline.getValue().source()
                + (pointFloors.size() > 1
                    ? " (and per load point: " + String.join(", ", pointFloors.keySet()) + ")"
                    : "");
    List<FindingLine> mine = history.stream().filter(h -> h.seriesId().equals(seriesId)).toList();
    Map<String, NoiseFloorDoc> floorDocs = new LinkedHashMap<>();
    for (NoiseFloor nf : floors.values()) {
      floorDocs.put(nf.metric(), NoiseFloorDoc.of(nf));
    }
    SeriesDoc.NoiseFloorBlock floor =
        new SeriesDoc.NoiseFloorBlock(
            floorSource,
            floorFrom,
            floorDocs,
            floors.isEmpty()
                ? "no noise floor: no load point has n >= 2 runs of this candidate, and none was"
                    + " named (--noise-floor ID|FILE, or a pilot decided for the series)"
                : "a floor applies only to the load point and candidate it was measured at; with n"
                    + " = 3 the CV interval is wide (about 0.52-6.3 x the sample CV): the MDE is"
                    + " uncertain by as much",
            pointFloors);

    // history
    List<FindingLine> validHistory = mine.stream().filter(h -> h.valid() > 0).toList();
    Map<String, SeriesDoc.BestPrior> best = new LinkedHashMap<>();
    for (MetricSpec spec : MetricSpec.STANDARD) {
      FindingLine bestLine = null;
      String bestPoint = null;
      double bestValue = Double.NaN;
      for (FindingLine h : validHistory) {
        for (Map.Entry<String, Map<String, @Nullable Number>> lp : h.loadPoints().entrySet()) {
          Number v = lp.getValue().get(spec.key());
          boolean ok = slos.isEmpty() || Boolean.TRUE.equals(h.sloFeasible().get(lp.getKey()));
          if (v == null || !ok) {
            continue;
          }
          double d = v.doubleValue();
          if (Double.isNaN(bestValue) || spec.direction().sign() * (d - bestValue) > 0) {
            bestValue = d;
            bestLine = h;
            bestPoint = lp.getKey();
          }
        }
      }
      if (bestLine != null && bestPoint != null) {
        best.put(
            spec.key(),
            new SeriesDoc.BestPrior(
                bestLine.analysisId(), bestPoint, Measured.of(bestValue), !slos.isEmpty()));
      }
    }
    SeriesDoc.History hist =
        new SeriesDoc.History(
            validHistory.stream().map(SeriesAnalysis::summaryOf).toList(),
            validHistory.isEmpty() ? null : summaryOf(validHistory.get(0)),
            validHistory.isEmpty() ? null : summaryOf(validHistory.get(validHistory.size() - 1)),
            best,
            validHistory.isEmpty()
                ? List.of(
                    "no earlier valid analysis of series "
                        + seriesId
                        + " under --exp-root: nothing to compare with")
                : List.of());

    // comparisons with the previous valid analysis and the baseline
    List<SeriesDoc.Comparison> comps = new ArrayList<>();
    boolean smallNoFloor = false;
    // the load points whose gated change no floor could judge (the pilot goes to the largest first)
    UnresolvedPoints unresolved = new UnresolvedPoints();
    boolean regressed = false;
    boolean improved = false;
    boolean withinNoise = false;
    if (!validHistory.isEmpty()) {
      Map<String, FindingLine> against = new LinkedHashMap<>();
      against.put("previous_valid", validHistory.get(validHistory.size() - 1));
      if (validHistory.size() > 1) {
        against.put("series_baseline", validHistory.get(0));
      }
      for (Map.Entry<String, FindingLine> a : against.entrySet()) {
        Map<String, Map<String, @Nullable Number>> lps = a.getValue().loadPoints();
        for (Map.Entry<String, Map<String, Double>> cur : means.entrySet()) {
          Map<String, @Nullable Number> prior = lps.get(cur.getKey());
          if (prior == null) {
            continue;
          }
          for (MetricSpec spec : MetricSpec.STANDARD) {
            Double now = cur.getValue().get(spec.key());
            Number beforeValue = prior.get(spec.key());
            if (now == null || beforeValue == null || beforeValue.doubleValue() == 0) {
              continue;
            }
            double before = beforeValue.doubleValue();
            double change = (now - before) / Math.abs(before) * 100;
            NoiseFloor nf = floorsAt.getOrDefault(cur.getKey(), Map.of()).get(spec.key());
            String assessment;
            double better = change * spec.direction().sign();
            if (nf != null && Double.isFinite(nf.mdePct1v1())) {
              if (Math.abs(change) >= nf.mdePct1v1()) {
                assessment = better > 0 ? "improved_beyond_noise" : "regressed_beyond_noise";
              } else {
                assessment = "within_noise";
              }
            } else if (Math.abs(change) >= SMALL_DELTA_PCT) {
              assessment =
                  better > 0 ? "improved_single_run_evidence" : "regressed_single_run_evidence";
            } else {
              assessment = "small_delta_no_noise_floor";
            }
            if (a.getKey().equals("previous_valid")) {
              smallNoFloor |= assessment.equals("small_delta_no_noise_floor") && spec.gated();
              regressed |= assessment.startsWith("regressed") && spec.gated();
              improved |= assessment.startsWith("improved") && spec.gated();
              withinNoise |= assessment.equals("within_noise") && spec.gated();
            }
            comps.add(
                new SeriesDoc.Comparison(
                    a.getKey(),
                    a.getValue().analysisId(),
                    cur.getKey(),
                    spec.key(),
                    spec.direction().json(),
                    spec.gated(),
                    Measured.of(before),
                    Measured.of(now),
                    Measured.of(change),
                    Measured.of(nf == null ? Double.NaN : nf.mdePct1v1()),
                    assessment,
                    a.getValue().candidateName(),
                    a.getValue().measuredAt(),
                    a.getValue().candidate() != null
                        && a.getValue().candidate().id().equals(candidate.id())));
            if (a.getKey().equals("previous_valid")
                && assessment.equals("small_delta_no_noise_floor")
                && spec.gated()) {
              unresolved.add(cur.getKey(), change);
            }
          }
        }
      }
    }

    // Pareto frontiers of a grid
    boolean grid = byPoint.size() >= 2;
    SeriesDoc.Frontiers frontiers = null;
    if (grid) {
      boolean perGpu =
          means.values().stream().allMatch(m -> m.containsKey("output_token_throughput_per_gpu"));
      String xKey = perGpu ? "output_token_throughput_per_gpu" : "output_token_throughput.avg";
      String bestSlo = null;
      double bestX = Double.NEGATIVE_INFINITY;
      for (Map.Entry<String, Map<String, Double>> e : means.entrySet()) {
        Double x = e.getValue().get(xKey);
        if (!slos.isEmpty()
            && Boolean.TRUE.equals(feasible.get(e.getKey()))
            && x != null
            && x > bestX) {
          bestX = x;
          bestSlo = e.getKey();
        }
      }
      frontiers =
          new SeriesDoc.Frontiers(
              xKey,
              frontier(means, xKey, "time_to_first_token.p99", false),
              frontier(means, xKey, "output_token_throughput_per_user.avg", true),
              bestSlo);
    }
    SeriesDoc.Pareto pareto = new SeriesDoc.Pareto(grid, frontiers);
    CapacityDoc capacity = capacity(byPoint, slos);

    // repeat decision and verdict
    String decision;
    String rationale;
    if (valid.isEmpty()) {
      decision = "necessary";
      rationale = "no valid run: the benchmark must be rerun before any claim";
    } else if (smallNoFloor) {
      decision = "necessary";
      rationale =
          PILOT_RATIONALE
              + ": a gated metric changed by less than "
              + SMALL_DELTA_PCT
              + "% against the previous valid run and the series has no noise floor to tell it from"
              + " noise, at "
              + unresolved.describe()
              + " (the largest unresolved change first: the pilot runs "
              + unresolved.first()
              + ")";
    } else if (withinNoise && !regressed && !improved) {
      decision = "not_justified";
      rationale =
          "the change is at or below the series noise floor: it is noise; another run would not resolve a"
              + " consequential decision and is not worth its GPU cost";
    } else {
      decision = "not_needed";
      rationale =
          validHistory.isEmpty()
              ? "a characterization: no decision rests on a small delta"
              : "the comparison is decided (beyond the noise floor, or a large single-run change)";
    }
    SeriesDoc.RepeatDecision rd =
        new SeriesDoc.RepeatDecision(
            seriesId,
            decision,
            rationale,
            decision.equals("necessary") && rationale.startsWith(PILOT_RATIONALE)
                ? new RepeatDecisionDoc.Pilot(
                    3,
                    unresolved.isEmpty()
                        ? byPoint.keySet().stream().findFirst().orElse(null)
                        : unresolved.first(),
                    "unchanged: the current candidate (" + candidate.name() + ")")
                : null);

    String verdict;
    if (valid.isEmpty() || decision.equals("necessary")) {
      verdict = "inconclusive";
    } else if (regressed && improved) {
      verdict = "mixed";
    } else if (regressed) {
      verdict = "regressed";
    } else if (improved) {
      verdict = "pareto_improving";
    } else if (!slos.isEmpty() && feasible.containsValue(true)) {
      verdict = "slo_feasible";
    } else {
      verdict = "characterized";
    }
    SeriesDoc s =
        new SeriesDoc(
            seriesId,
            seriesIdSource(runs),
            candidate,
            runLabels,
            invalidRuns,
            sloDefs,
            List.copyOf(points),
            floor,
            hist,
            List.copyOf(comps),
            pareto,
            capacity,
            rd,
            verdict,
            valid.size() == 1 ? "single-run evidence" : valid.size() + " valid runs");

    List<FindingLine.RunRef> runRefs =
        runs.stream()
            .map(
                r ->
                    new FindingLine.RunRef(
                        r.source().label(), r.summarySha256(), r.audit().status()))
            .toList();
    Map<String, Map<String, @Nullable Number>> linePoints = new LinkedHashMap<>();
    means.forEach(
        (lp, m) -> {
          Map<String, @Nullable Number> o = new LinkedHashMap<>();
          m.forEach((k, v) -> o.put(k, Measured.of(v)));
          linePoints.put(lp, o);
        });
    BenchmarkPlan.DecisionSource decisionSource =
        plannedDoc == null ? null : plannedDoc.runPolicy().decisionSource();
    FindingLine finding =
        new FindingLine(
            analysisId,
            seriesId,
            valid.size(),
            runs.size() - valid.size(),
            runRefs,
            linePoints,
            slos.isEmpty() ? Map.of() : new LinkedHashMap<>(feasible),
            floorDocs,
            floorPilot,
            verdict,
            decision,
            // a pilot series: the series it measures the noise floor for finds it by this
            decisionSource != null
                ? new FindingLine.DecisionSourceRef(
                    decisionSource.seriesId(), decisionSource.sha256(), decisionSource.loadPoint())
                : null,
            new FindingLine.CandidateRef(candidate.id(), candidate.name()),
            measuredAt(valid),
            pointFloors.isEmpty() ? null : perPointDocs(pointFloors),
            null,
            null);
    return new Result(s, finding, verdict, rd, runs.isEmpty() ? Map.of() : runs.get(0).identity());
  }

  /** The capacity answer of a grid: throughput, TTFT p99 and each SLO's metric per run. */
  private static @Nullable CapacityDoc capacity(
      Map<String, List<RunEvidence>> byPoint, List<Slo> slos) {
    List<Capacity.Slo> capSlos =
        slos.stream().map(s -> new Capacity.Slo(s.key(), s.operator(), s.threshold())).toList();
    List<Capacity.Point> pts = new ArrayList<>();
    byPoint.forEach(
        (lp, rs) -> {
          Map<String, double[]> values = new LinkedHashMap<>();
          for (String key : List.of(Capacity.THROUGHPUT, Capacity.LATENCY)) {
            values.put(key, statValues(rs, key));
          }
          for (Slo s : slos) {
            values.put(s.key(), statValues(rs, s.key()));
          }
          pts.add(new Capacity.Point(lp, values));
        });
    return Capacity.analyze(pts, capSlos).orElse(null);
  }

  /** {@code metric.stat} of each run that has it. */
  private static double[] statValues(List<RunEvidence> runs, String key) {
    int dot = key.lastIndexOf('.');
    return runs.stream()
        .map(r -> r.stat(key.substring(0, dot), key.substring(dot + 1)))
        .filter(Optional::isPresent)
        .mapToDouble(Optional::get)
        .toArray();
  }

  private static SeriesDoc.HistoryEntry summaryOf(FindingLine h) {
    return new SeriesDoc.HistoryEntry(
        h.analysisId(), h.candidateName(), h.measuredAt(), h.verdict(), h.loadPoints());
  }

  /** Where the series id came from; an id derived for plain AIPerf folders says so. */
  static String seriesIdSource(List<RunEvidence> runs) {
    RunEvidence first = runs.isEmpty() ? null : runs.get(0);
    if (first == null || first.source().runRecord() != null) {
      return "run.json /series_id";
    }
    if (first.plan() != null) {
      return "the plan's /series_id";
    }
    return "auto-derived: no plan; from the workload, tool, endpoint and model identity (every"
        + " build of one workload shares it: the candidate tells them apart)";
  }

  /** When the newest of the runs started (its records' first start), ISO-8601; or null. */
  static @Nullable String measuredAt(List<RunEvidence> runs) {
    Long newest = null;
    for (RunEvidence r : runs) {
      Long start = r.scan() == null ? null : r.scan().minStartNs();
      if (start != null && (newest == null || start > newest)) {
        newest = start;
      }
    }
    return newest == null
        ? null
        : java.time.Instant.ofEpochSecond(newest / 1_000_000_000L, newest % 1_000_000_000L)
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            .toString();
  }

  private static Map<String, Map<String, NoiseFloorDoc>> perPointDocs(
      Map<String, SeriesDoc.PointFloor> floors) {
    Map<String, Map<String, NoiseFloorDoc>> out = new LinkedHashMap<>();
    floors.forEach((lp, f) -> out.put(lp, f.metrics()));
    return out;
  }

  private static List<SeriesDoc.FrontierPoint> frontier(
      Map<String, Map<String, Double>> means, String xKey, String yKey, boolean yHigher) {
    List<Pareto.Point> pts = new ArrayList<>();
    means.forEach(
        (lp, m) ->
            pts.add(
                new Pareto.Point(
                    lp, m.getOrDefault(xKey, Double.NaN), m.getOrDefault(yKey, Double.NaN))));
    List<Boolean> on = Pareto.frontier(pts, true, yHigher);
    List<SeriesDoc.FrontierPoint> a = new ArrayList<>();
    for (int i = 0; i < pts.size(); i++) {
      a.add(
          new SeriesDoc.FrontierPoint(
              pts.get(i).label(),
              Measured.of(pts.get(i).x()),
              Measured.of(pts.get(i).y()),
              yKey,
              on.get(i)));
    }
    return List.copyOf(a);
  }

  private static SeriesDoc.Goodput goodput(List<RunEvidence> runs, List<Slo> slos) {
    List<Slo> perRequest =
        slos.stream()
            .filter(
                s ->
                    List.of("time_to_first_token", "inter_token_latency", "request_latency")
                            .contains(s.metric())
                        && s.operator().equals("<="))
            .toList();
    double aiperf =
        runs.stream()
            .map(r -> r.stat("goodput", "avg"))
            .filter(Optional::isPresent)
            .mapToDouble(Optional::get)
            .average()
            .orElse(Double.NaN);
    if (perRequest.isEmpty()) {
      return new SeriesDoc.Goodput(
          Measured.of(aiperf), "no per-request latency SLO: goodput not computed", null);
    }
    long good = 0;
    long total = 0;
    double seconds = 0;
    for (RunEvidence r : runs) {
      RecordScan scan = r.scan();
      if (scan == null) {
        continue;
      }
      Map<String, DoubleList> v = scan.values();
      // the scan keeps a value list for every tracked metric, the per-request SLO metrics among
      // them
      int n = Objects.requireNonNull(v.get("time_to_first_token"), "time_to_first_token").size();
      for (int i = 0; i < n; i++) {
        boolean ok = true;
        for (Slo s : perRequest) {
          double x = Objects.requireNonNull(v.get(s.metric()), s.metric()).get(i);
          ok &= Double.isFinite(x) && s.met(x);
        }
        good += ok ? 1 : 0;
      }
      total += n;
      Long minStart = scan.minStartNs();
      Long maxEnd = scan.maxEndNs();
      if (minStart != null && maxEnd != null) {
        seconds += (maxEnd - minStart) / 1e9;
      }
    }
    return new SeriesDoc.Goodput(
        Measured.of(aiperf),
        null,
        new SeriesDoc.Counted(
            good,
            total,
            Measured.of(total == 0 ? Double.NaN : good / (double) total),
            Measured.of(seconds <= 0 ? Double.NaN : good / seconds),
            "a request is good when it meets every per-request SLO ("
                + perRequest.stream()
                    .map(s -> s.metric() + " " + s.operator() + " " + s.threshold())
                    .toList()
                + "), over the records present"));
  }

  static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  static double pointOrder(String lp) {
    int eq = lp.indexOf('=');
    try {
      return eq < 0 ? Double.MAX_VALUE : Double.parseDouble(lp.substring(eq + 1));
    } catch (NumberFormatException e) {
      return Double.MAX_VALUE;
    }
  }

  /** Formats a percentage for text. */
  public static String pct(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%+.1f%%", v) : "n/a";
  }
}
