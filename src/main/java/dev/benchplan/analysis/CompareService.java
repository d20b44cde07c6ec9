package dev.benchplan.analysis;

import dev.benchplan.analysis.compare.Eligibility;
import dev.benchplan.analysis.compare.MetricSpec;
import dev.benchplan.analysis.compare.PairedRuns;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.report.EffectDoc;
import dev.benchplan.analysis.report.HtmlReport;
import dev.benchplan.analysis.report.Nodes;
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
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Sha256;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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
      ObjectNode comparison,
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

    ObjectNode c = Nodes.object();
    c.put("schema_version", RunDocuments.SCHEMA_VERSION);
    c.put("kind", "comparison");
    PlanInfo planned = RunEvidence.firstReadPlan(ref);
    ObjectNode plannedDoc = planned == null ? null : planned.plan();
    c.put(
        "question",
        plannedDoc == null ? null : plannedDoc.path("question").path("text").asString(null));
    c.set(
        "plan",
        planned == null ? Nodes.F.nullNode() : Nodes.file(planned.path(), planned.actualSha256()));
    ObjectNode e = c.putObject("eligibility");
    e.put("eligible", true);
    ObjectNode fields = e.putObject("fields");
    elig.fields().forEach(fields::put);
    c.set("reference", side(ref));
    c.set("candidate", side(cand));
    c.put("paired", paired);
    ObjectNode method = c.putObject("method");
    method.put(
        "interval",
        "Student t on the candidate-minus-reference difference of run means: Welch when both sides"
            + " have n >= 2, paired t for AB/BA pairs, the series noise floor (CV, its df) when a side has n = 1");
    Nodes.num(method, "confidence", 0.95);
    method.put(
        "mde",
        request.mdePct() != null
            ? "--mde " + request.mdePct() + "%"
            : "data: (t(0.975, df) + t(0.80, df)) x standard error / reference mean (80% power)");
    method.put(
        "verdict_rule",
        "no_change: the whole interval inside +-MDE; regressed/improved: the interval excludes 0"
            + " on that side and |effect| >= MDE; inconclusive otherwise (overlap is not no difference)");
    if (carried == null || floors.isEmpty()) {
      c.putNull("noise_floor");
    } else {
      ObjectNode nf = c.putObject("noise_floor");
      floors.values().forEach(f -> Nodes.num(nf, f.metric(), f.cv()));
      // where the floor was measured: the series itself or a pilot decided for it
      ObjectNode src = c.putObject("noise_floor_source");
      src.put("description", carried.describe());
      src.put("analysis_id", carried.analysisId());
      src.put("pilot_series_id", carried.pilotSeriesId());
      src.put("runs", carried.runs());
      src.put("exp_root", String.valueOf(request.expRoot()));
    }
    ArrayNode metrics = c.putArray("metrics");
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
        double[] rv = values(spec, r);
        double[] kv = values(spec, k);
        if (rv.length == 0 || kv.length == 0 || (paired && rv.length != kv.length)) {
          continue;
        }
        Effect eff =
            EffectEstimator.estimate(
                rv, kv, spec.direction(), paired, floors.get(spec.key()), request.mdePct());
        ObjectNode m = metrics.addObject();
        m.put("load_point", lp);
        m.put("metric", spec.key());
        m.put("unit", spec.unit());
        m.put("better", spec.direction().json());
        m.put("gated", spec.gated());
        ArrayNode ra = m.putArray("reference_values");
        for (double x : rv) {
          Nodes.add(ra, x);
        }
        ArrayNode ka = m.putArray("candidate_values");
        for (double x : kv) {
          Nodes.add(ka, x);
        }
        m.set("effect", effectJson(eff));
        m.put("verdict", eff.verdict().json());
        gatedRegressed |= spec.gated() && eff.verdict() == EffectVerdict.REGRESSED;
        anyRegressed |= eff.verdict() == EffectVerdict.REGRESSED;
        anyImproved |= eff.verdict() == EffectVerdict.IMPROVED;
        allNoChange &= eff.verdict() == EffectVerdict.NO_CHANGE;
        noSpread |= eff.method().equals("none");
        gatedInconclusive |= spec.gated() && eff.verdict() == EffectVerdict.INCONCLUSIVE;
      }
    }
    ObjectNode rd = c.putObject("repeat_decision");
    if (noSpread) {
      rd.put("decision", "necessary");
      rd.put(
          "rationale",
          SeriesAnalysis.PILOT_RATIONALE
              + ": a side has one run and the series has no noise floor,"
              + " so no interval can be drawn");
    } else if (gatedInconclusive) {
      rd.put("decision", "not_justified");
      rd.put(
          "rationale",
          "a gated metric is inconclusive inside the noise band: more unpaired runs would not resolve it;"
              + " decide with paired, interleaved AB/BA repeats in a new, justified plan if the decision is consequential");
    } else {
      rd.put("decision", "not_needed");
      rd.put("rationale", "every gated metric is decided (improved, regressed or no_change)");
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
    c.put("verdict", verdict);
    c.put("exit_code", exit);
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
              planned == null
                  ? null
                  : new RepeatDecisionDoc.FileDoc(planned.path(), planned.actualSha256()),
              rd.path("decision").asString(),
              rd.path("rationale").asString(),
              noSpread
                  ? new RepeatDecisionDoc.Pilot(
                      3, ref.get(0).loadPoint(), "unchanged: the reference")
                  : null,
              "comparison",
              Sha256.hex(bytes));
      files.put(
          out.resolve(AnalyzeService.REPEAT_DECISION),
          AnalyzeService.validated(Nodes.tree(rdDoc), "repeat-decision.schema.json"));
      AtomicFiles.writeAll(files);
    }
    return new Outcome(c, ref, cand, exit);
  }

  private static double @Nullable [] band(List<RunEvidence> ref, Map<String, NoiseFloor> floors) {
    double[] v = values(MetricSpec.STANDARD.get(0), ref);
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

  private static ArrayNode side(List<RunEvidence> runs) {
    ArrayNode a = Nodes.F.arrayNode();
    runs.forEach(r -> a.add(Nodes.tree(RunBlock.InputEntry.of(r))));
    return a;
  }

  static ObjectNode effectJson(Effect e) {
    return Nodes.tree(EffectDoc.of(e));
  }

  static double[] values(MetricSpec spec, List<RunEvidence> runs) {
    return runs.stream()
        .map(spec::value)
        .filter(Optional::isPresent)
        .mapToDouble(Optional::get)
        .toArray();
  }

  /** The ten-second table. */
  public static String text(Outcome o) {
    JsonNode c = o.comparison();
    StringBuilder sb = new StringBuilder();
    sb.append("compare: ")
        .append(c.path("verdict").asString().toUpperCase(Locale.ROOT))
        .append(" (exit ")
        .append(o.exitCode())
        .append(")  reference ")
        .append(o.reference().size())
        .append(" run(s), candidate ")
        .append(o.candidate().size())
        .append(" run(s)")
        .append(c.path("paired").asBoolean() ? ", paired AB/BA" : "")
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
    for (JsonNode m : c.path("metrics")) {
      JsonNode e = m.path("effect");
      String ci =
          e.path("ci_low_pct").isNumber()
              ? String.format(
                  Locale.ROOT,
                  "[%+.1f%%, %+.1f%%]",
                  e.path("ci_low_pct").asDouble(),
                  e.path("ci_high_pct").asDouble())
              : "n/a";
      sb.append(
          String.format(
              Locale.ROOT,
              fmt,
              m.path("load_point").asString(),
              m.path("metric").asString() + (m.path("gated").asBoolean() ? " *" : ""),
              m.path("better").asString(),
              num(e.path("reference_mean")),
              num(e.path("candidate_mean")),
              pct(e.path("delta_pct")),
              ci,
              e.path("mde_pct").isNumber()
                  ? String.format(Locale.ROOT, "%.1f%%", e.path("mde_pct").asDouble())
                  : "n/a",
              m.path("verdict").asString()));
    }
    if (c.path("noise_floor_source").isObject()) {
      sb.append("noise floor: ")
          .append(c.path("noise_floor_source").path("description").asString())
          .append('\n');
    }
    sb.append("repeat_decision: ")
        .append(c.path("repeat_decision").path("decision").asString())
        .append(" (")
        .append(c.path("repeat_decision").path("rationale").asString())
        .append(")\n");
    return sb.toString();
  }

  public static String summaryMd(JsonNode c) {
    StringBuilder sb = new StringBuilder();
    sb.append("**benchplan compare: ")
        .append(c.path("verdict").asString())
        .append("** (exit ")
        .append(c.path("exit_code").asInt())
        .append(")\n\n| load point | metric | reference | candidate | change | 95% CI |")
        .append(" MDE | verdict |\n|---|---|---|---|---|---|---|---|\n");
    for (JsonNode m : c.path("metrics")) {
      JsonNode e = m.path("effect");
      sb.append("| ")
          .append(m.path("load_point").asString())
          .append(" | ")
          .append(m.path("metric").asString())
          .append(m.path("gated").asBoolean() ? " (gated)" : "")
          .append(" | ")
          .append(num(e.path("reference_mean")))
          .append(" | ")
          .append(num(e.path("candidate_mean")))
          .append(" | ")
          .append(pct(e.path("delta_pct")))
          .append(" | ")
          .append(pct(e.path("ci_low_pct")))
          .append(" .. ")
          .append(pct(e.path("ci_high_pct")))
          .append(" | ")
          .append(
              e.path("mde_pct").isNumber()
                  ? String.format(Locale.ROOT, "%.1f%%", e.path("mde_pct").asDouble())
                  : "n/a")
          .append(" | ")
          .append(m.path("verdict").asString())
          .append(" |\n");
    }
    return sb.toString();
  }

  static String num(JsonNode n) {
    return n.isNumber() ? String.format(Locale.ROOT, "%.4g", n.asDouble()) : "n/a";
  }

  static String pct(JsonNode n) {
    return n.isNumber() ? String.format(Locale.ROOT, "%+.1f%%", n.asDouble()) : "n/a";
  }
}
