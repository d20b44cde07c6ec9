package dev.benchplan.analysis;

import dev.benchplan.analysis.compare.Caveats;
import dev.benchplan.analysis.compare.Eligibility;
import dev.benchplan.analysis.compare.ErrorRows;
import dev.benchplan.analysis.compare.LoadPointOrder;
import dev.benchplan.analysis.compare.MetricSpec;
import dev.benchplan.analysis.compare.PairedRuns;
import dev.benchplan.analysis.compare.UnresolvedPoints;
import dev.benchplan.analysis.evidence.CandidateLabel;
import dev.benchplan.analysis.evidence.Candidates;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.report.ComparisonDoc;
import dev.benchplan.analysis.report.EffectDoc;
import dev.benchplan.analysis.report.ErrorRowCells;
import dev.benchplan.analysis.report.FileDoc;
import dev.benchplan.analysis.report.HtmlReport;
import dev.benchplan.analysis.report.Measured;
import dev.benchplan.analysis.report.Plots;
import dev.benchplan.analysis.report.RepeatDecisionDoc;
import dev.benchplan.analysis.report.RunBlock;
import dev.benchplan.analysis.report.RunDocuments;
import dev.benchplan.analysis.series.FindingLine;
import dev.benchplan.analysis.series.FindingsLog;
import dev.benchplan.analysis.series.NoiseFloors;
import dev.benchplan.analysis.series.SeriesAnalysis;
import dev.benchplan.analysis.stats.Effect;
import dev.benchplan.analysis.stats.EffectEstimator;
import dev.benchplan.analysis.stats.EffectVerdict;
import dev.benchplan.analysis.stats.NoiseFloor;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Sha256;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * {@code benchplan compare}: eligibility first (exit 2 naming every differing field), then per load
 * point and metric the candidate-minus-reference effect with its interval, the MDE and a verdict;
 * exit 1 when a gated metric regressed.
 */
public final class CompareService {
  public static final String COMPARISON = "comparison.json";

  private CompareService() {}

