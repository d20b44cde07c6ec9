package dev.benchplan.analysis;

import dev.benchplan.analysis.compare.Eligibility;
import dev.benchplan.analysis.compare.MetricSpec;
import dev.benchplan.analysis.compare.PairedRuns;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.report.ComparisonDoc;
import dev.benchplan.analysis.report.EffectDoc;
import dev.benchplan.analysis.report.FileDoc;
import dev.benchplan.analysis.report.HtmlReport;
import dev.benchplan.analysis.report.Measured;
import dev.benchplan.analysis.report.Plots;
import dev.benchplan.analysis.report.RepeatDecisionDoc;
import dev.benchplan.analysis.report.RunBlock;
import dev.benchplan.analysis.report.RunDocuments;
import dev.benchplan.analysis.series.FindingsLog;
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
   */
  public record Request(
      List<Path> reference,
      List<Path> candidate,
      @Nullable Double mdePct,
      boolean paired,
      @Nullable Path expRoot,
      @Nullable Path reportDir,
      @Nullable Integer gpus) {
    public Request {
      reference = List.copyOf(reference);
      candidate = List.copyOf(candidate);
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
   * @param exitCode 0 no gated metric regressed, 1 one did
   */
  public record Outcome(
      ComparisonDoc comparison,
      List<RunEvidence> reference,
      List<RunEvidence> candidate,
      int exitCode) {}

  /** Runs the comparison; ineligible or bad input throws (exit 2) before anything is written. */
  public static Outcome compare(Request request) {
    List<RunEvidence> ref = AnalyzeService.load(request.reference(), request.gpus());
    List<RunEvidence> cand = AnalyzeService.load(request.candidate(), request.gpus());
    // the pairs in run.json (render --pair) decide the pairing; --paired alone pairs in argument
    // order
    Set<Path> refDirs = new HashSet<>();
    ref.forEach(r -> refDirs.add(r.source().dir().toAbsolutePath().normalize()));
    for (RunEvidence c : cand) {
      if (refDirs.contains(c.source().dir().toAbsolutePath().normalize())) {
        throw BenchplanException.invalid("compare: run " + c.source().dir() + " is on both sides");
      }
    }
    Eligibility.Result elig = Eligibility.check(ref, cand);
    if (!elig.eligible()) {
      throw BenchplanException.invalid(
          "compare: not eligible, no verdict: " + String.join("; ", elig.problems()));
    }
    boolean labelled = PairedRuns.labelled(ref, cand);
    if (labelled) {
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
    boolean paired = labelled || request.paired();
    FindingsLog.Carried carried =
        request.expRoot() == null
            ? null
            : FindingsLog.lastNoiseFloor(
                    FindingsLog.read(request.expRoot()), ref.get(0).seriesId(), request.expRoot())
                .orElse(null);
    Map<String, NoiseFloor> floors = carried == null ? Map.of() : carried.floors();

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
              carried.describe(),
              carried.analysisId(),
              carried.pilotSeriesId(),
              carried.runs(),
              String.valueOf(request.expRoot()));
    }
    List<ComparisonDoc.MetricRow> metrics = new ArrayList<>();
    boolean gatedRegressed = false;
    boolean anyRegressed = false;
    boolean anyImproved = false;
    boolean allNoChange = true;
    boolean noSpread = false;
    boolean gatedInconclusive = false;
    for (String lp : new TreeSet<>(ref.stream().map(RunEvidence::loadPoint).toList())) {
      List<RunEvidence> r = ref.stream().filter(x -> x.loadPoint().equals(lp)).toList();
      List<RunEvidence> k = cand.stream().filter(x -> x.loadPoint().equals(lp)).toList();
      for (MetricSpec spec : MetricSpec.STANDARD) {
        double[] rv = spec.values(r);
        double[] kv = spec.values(k);
        if (rv.length == 0 || kv.length == 0 || (paired && rv.length != kv.length)) {
          continue;
        }
        Effect eff =
            EffectEstimator.estimate(
                rv, kv, spec.direction(), paired, floors.get(spec.key()), request.mdePct());
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
                eff.verdict().json()));
        gatedRegressed |= spec.gated() && eff.verdict() == EffectVerdict.REGRESSED;
        anyRegressed |= eff.verdict() == EffectVerdict.REGRESSED;
        anyImproved |= eff.verdict() == EffectVerdict.IMPROVED;
        allNoChange &= eff.verdict() == EffectVerdict.NO_CHANGE;
        // a gated metric without any spread decides the pilot; a non-gated one whose repeats are
        // identical (records copied between runs) is inconclusive on its own row only
        noSpread |= spec.gated() && eff.method().equals("none");
        gatedInconclusive |= spec.gated() && eff.verdict() == EffectVerdict.INCONCLUSIVE;
      }
    }
    ComparisonDoc.RepeatDecision rd;
    if (noSpread) {
      rd =
          new ComparisonDoc.RepeatDecision(
              "necessary",
              SeriesAnalysis.PILOT_RATIONALE
                  + ": a side has one run, or identical runs (zero spread), and the series"
                  + " has no noise floor, so no interval can be drawn");
    } else if (gatedInconclusive) {
      rd =
          new ComparisonDoc.RepeatDecision(
              "not_justified",
              "a gated metric is inconclusive inside the noise band: more unpaired runs would not"
                  + " resolve it; decide with paired, interleaved AB/BA repeats in a new, justified"
                  + " plan if the decision is consequential");
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
    int exit = gatedRegressed ? 1 : 0;
    ComparisonDoc c =
        new ComparisonDoc(
            RunDocuments.SCHEMA_VERSION,
            "comparison",
            planned == null ? null : planned.question(),
            planned == null ? null : new FileDoc(planned.path(), planned.actualSha256()),
            new ComparisonDoc.Eligibility(true, new LinkedHashMap<>(elig.fields())),
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
            rd,
            verdict,
            exit);
    byte[] bytes = AnalyzeService.validated(c, "comparison.schema.json");
    if (request.reportDir() != null) {
      Path out = request.reportDir();
      Map<Path, byte[]> files = new LinkedHashMap<>();
      files.put(out.resolve(COMPARISON), bytes);
      double[] band = band(ref, floors);
      Map<String, String> svgs =
          Plots.forComparison(
              new Plots.Group("reference", ref), new Plots.Group("candidate", cand), band);
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
                      3, ref.get(0).loadPoint(), "unchanged: the reference")
                  : null,
              "comparison",
              Sha256.hex(bytes));
      files.put(
          out.resolve(AnalyzeService.REPEAT_DECISION),
          AnalyzeService.validated(rdDoc, "repeat-decision.schema.json"));
      AtomicFiles.writeAll(files);
    }
    return new Outcome(c, ref, cand, exit);
  }

  private static double @Nullable [] band(List<RunEvidence> ref, Map<String, NoiseFloor> floors) {
    double[] v = MetricSpec.STANDARD.get(0).values(ref);
    if (v.length == 0) {
      return null;
    }
    double mean = 0;
    for (double x : v) {
      mean += x;
    }
    mean /= v.length;
    double sd;
    NoiseFloor nf = floors.get(MetricSpec.STANDARD.get(0).key());
    if (v.length >= 2) {
      double ss = 0;
      for (double x : v) {
        ss += (x - mean) * (x - mean);
      }
      sd = Math.sqrt(ss / (v.length - 1));
    } else if (nf != null) {
      sd = nf.cv() * mean;
    } else {
      return null;
    }
    return new double[] {mean - 2 * sd, mean + 2 * sd};
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
              m.verdict()));
    }
    if (c.noiseFloorSource() != null) {
      sb.append("noise floor: ").append(c.noiseFloorSource().description()).append('\n');
    }
    sb.append("repeat_decision: ")
        .append(c.repeatDecision().decision())
        .append(" (")
        .append(c.repeatDecision().rationale())
        .append(")\n");
    return sb.toString();
  }

  /** summary.md of a comparison: the verdict table sized for a PR comment. */
  public static String summaryMd(ComparisonDoc c) {
    StringBuilder sb = new StringBuilder();
    sb.append("**benchplan compare: ")
        .append(c.verdict())
        .append("** (exit ")
        .append(c.exitCode())
        .append(")\n\n| load point | metric | reference | candidate | change | 95% CI |")
        .append(" MDE | verdict |\n|---|---|---|---|---|---|---|---|\n");
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
          .append(" |\n");
    }
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
}
