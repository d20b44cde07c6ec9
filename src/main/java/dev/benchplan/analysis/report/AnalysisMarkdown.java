package dev.benchplan.analysis.report;

import java.math.BigDecimal;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** performance_analysis.md and the PR-sized summary.md of an analysis. */
public final class AnalysisMarkdown {
  private AnalysisMarkdown() {}

  /**
   * performance_analysis.md: executive verdict, SLO table, metrics, comparisons, history,
   * limitations.
   */
  public static String render(JsonNode a) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Performance analysis ").append(a.path("analysis_id").asString()).append("\n\n");
    sb.append("**Verdict: ").append(a.path("verdict").asString()).append("**\n\n");
    sb.append("- question: ")
        .append(
            a.path("question").isNull() ? "none recorded (no plan)" : a.path("question").asString())
        .append('\n');
    sb.append("- plan: ")
        .append(
            a.path("plan").isNull()
                ? "none (plain AIPerf directories)"
                : a.path("plan").path("path").asString()
                    + " (sha256 "
                    + a.path("plan").path("sha256").asString()
                    + ")")
        .append("\n\n");
    sb.append("## Runs and audit\n\n| run | load point | audit |\n|---|---|---|\n");
    for (JsonNode in : a.path("inputs")) {
      sb.append("| ")
          .append(in.path("run").path("label").asString())
          .append(" | ")
          .append(in.path("run").path("load_point").asString())
          .append(" | ")
          .append(in.path("audit_status").asString())
          .append(" |\n");
    }
    for (JsonNode s : a.path("series")) {
      sb.append("\n## Series ").append(s.path("series_id").asString()).append("\n\n");
      sb.append("Verdict **")
          .append(s.path("verdict").asString())
          .append("** (")
          .append(s.path("evidence").asString())
          .append("); repeat decision **")
          .append(s.path("repeat_decision").path("decision").asString())
          .append("**: ")
          .append(s.path("repeat_decision").path("rationale").asString())
          .append("\n\n");
      for (JsonNode inv : s.path("invalid_runs")) {
        sb.append("- invalid, excluded: ").append(inv.asString()).append('\n');
      }
      sb.append("### Metrics (mean over runs per load point)\n\n");
      sb.append(
          "| load point | runs | out tok/s | out tok/s/GPU | TTFT p99 ms | ITL avg ms | tok/s/user | SLOs |\n");
      sb.append("|---|---|---|---|---|---|---|---|\n");
      for (JsonNode lp : s.path("load_points")) {
        JsonNode m = lp.path("metrics");
        sb.append("| ")
            .append(lp.path("load_point").asString())
            .append(
                lp.path("steady_state").path("steady").asBoolean(true)
                    ? ""
                    : " (not steady state: "
                        + lp.path("steady_state").path("status").asString()
                        + ")")
            .append(" | ")
            .append(lp.path("runs").asInt())
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
            .append(
                lp.path("slo_feasible").isNull()
                    ? "none given"
                    : lp.path("slo_feasible").asBoolean() ? "all met" : "missed")
            .append(" |\n");
      }
      if (!s.path("slos").isEmpty()) {
        sb.append("\n### SLOs\n\n| load point | SLO | observed | status |\n|---|---|---|---|\n");
        for (JsonNode lp : s.path("load_points")) {
          for (JsonNode e : lp.path("slo_evaluation")) {
            sb.append("| ")
                .append(lp.path("load_point").asString())
                .append(" | ")
                .append(e.path("slo").asString())
                .append(" | ")
                .append(num(e.path("observed")))
                .append(" | ")
                .append(e.path("status").asString())
                .append(" |\n");
          }
        }
      }
      JsonNode nf = s.path("noise_floor");
      sb.append("\n### Noise floor\n\n");
      if (nf.path("metrics").isEmpty()) {
        sb.append(nf.path("note").asString()).append('\n');
      } else {
        sb.append("Source: ")
            .append(nf.path("source").asString())
            .append(". ")
            .append(nf.path("note").asString())
            .append(
                "\n\n| metric | runs | CV | CV 95% CI | MDE 1v1 | MDE 3v3 |\n|---|---|---|---|---|---|\n");
        for (String k : nf.path("metrics").propertyNames()) {
          JsonNode f = nf.path("metrics").get(k);
          sb.append("| ")
              .append(k)
              .append(" | ")
              .append(f.path("runs").asInt())
              .append(" | ")
              .append(pct(f.path("cv").asDouble() * 100))
              .append(" | ")
              .append(pct(f.path("cv_ci_low").asDouble() * 100))
              .append(" .. ")
              .append(pct(f.path("cv_ci_high").asDouble() * 100))
              .append(" | ")
              .append(pct(f.path("mde_pct_1v1").asDouble()))
              .append(" | ")
              .append(pct(f.path("mde_pct_3v3").asDouble()))
              .append(" |\n");
        }
      }
      sb.append("\n### Comparisons\n\n");
      if (s.path("comparisons").isEmpty()) {
        sb.append("None: ")
            .append(
                s.path("history").path("missing_references").path(0).asString("no prior analysis"))
            .append('\n');
      } else {
        sb.append(
            "| against | load point | metric | prior | current | change | assessment |\n|---|---|---|---|---|---|---|\n");
        for (JsonNode c : s.path("comparisons")) {
          sb.append("| ")
              .append(c.path("against").asString())
              .append(" | ")
              .append(c.path("load_point").asString())
              .append(" | ")
              .append(c.path("metric").asString())
              .append(" | ")
              .append(num(c.path("prior")))
              .append(" | ")
              .append(num(c.path("current")))
              .append(" | ")
              .append(signed(c.path("change_pct")))
              .append(" | ")
              .append(c.path("assessment").asString())
              .append(" |\n");
        }
      }
      if (s.path("pareto").path("grid").asBoolean()) {
        sb.append("\n### Pareto frontier (")
            .append(s.path("pareto").path("throughput_metric").asString())
            .append(" vs TTFT p99)\n\n| load point | x | y | on frontier |\n|---|---|---|---|\n");
        for (JsonNode p : s.path("pareto").path("throughput_vs_ttft_p99")) {
          sb.append("| ")
              .append(p.path("load_point").asString())
              .append(" | ")
              .append(num(p.path("x")))
              .append(" | ")
              .append(num(p.path("y")))
              .append(" | ")
              .append(p.path("on_frontier").asBoolean() ? "yes" : "no")
              .append(" |\n");
        }
        sb.append("\nHighest point meeting every SLO: ")
            .append(
                s.path("pareto")
                    .path("highest_slo_feasible_point")
                    .asString("none (no SLOs, or none met)"))
            .append('\n');
      }
      sb.append("\n### History\n\n")
          .append(s.path("history").path("history").size())
          .append(" earlier valid analyses of this series under the experiment root.\n");
    }
    sb.append("\n## Limitations\n\n");
    for (JsonNode l : a.path("limitations")) {
      sb.append("- ").append(l.asString()).append('\n');
    }
    return sb.toString();
  }

  /** summary.md: the verdict table sized for a PR comment. */
  public static String prSummary(JsonNode a) {
    StringBuilder sb = new StringBuilder();
    sb.append("**benchplan analyze** `")
        .append(a.path("analysis_id").asString())
        .append("`: **")
        .append(a.path("verdict").asString())
        .append("**\n\n");
    sb.append(
        "| series | verdict | repeat decision | valid runs | invalid runs |\n|---|---|---|---|---|\n");
    for (JsonNode s : a.path("series")) {
      sb.append("| ")
          .append(s.path("series_id").asString())
          .append(" | ")
          .append(s.path("verdict").asString())
          .append(" | ")
          .append(s.path("repeat_decision").path("decision").asString())
          .append(" | ")
          .append(s.path("runs").size())
          .append(" | ")
          .append(s.path("invalid_runs").size())
          .append(" |\n");
    }
    return sb.toString();
  }

  static String v(JsonNode metrics, String key) {
    return num(metrics.path(key).path("mean"));
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

  static String num(JsonNode n) {
    return n.isNumber() ? String.format(Locale.ROOT, "%.4g", n.asDouble()) : "n/a";
  }

  static String signed(JsonNode n) {
    // -0.00% reads as a change: a value that rounds to zero prints as +0.00%
    return n.isNumber()
        ? String.format(Locale.ROOT, "%+.2f%%", Math.abs(n.asDouble()) < 0.005 ? 0.0 : n.asDouble())
        : "n/a";
  }

  static String pct(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.2f%%", d) : "n/a";
  }
}