  /**
   * One compare request.
   *
   * @param reference reference RUN arguments
   * @param candidate candidate RUN arguments
   * @param mdePct a stated MDE in percent, or null (then the data's, at 80% power)
   * @param paired reference[i] and candidate[i] are AB/BA pairs
   * @param expRoot where the series noise floor is looked up (findings log), or null
   * @param reportDir where comparison.json, report.html, summary.md and plots go, or null
   * @param gpus GPU count for runs that record none, or null
   * @param failOnInconclusive exit 1 when a gated metric is inconclusive ({@code --fail-on
   *     inconclusive}), not only when one regressed
   * @param labels {@code --label NAME=DIR}: the candidate of the runs under DIR
   * @param noiseFloor {@code --noise-floor ID|FILE}: a floor named from outside the runs, or null
   */
  public record Request(
      List<Path> reference,
      List<Path> candidate,
      @Nullable Double mdePct,
      boolean paired,
      @Nullable Path expRoot,
      @Nullable Path reportDir,
      @Nullable Integer gpus,
      boolean failOnInconclusive,
      List<CandidateLabel> labels,
      @Nullable String noiseFloor) {
    /** A request without labels or a named noise floor. */
    public Request(
        List<Path> reference,
        List<Path> candidate,
        @Nullable Double mdePct,
        boolean paired,
        @Nullable Path expRoot,
        @Nullable Path reportDir,
        @Nullable Integer gpus,
        boolean failOnInconclusive) {
      this(
          reference,
          candidate,
          mdePct,
          paired,
          expRoot,
          reportDir,
          gpus,
          failOnInconclusive,
          List.of(),
          null);
    }

    /** A request that fails on a regression only. */
    public Request(
        List<Path> reference,
        List<Path> candidate,
        @Nullable Double mdePct,
        boolean paired,
        @Nullable Path expRoot,
        @Nullable Path reportDir,
        @Nullable Integer gpus) {
      this(reference, candidate, mdePct, paired, expRoot, reportDir, gpus, false);
    }

    public Request {
      reference = List.copyOf(reference);
      candidate = List.copyOf(candidate);
      labels = List.copyOf(labels);
      if (reference.isEmpty() || candidate.isEmpty()) {
        throw BenchplanException.invalid("compare: give --reference RUN... and --candidate RUN...");
      }
      if (mdePct != null && !(mdePct > 0 && mdePct < 100)) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--mde"),
            "--mde " + mdePct + ": expected a percentage between 0 and 100 (exclusive)");
      }
    }
  }

  /**
   * The result.
   *
   * @param comparison comparison.json
   * @param reference the reference runs
   * @param candidate the candidate runs
   * @param exitCode 0 no gated metric regressed, 1 one did (or, with {@code --fail-on
   *     inconclusive}, one was inconclusive)
   */
  public record Outcome(
      ComparisonDoc comparison,
      List<RunEvidence> reference,
      List<RunEvidence> candidate,
      int exitCode) {}

  /** Runs the comparison; ineligible or bad input throws (exit 2) before anything is written. */
  public static Outcome compare(Request request) {
    List<RunEvidence> refLoaded =
        AnalyzeService.loadAssigned(request.reference(), request.gpus(), request.labels());
    List<RunEvidence> candLoaded =
        AnalyzeService.loadAssigned(request.candidate(), request.gpus(), request.labels());
    List<RunEvidence> both = new ArrayList<>(refLoaded);
    both.addAll(candLoaded);
    Candidates.checkLabels(request.labels(), both);
    // copied or replayed runs, on either side, are flagged in the audit and on the verdict rows
    both = AnalyzeService.withProvenance(both);
    refLoaded = both.subList(0, refLoaded.size());
    candLoaded = both.subList(refLoaded.size(), both.size());
    // each side is one candidate: run.json's or --label's, else the side names it; never two
    List<RunEvidence> refAll = Candidates.side("reference", refLoaded);
    List<RunEvidence> candAll = Candidates.side("candidate", candLoaded);
    // the pairs in run.json (render --pair) decide the pairing; --paired alone pairs in argument
    // order
    Set<Path> refDirs = new HashSet<>();
    refAll.forEach(r -> refDirs.add(r.source().dir().toAbsolutePath().normalize()));
    for (RunEvidence c : candAll) {
      if (refDirs.contains(c.source().dir().toAbsolutePath().normalize())) {
        throw BenchplanException.invalid("compare: run " + c.source().dir() + " is on both sides");
      }
    }
    Eligibility.Result elig = Eligibility.check(refAll, candAll);
    if (!elig.eligible()) {
      throw BenchplanException.invalid(
          "compare: not eligible, no verdict: " + String.join("; ", elig.problems()));
    }
    // invalid runs (the audit's blockers, an error rate over the limit) are listed, not compared
    List<ComparisonDoc.Excluded> excluded = new ArrayList<>();
    excluded(excluded, "reference", refAll);
    excluded(excluded, "candidate", candAll);
    List<RunEvidence> ref = refAll.stream().filter(RunEvidence::valid).toList();
    List<RunEvidence> cand = candAll.stream().filter(RunEvidence::valid).toList();
    boolean pairLabelled = PairedRuns.labelled(ref, cand);
    if (pairLabelled) {
      PairedRuns.Aligned aligned = PairedRuns.align(ref, cand);
      ref = aligned.reference();
      cand = aligned.candidate();
    } else if (request.paired() && ref.size() != cand.size()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--paired"),
          "--paired: "
              + ref.size()
              + " reference and "
              + cand.size()
              + " candidate runs; AB/BA pairs need the same number on both sides, in pair order");
    }
    boolean paired = pairLabelled || request.paired();
    // a floor only from the runs given, --noise-floor, or the pilot the series' decision chain
    // names by SHA-256: never whatever the experiment root holds (issue 31)
    List<FindingLine> history =
        request.expRoot() == null ? List.of() : FindingsLog.read(request.expRoot());
    NoiseFloors.Named carried =
        request.noiseFloor() != null
            ? NoiseFloors.explicit(
                request.noiseFloor(),
                history,
                request.expRoot() == null
                    ? Path.of("(no --exp-root)")
                    : FindingsLog.path(request.expRoot()))
            : NoiseFloors.pilot(history, ref.get(0).seriesId(), request.expRoot()).orElse(null);
    Map<String, NoiseFloor> floors = Map.of();
    if (carried != null) {
      for (String lp : loadPoints(ref)) {
        if (!carried.at(lp).isEmpty()) {
          floors = carried.at(lp);
          break;
        }
      }
    }

    PlanInfo planned = RunEvidence.firstReadPlan(ref);
    Map<String, @Nullable BigDecimal> noiseFloor = null;
    ComparisonDoc.NoiseFloorSource noiseFloorSource = null;
    if (carried != null && !floors.isEmpty()) {
      noiseFloor = new LinkedHashMap<>();
      for (NoiseFloor f : floors.values()) {
        noiseFloor.put(f.metric(), Measured.of(f.cv()));
      }
      // where the floor was measured: the series itself or a pilot decided for it
      noiseFloorSource =
          new ComparisonDoc.NoiseFloorSource(
              carried.description(),
              carried.analysisId(),
              carried.pilotSeriesId(),
              floors.values().stream().mapToInt(NoiseFloor::runs).max().orElse(0),
              String.valueOf(request.expRoot()));
    }
    List<ComparisonDoc.MetricRow> metrics = new ArrayList<>();
    List<ComparisonDoc.ErrorRow> errorRows = new ArrayList<>();
    for (String lp : loadPoints(refAll)) {
      errorRows.add(
          new ComparisonDoc.ErrorRow(
              lp,
              ComparisonDoc.ErrorSide.of(
                  ErrorRows.side(refAll.stream().filter(x -> x.loadPoint().equals(lp)).toList())),
              ComparisonDoc.ErrorSide.of(
                  ErrorRows.side(
                      candAll.stream().filter(x -> x.loadPoint().equals(lp)).toList()))));
    }
    List<String> gatedUndecided = new ArrayList<>();
    boolean gatedRegressed = false;
    boolean anyRegressed = false;
    boolean anyImproved = false;
    boolean allNoChange = true;
    boolean noSpread = false;
    boolean gatedInconclusive = false;
    // gated metrics inconclusive only because the percentile is not estimable on these runs
    List<String> notEstimableGated = new ArrayList<>();
    // the load points whose gated change no interval could be drawn for (the pilot goes to the
    // largest first), and those whose interval lies inside the noise band
    UnresolvedPoints unresolved = new UnresolvedPoints();
    UnresolvedPoints inBand = new UnresolvedPoints();
    for (String lp : loadPoints(ref)) {
      List<RunEvidence> r = ref.stream().filter(x -> x.loadPoint().equals(lp)).toList();
      List<RunEvidence> k = cand.stream().filter(x -> x.loadPoint().equals(lp)).toList();
      List<String> pointCaveats = Caveats.loadPoint(lp, r, k);
      for (MetricSpec spec : MetricSpec.STANDARD) {
        double[] rv = spec.values(r);
        double[] kv = spec.values(k);
        if (rv.length == 0 || kv.length == 0 || (paired && rv.length != kv.length)) {
          continue;
        }
        // the floor of this load point only: the other side's own repetitions here when one side
        // has one run, else the named floor measured at this load point
        NoiseFloor floor = null;
        if (!paired && Math.min(rv.length, kv.length) == 1 && Math.max(rv.length, kv.length) >= 2) {
          floor = NoiseFloor.of(spec.key(), rv.length >= 2 ? rv : kv);
        } else if (carried != null) {
          floor = carried.at(lp).get(spec.key());
        }
        Effect eff =
            EffectEstimator.estimate(rv, kv, spec.direction(), paired, floor, request.mdePct());
        List<String> caveats = new ArrayList<>();
        String notEstimable = Caveats.notEstimable(spec, r, k);
        EffectVerdict v = eff.verdict();
        if (notEstimable != null) {
          // the project's estimability rule: below it a percentile is never decided
          caveats.add(notEstimable);
          v = EffectVerdict.INCONCLUSIVE;
        }
        caveats.addAll(pointCaveats);
        metrics.add(
            new ComparisonDoc.MetricRow(
                lp,
                spec.key(),
                spec.unit(),
                spec.direction().json(),
                spec.gated(),
                Measured.all(rv),
                Measured.all(kv),
                EffectDoc.of(eff),
                v.json(),
                List.copyOf(caveats)));
        gatedRegressed |= spec.gated() && v == EffectVerdict.REGRESSED;
        anyRegressed |= v == EffectVerdict.REGRESSED;
        anyImproved |= v == EffectVerdict.IMPROVED;
        allNoChange &= v == EffectVerdict.NO_CHANGE;
        // a gated metric without any spread decides the pilot; a non-gated one whose repeats are
        // identical (records copied between runs) is inconclusive on its own row only
        noSpread |= spec.gated() && eff.method().equals("none") && notEstimable == null;
        if (spec.gated() && eff.method().equals("none") && notEstimable == null) {
          unresolved.add(lp, eff.deltaPct());
        } else if (spec.gated() && v == EffectVerdict.INCONCLUSIVE && notEstimable == null) {
          inBand.add(lp, eff.deltaPct());
        }
        if (spec.gated() && notEstimable != null) {
          notEstimableGated.add(lp + " " + spec.key());
        }
        gatedInconclusive |= spec.gated() && v == EffectVerdict.INCONCLUSIVE;
        if (spec.gated() && v == EffectVerdict.INCONCLUSIVE) {
          gatedUndecided.add(
              lp + " " + spec.key() + (notEstimable != null ? " (not estimable)" : ""));
        }
      }
    }
    ComparisonDoc.RepeatDecision rd;
    if (noSpread) {
      rd =
          new ComparisonDoc.RepeatDecision(
              "necessary",
              SeriesAnalysis.PILOT_RATIONALE
                  + ": a side has one run, or identical runs (zero spread), and the series"
                  + " has no noise floor, so no interval can be drawn at "
                  + unresolved.describe()
                  + " (the largest unresolved change first: the pilot runs "
                  + unresolved.first()
                  + ")");
    } else if (gatedInconclusive && notEstimableGated.size() == gatedUndecided.size()) {
      rd =
          new ComparisonDoc.RepeatDecision(
              "not_justified",
              "gated percentile(s) not estimable on runs of this size ("
                  + String.join(", ", notEstimableGated)
                  + "): more runs of the same size cannot decide them; a new plan with enough"
                  + " measured requests per run (p99: 1,000) can");
    } else if (gatedInconclusive) {
      rd =
          new ComparisonDoc.RepeatDecision(
              "not_justified",
              "a gated metric is inconclusive inside the noise band at "
                  + inBand.describe()
                  + " (the largest change first): more unpaired runs would not resolve it; decide"
                  + " with paired, interleaved AB/BA repeats in a new, justified plan if the"
                  + " decision is consequential");
    } else {
      rd =
          new ComparisonDoc.RepeatDecision(
              "not_needed", "every gated metric is decided (improved, regressed or no_change)");
    }
    String verdict =
        gatedRegressed
            ? "regressed"
            : anyRegressed && anyImproved
                ? "mixed"
                : anyRegressed
                    ? "mixed"
                    : anyImproved
                        ? "improved"
                        : allNoChange && !metrics.isEmpty() ? "no_change" : "inconclusive";
    int exit = gatedRegressed || (request.failOnInconclusive() && gatedInconclusive) ? 1 : 0;
    String exitReason =
        gatedRegressed
            ? "a gated metric regressed"
            : gatedInconclusive && request.failOnInconclusive()
                ? "--fail-on inconclusive: gated metric(s) inconclusive: "
                    + String.join(", ", gatedUndecided)
                : gatedInconclusive
                    ? "no gated metric regressed, but "
                        + (gatedUndecided.size()
                                == metrics.stream().filter(ComparisonDoc.MetricRow::gated).count()
                            ? "nothing could be decided: every gated metric is inconclusive ("
                            : "not every gated metric was decided: inconclusive (")
                        + String.join(", ", gatedUndecided)
                        + "); --fail-on inconclusive makes this exit 1"
                    : "no gated metric regressed";
    ComparisonDoc c =
        new ComparisonDoc(
            RunDocuments.SCHEMA_VERSION,
            "comparison",
            planned == null ? null : planned.question(),
            planned == null ? null : new FileDoc(planned.path(), planned.actualSha256()),
            new ComparisonDoc.Eligibility(
                true, new LinkedHashMap<>(elig.fields()), elig.warnings()),
            side(ref),
            side(cand),
            paired,
            new ComparisonDoc.Method(
                "Student t on the candidate-minus-reference difference of run means: Welch when"
                    + " both sides have n >= 2, paired t for AB/BA pairs, the series noise floor"
                    + " (CV, its df) when a side has n = 1 or the runs' spread is zero (identical"
                    + " repeats)",
                Measured.of(0.95),
                request.mdePct() != null
                    ? "--mde " + request.mdePct() + "%"
                    : "data: (t(0.975, df) + t(0.80, df)) x standard error / reference mean (80%"
                        + " power)",
                "no_change: the whole interval inside +-MDE; regressed/improved: the interval"
                    + " excludes 0 on that side and |effect| >= MDE; inconclusive otherwise"
                    + " (overlap is not no difference)"),
            noiseFloor,
            noiseFloorSource,
            List.copyOf(metrics),
            List.copyOf(errorRows),
            List.copyOf(excluded),
            rd,
            verdict,
            request.failOnInconclusive() ? "inconclusive" : "regressed",
            exit,
            exitReason);
    byte[] bytes = AnalyzeService.validated(c, "comparison.schema.json");
    if (request.reportDir() != null) {
      Path out = request.reportDir();
      Map<Path, byte[]> files = new LinkedHashMap<>();
      files.put(out.resolve(COMPARISON), bytes);
      Map<String, String> svgs =
          Plots.forComparison(
              new Plots.Group("reference", ref),
              new Plots.Group("candidate", cand),
              noiseCv(floors));
      svgs.forEach(
          (n, svg) ->
              files.put(out.resolve("plots").resolve(n), svg.getBytes(StandardCharsets.UTF_8)));
      files.put(
          out.resolve("report.html"),
          HtmlReport.comparison(c, svgs).getBytes(StandardCharsets.UTF_8));
      files.put(out.resolve("summary.md"), summaryMd(c).getBytes(StandardCharsets.UTF_8));
      RepeatDecisionDoc rdDoc =
          RepeatDecisionDoc.of(
              ref.get(0).seriesId(),
              planned == null ? null : new FileDoc(planned.path(), planned.actualSha256()),
              rd.decision(),
              rd.rationale(),
              noSpread
                  ? new RepeatDecisionDoc.Pilot(
                      3,
                      Objects.requireNonNullElse(unresolved.first(), ref.get(0).loadPoint()),
                      "unchanged: the reference")
                  : null,
              "comparison",
              Sha256.hex(bytes),
              ref.get(0).identity());
      files.put(
          out.resolve(AnalyzeService.REPEAT_DECISION),
          AnalyzeService.validated(rdDoc, "repeat-decision.schema.json"));
      AtomicFiles.writeAll(files);
    }
    return new Outcome(c, ref, cand, exit);
  }

  /** The noise floor's CV of output throughput (the band of a one-run reference point), or NaN. */
  private static double noiseCv(Map<String, NoiseFloor> floors) {
    NoiseFloor nf = floors.get(MetricSpec.STANDARD.get(0).key());
    return nf == null ? Double.NaN : nf.cv();
  }

  private static void excluded(
      List<ComparisonDoc.Excluded> out, String side, List<RunEvidence> runs) {
    for (RunEvidence r : runs) {
      if (!r.valid()) {
        out.add(
            new ComparisonDoc.Excluded(
                side, r.source().label(), r.loadPoint(), r.audit().blockers()));
      }
    }
  }

  private static List<RunBlock.InputEntry> side(List<RunEvidence> runs) {
    return runs.stream().map(RunBlock.InputEntry::of).toList();
  }

  /** The ten-second table. */
  public static String text(Outcome o) {
    ComparisonDoc c = o.comparison();
    StringBuilder sb = new StringBuilder();
    sb.append("compare: ")
        .append(c.verdict().toUpperCase(Locale.ROOT))
        .append(" (exit ")
        .append(o.exitCode())
        .append(")  reference ")
        .append(o.reference().size())
        .append(" run(s), candidate ")
        .append(o.candidate().size())
        .append(" run(s)")
        .append(c.paired() ? ", paired AB/BA" : "")
        .append('\n');
    if (!c.reference().isEmpty() && !c.candidate().isEmpty()) {
      sb.append("candidates: reference side ")
          .append(sideName(c.reference().get(0).run().candidate().name(), "reference"))
          .append(", candidate side ")
          .append(sideName(c.candidate().get(0).run().candidate().name(), "candidate"))
          .append('\n');
    }
    String fmt = "%-16s %-40s %-7s %11s %11s %8s %-19s %7s %s%n";
    sb.append(
        String.format(
            Locale.ROOT,
            fmt,
            "load point",
            "metric (* gated)",
            "better",
            "reference",
            "candidate",
            "change",
            "95% CI",
            "MDE",
            "verdict"));
    for (ComparisonDoc.MetricRow m : c.metrics()) {
      EffectDoc e = m.effect();
      BigDecimal low = e.ciLowPct();
      String ci =
          low != null
              ? String.format(
                  Locale.ROOT, "[%+.1f%%, %+.1f%%]", low.doubleValue(), d(e.ciHighPct()))
              : "n/a";
      sb.append(
          String.format(
              Locale.ROOT,
              fmt,
              m.loadPoint(),
              m.metric() + (m.gated() ? " *" : ""),
              m.better(),
              num(e.referenceMean()),
              num(e.candidateMean()),
              pct(e.deltaPct()),
              ci,
              mde(e.mdePct(), "%.1f%%"),
              m.verdict() + (m.caveats().isEmpty() ? "" : " !")));
      for (String cv : m.caveats()) {
        if (cv.startsWith("not_estimable")) {
          sb.append("    ! ").append(cv).append('\n');
        }
      }
    }
    Set<String> pointCaveatLines = new java.util.LinkedHashSet<>();
    for (ComparisonDoc.MetricRow m : c.metrics()) {
      for (String cv : m.caveats()) {
        if (!cv.startsWith("not_estimable")) {
          pointCaveatLines.add("caveat at " + m.loadPoint() + ": " + cv);
        }
      }
    }
    for (ComparisonDoc.ErrorRow e : c.errors()) {
      ErrorRowCells x = ErrorRowCells.of(e);
      sb.append(
          String.format(
              Locale.ROOT,
              fmt,
              e.loadPoint(),
              x.metric(),
              "lower",
              x.reference(),
              x.candidate(),
              "",
              x.counts(),
              "",
              x.verdict()));
    }
    pointCaveatLines.forEach(line -> sb.append(line).append('\n'));
    for (String w : c.eligibility().warnings()) {
      sb.append("warning: ").append(w).append('\n');
    }
    for (ComparisonDoc.Excluded x : c.excluded()) {
      sb.append("excluded: ")
          .append(x.side())
          .append(" run ")
          .append(x.run())
          .append(" (")
          .append(x.loadPoint())
          .append("): invalid under the audit: ")
          .append(String.join("; ", x.reasons()))
          .append('\n');
    }
    if (c.noiseFloorSource() != null) {
      sb.append("noise floor: ").append(c.noiseFloorSource().description()).append('\n');
    }
    sb.append("repeat_decision: ")
        .append(c.repeatDecision().decision())
        .append(" (")
        .append(c.repeatDecision().rationale())
        .append(")\n");
    sb.append("exit ").append(c.exitCode()).append(": ").append(c.exitReason()).append('\n');
    return sb.toString();
  }

  /** A side's candidate for the text: its name, or that no run records one. */
  private static String sideName(String name, String side) {
    return name.equals(side) ? "unnamed (no run records a candidate; --label NAME=DIR)" : name;
  }

  /** summary.md of a comparison: the verdict table sized for a PR comment. */
  public static String summaryMd(ComparisonDoc c) {
    StringBuilder sb = new StringBuilder();
    sb.append("**benchplan compare: ")
        .append(c.verdict())
        .append("** (exit ")
        .append(c.exitCode())
        .append(")\n\n| load point | metric | reference | candidate | change | 95% CI |")
        .append(" MDE | verdict | caveats |\n|---|---|---|---|---|---|---|---|---|\n");
    for (ComparisonDoc.MetricRow m : c.metrics()) {
      EffectDoc e = m.effect();
      sb.append("| ")
          .append(m.loadPoint())
          .append(" | ")
          .append(m.metric())
          .append(m.gated() ? " (gated)" : "")
          .append(" | ")
          .append(num(e.referenceMean()))
          .append(" | ")
          .append(num(e.candidateMean()))
          .append(" | ")
          .append(pct(e.deltaPct()))
          .append(" | ")
          .append(pct(e.ciLowPct()))
          .append(" .. ")
          .append(pct(e.ciHighPct()))
          .append(" | ")
          .append(mde(e.mdePct(), "%.1f%%"))
          .append(" | ")
          .append(m.verdict())
          .append(" | ")
          .append(String.join("; ", m.caveats()).replace("|", "/"))
          .append(" |\n");
    }
    for (ComparisonDoc.ErrorRow e : c.errors()) {
      ErrorRowCells x = ErrorRowCells.of(e);
      sb.append("| ")
          .append(e.loadPoint())
          .append(" | ")
          .append(x.metric())
          .append(" | ")
          .append(x.reference())
          .append(" | ")
          .append(x.candidate())
          .append(" | | ")
          .append(x.counts())
          .append(" | | ")
          .append(x.verdict())
          .append(" | |\n");
    }
    for (ComparisonDoc.Excluded x : c.excluded()) {
      sb.append("\nExcluded (invalid under the audit): ")
          .append(x.side())
          .append(" run ")
          .append(x.run())
          .append(" (")
          .append(x.loadPoint())
          .append("): ")
          .append(String.join("; ", x.reasons()))
          .append('\n');
    }
    sb.append("\nExit ").append(c.exitCode()).append(": ").append(c.exitReason()).append('\n');
    return sb.toString();
  }

  private static String mde(@Nullable BigDecimal n, String format) {
    return n != null ? String.format(Locale.ROOT, format, n.doubleValue()) : "n/a";
  }

  private static double d(@Nullable BigDecimal n) {
    return n == null ? 0 : n.doubleValue();
  }

  static String num(@Nullable BigDecimal n) {
    return n != null ? String.format(Locale.ROOT, "%.4g", n.doubleValue()) : "n/a";
  }

  static String pct(@Nullable BigDecimal n) {
    return n != null ? String.format(Locale.ROOT, "%+.1f%%", n.doubleValue()) : "n/a";
  }

  /** The runs' load points in numeric order (1, 4, 16, 64), as every table and plot lists them. */
  private static Set<String> loadPoints(List<RunEvidence> runs) {
    TreeSet<String> points = new TreeSet<>(LoadPointOrder.NUMERIC);
    runs.forEach(r -> points.add(r.loadPoint()));
    return points;
  }
}
