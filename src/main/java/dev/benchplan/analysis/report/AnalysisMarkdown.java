package dev.benchplan.analysis.report;

import dev.benchplan.analysis.capacity.CapacityDoc;
import dev.benchplan.analysis.compare.LoadPointOrder;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** performance_analysis.md and the PR-sized summary.md of an analysis. */
public final class AnalysisMarkdown {
  private AnalysisMarkdown() {}

  /**
   * performance_analysis.md: executive verdict, SLO table, metrics, comparisons, history,
   * limitations.
   */
  public static String render(AnalysisDoc a) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Performance analysis ").append(a.analysisId()).append("\n\n");
    sb.append("**Verdict: ").append(a.verdict()).append("**\n\n");
    sb.append("- question: ")
        .append(a.question() == null ? "none recorded (no plan)" : a.question())
        .append('\n');
    FileDoc plan = a.plan();
    sb.append("- plan: ")
        .append(
            plan == null
                ? "none (plain AIPerf directories)"
                : plan.path() + " (sha256 " + plan.sha256() + ")")
        .append("\n\n");
    sb.append("## Runs and audit\n\n| run | load point | audit |\n|---|---|---|\n");
    List<RunBlock.InputEntry> inputs = new java.util.ArrayList<>(a.inputs());
    inputs.sort(
        java.util.Comparator.comparing(
                (RunBlock.InputEntry in) -> in.run().loadPoint(), LoadPointOrder.NUMERIC)
            .thenComparing(in -> in.run().label()));
    for (RunBlock.InputEntry in : inputs) {
      sb.append("| ")
          .append(in.run().label())
          .append(" | ")
          .append(in.run().loadPoint())
          .append(" | ")
          .append(in.auditStatus())
          .append(" |\n");
    }
    for (SeriesDoc s : a.series()) {
      sb.append("\n## Series ")
          .append(s.seriesId())
          .append(", candidate ")
          .append(s.candidate().name())
          .append("\n\n");
      sb.append("Series id: ")
          .append(s.seriesIdSource())
          .append(". Candidate: ")
          .append(s.candidate().source())
          .append(".\n\n");
      sb.append("Verdict **")
          .append(s.verdict())
          .append("** (")
          .append(s.evidence())
          .append("); repeat decision **")
          .append(s.repeatDecision().decision())
          .append("**: ")
          .append(s.repeatDecision().rationale())
          .append("\n\n");
      for (String inv : s.invalidRuns()) {
        sb.append("- invalid, excluded: ").append(inv).append('\n');
      }
      sb.append("### Metrics (mean over runs per load point)\n\n");
      sb.append(
          "| load point | runs | out tok/s | out tok/s/GPU | TTFT p99 ms | ITL avg ms | tok/s/user | SLOs |\n");
      sb.append("|---|---|---|---|---|---|---|---|\n");
      for (SeriesDoc.LoadPoint lp : s.loadPoints()) {
        Map<String, SeriesDoc.MetricMean> m = lp.metrics();
        SeriesDoc.SteadyState ss = lp.steadyState();
        sb.append("| ")
            .append(lp.loadPoint())
            .append(ss == null || ss.steady() ? "" : " (not steady state: " + ss.status() + ")")
            .append(" | ")
            .append(lp.runs())
            .append(" | ")
            .append(v(m, "output_token_throughput.avg"))
            .append(" | ")
            .append(v(m, "output_token_throughput_per_gpu"))
            .append(" | ")
            .append(v(m, "time_to_first_token.p99"))
            .append(" | ")
            .append(v(m, "inter_token_latency.avg"))
            .append(" | ")
            .append(v(m, "output_token_throughput_per_user.avg"))
            .append(" | ")
            .append(slos(lp.sloFeasible()))
            .append(" |\n");
      }
      if (!s.slos().isEmpty()) {
        sb.append("\n### SLOs\n\n| load point | SLO | observed | status |\n|---|---|---|---|\n");
        for (SeriesDoc.LoadPoint lp : s.loadPoints()) {
          for (SeriesDoc.SloEvaluation e : lp.sloEvaluation()) {
            sb.append("| ")
                .append(lp.loadPoint())
                .append(" | ")
                .append(e.slo())
                .append(" | ")
                .append(num(e.observed()))
                .append(" | ")
                .append(e.status())
                .append(" |\n");
          }
        }
      }
      SeriesDoc.NoiseFloorBlock nf = s.noiseFloor();
      sb.append("\n### Noise floor\n\n");
      if (nf.metrics().isEmpty()) {
        sb.append(nf.note()).append('\n');
      } else {
        sb.append("Source: ").append(nf.source()).append(". ").append(nf.note()).append("\n\n");
        nf.loadPoints()
            .forEach(
                (lp, f) -> sb.append("- ").append(lp).append(": ").append(f.source()).append('\n'));
        sb.append(
            "\n| metric | runs | CV | CV 95% CI | MDE 1v1 | MDE 3v3 |\n|---|---|---|---|---|---|\n");
        for (Map.Entry<String, NoiseFloorDoc> e : nf.metrics().entrySet()) {
          NoiseFloorDoc f = e.getValue();
          sb.append("| ")
              .append(e.getKey())
              .append(" | ")
              .append(f.runs())
              .append(" | ")
              .append(pct(d(f.cv()) * 100))
              .append(" | ")
              .append(pct(d(f.cvCiLow()) * 100))
              .append(" .. ")
              .append(pct(d(f.cvCiHigh()) * 100))
              .append(" | ")
              .append(pct(d(f.mdePct1v1())))
              .append(" | ")
              .append(pct(d(f.mdePct3v3())))
              .append(" |\n");
        }
      }
      sb.append("\n### Comparisons\n\n");
      if (s.comparisons().isEmpty()) {
        sb.append("None: ")
            .append(
                s.history().missingReferences().isEmpty()
                    ? "no prior analysis"
                    : s.history().missingReferences().get(0))
            .append('\n');
      } else {
        sb.append(
            "| against | load point | metric | prior | current | change | assessment |\n|---|---|---|---|---|---|---|\n");
        for (SeriesDoc.Comparison c : s.comparisons()) {
          sb.append("| ")
              .append(c.against())
              .append(" ")
              .append(c.analysisId())
              .append(" (candidate ")
              .append(c.priorCandidate())
              .append(c.sameCandidate() ? "" : ", a different candidate")
              .append(c.priorMeasuredAt() == null ? "" : ", measured " + c.priorMeasuredAt())
              .append(")")
              .append(" | ")
              .append(c.loadPoint())
              .append(" | ")
              .append(c.metric())
              .append(" | ")
              .append(num(c.prior()))
              .append(" | ")
              .append(num(c.current()))
              .append(" | ")
              .append(signed(c.changePct()))
              .append(" | ")
              .append(c.assessment())
              .append(" |\n");
        }
      }
      SeriesDoc.Frontiers frontiers = s.pareto().frontiers();
      if (s.pareto().grid() && frontiers != null) {
        sb.append("\n### Pareto frontier (")
            .append(frontiers.throughputMetric())
            .append(" vs TTFT p99)\n\n| load point | x | y | on frontier |\n|---|---|---|---|\n");
        for (SeriesDoc.FrontierPoint p : frontiers.throughputVsTtftP99()) {
          sb.append("| ")
              .append(p.loadPoint())
              .append(" | ")
              .append(num(p.x()))
              .append(" | ")
              .append(num(p.y()))
              .append(" | ")
              .append(p.onFrontier() ? "yes" : "no")
              .append(" |\n");
        }
        sb.append("\nHighest point meeting every SLO: ")
            .append(
                frontiers.highestSloFeasiblePoint() == null
                    ? "none (no SLOs, or none met)"
                    : frontiers.highestSloFeasiblePoint())
            .append('\n');
      }
      capacity(sb, s.capacity());
      sb.append("\n### History\n\n")
          .append(s.history().history().size())
          .append(" earlier valid analyses of this series under the experiment root.\n");
    }
    sb.append("\n## Limitations\n\n");
    for (String l : a.limitations()) {
      sb.append("- ").append(l).append('\n');
    }
    return sb.toString();
  }

  /** summary.md: the verdict table sized for a PR comment. */
  public static String prSummary(AnalysisDoc a) {
    StringBuilder sb = new StringBuilder();
    sb.append("**benchplan analyze** `")
        .append(a.analysisId())
        .append("`: **")
        .append(a.verdict())
        .append("**\n\n");
    sb.append(
        "| series | verdict | repeat decision | valid runs | invalid runs |\n|---|---|---|---|---|\n");
    for (SeriesDoc s : a.series()) {
      sb.append("| ")
          .append(s.seriesId())
          .append(" (")
          .append(s.candidate().name())
          .append(") | ")
          .append(s.verdict())
          .append(" | ")
          .append(s.repeatDecision().decision())
          .append(" | ")
          .append(s.runs().size())
          .append(" | ")
          .append(s.invalidRuns().size())
          .append(" |\n");
    }
    for (SeriesDoc s : a.series()) {
      CapacityDoc capacity = s.capacity();
      if (capacity != null) {
        sb.append("\nCapacity (").append(s.seriesId()).append("): ");
        sb.append(capacity.statement()).append('\n');
      }
    }
    return sb.toString();
  }

  /** The capacity section of performance_analysis.md: the statement and the steps. */
  private static void capacity(StringBuilder sb, @Nullable CapacityDoc c) {
    if (c == null) {
      return;
    }
    sb.append("\n### Capacity\n\n").append(c.statement()).append("\n\n");
    sb.append(
        "| step | load x | throughput x | TTFT p99 x | scaling efficiency | added ms per added tok/s | latency outpaces |\n");
    sb.append("|---|---|---|---|---|---|---|\n");
    for (CapacityDoc.Step st : c.steps()) {
      sb.append("| ")
          .append(st.from())
          .append(" -> ")
          .append(st.to())
          .append(" | ")
          .append(num(st.loadRatio()))
          .append(" | ")
          .append(num(st.throughputRatio()))
          .append(" | ")
          .append(num(st.latencyRatio()))
          .append(" | ")
          .append(num(st.scalingEfficiency()))
          .append(" | ")
          .append(num(st.marginalLatencyPerThroughput()))
          .append(" | ")
          .append(st.latencyOutpacesThroughput() ? "yes" : "no")
          .append(" |\n");
    }
    sb.append("\nKnee rule: ").append(c.kneeRule()).append('\n');
  }

  /** A load point's SLO cell: none given, all met or missed. */
  static String slos(@Nullable Boolean feasible) {
    return feasible == null ? "none given" : feasible ? "all met" : "missed";
  }

  /** The mean of one metric at a load point, or n/a. */
  static String v(Map<String, SeriesDoc.MetricMean> metrics, String key) {
    SeriesDoc.MetricMean m = metrics.get(key);
    return num(m == null ? null : m.mean());
  }

  static String num(@Nullable BigDecimal n) {
    return n != null ? String.format(Locale.ROOT, "%.4g", n.doubleValue()) : "n/a";
  }

  static String signed(@Nullable BigDecimal n) {
    // -0.00% reads as a change: a value that rounds to zero prints as +0.00%
    return n != null
        ? String.format(
            Locale.ROOT, "%+.2f%%", Math.abs(n.doubleValue()) < 0.005 ? 0.0 : n.doubleValue())
        : "n/a";
  }

  /** A missing number reads as 0, as the tree reader did. */
  private static double d(@Nullable BigDecimal n) {
    return n == null ? 0 : n.doubleValue();
  }

  static String pct(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.2f%%", d) : "n/a";
  }
}
