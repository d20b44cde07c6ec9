package dev.benchplan.analysis.report;

import dev.benchplan.analysis.evidence.RunEvidence;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * report.html: one self-contained file (inline CSS and inline SVG; no script, style, font or image
 * is fetched) that a reviewer opens from a PR.
 */
public final class HtmlReport {
  private static final String CSS =
      "body{font-family:sans-serif;margin:2em;max-width:80em;color:#222}"
          + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .6em;text-align:left}"
          + "th{background:#eee}td{white-space:nowrap}.pass,.valid,.improved,.no_change{color:#176317}.fail,.invalid,.regressed{color:#a31515}"
          + ".inconclusive,.warn,.valid_with_recovery{color:#8a5a00}.verdict{font-size:1.4em;font-weight:bold}"
          + "figure{margin:1em 0}code{background:#f4f4f4;padding:0 .2em}";

  private HtmlReport() {}

  /** The report of an analysis. */
  public static String analysis(JsonNode a, List<RunEvidence> runs, Map<String, String> svgs) {
    StringBuilder sb = head("benchplan analyze " + a.path("analysis_id").asString());
    sb.append("<h1>Performance analysis <code>")
        .append(esc(a.path("analysis_id").asString()))
        .append("</code></h1>\n");
    sb.append("<p class=\"verdict ")
        .append(esc(a.path("verdict").asString()))
        .append("\">Verdict: ")
        .append(esc(a.path("verdict").asString()))
        .append("</p>\n");
    questionAndPlan(sb, a);
    sb.append(
        "<h2>Audit</h2>\n<table><tr><th>run</th><th>load point</th><th>status</th><th>blockers</th></tr>\n");
    for (RunEvidence r : runs) {
      sb.append("<tr><td>")
          .append(esc(r.source().label()))
          .append("</td><td>")
          .append(esc(r.loadPoint()))
          .append("</td><td class=\"")
          .append(esc(r.audit().status()))
          .append("\">")
          .append(esc(r.audit().status()))
          .append("</td><td>")
          .append(esc(String.join("; ", r.audit().blockers())))
          .append("</td></tr>\n");
    }
    sb.append("</table>\n");
    for (JsonNode s : a.path("series")) {
      sb.append("<h2>Series <code>")
          .append(esc(s.path("series_id").asString()))
          .append("</code>: <span class=\"")
          .append(esc(s.path("verdict").asString()))
          .append("\">")
          .append(esc(s.path("verdict").asString()))
          .append("</span></h2>\n<p>Repeat decision: <b>")
          .append(esc(s.path("repeat_decision").path("decision").asString()))
          .append("</b> — ")
          .append(esc(s.path("repeat_decision").path("rationale").asString()))
          .append("</p>\n");
      sb.append(
          "<table><tr><th>load point</th><th>runs</th><th>out tok/s</th><th>tok/s/GPU</th><th>TTFT p99 ms</th>"
              + "<th>ITL avg ms</th><th>tok/s/user</th><th>SLOs</th></tr>\n");
      for (JsonNode lp : s.path("load_points")) {
        JsonNode m = lp.path("metrics");
        sb.append("<tr><td>")
            .append(esc(lp.path("load_point").asString()))
            .append("</td><td>")
            .append(lp.path("runs").asInt())
            .append("</td><td>")
            .append(AnalysisMarkdown.v(m, "output_token_throughput.avg"))
            .append("</td><td>")
            .append(AnalysisMarkdown.v(m, "output_token_throughput_per_gpu"))
            .append("</td><td>")
            .append(AnalysisMarkdown.v(m, "time_to_first_token.p99"))
            .append("</td><td>")
            .append(AnalysisMarkdown.v(m, "inter_token_latency.avg"))
            .append("</td><td>")
            .append(AnalysisMarkdown.v(m, "output_token_throughput_per_user.avg"))
            .append("</td><td>")
            .append(
                lp.path("slo_feasible").isNull()
                    ? "none given"
                    : lp.path("slo_feasible").asBoolean() ? "all met" : "missed")
            .append("</td></tr>\n");
      }
      sb.append("</table>\n");
    }
    plots(sb, svgs);
    return foot(sb);
  }

  /** The report of a comparison. */
  public static String comparison(JsonNode c, Map<String, String> svgs) {
    StringBuilder sb = head("benchplan compare");
    sb.append("<h1>Comparison: candidate vs reference</h1>\n<p class=\"verdict ")
        .append(esc(c.path("verdict").asString()))
        .append("\">Verdict: ")
        .append(esc(c.path("verdict").asString()))
        .append("</p>\n");
    questionAndPlan(sb, c);
    sb.append("<h2>Eligibility</h2>\n<p>Eligible: every run valid under the audit, and the same ");
    sb.append(esc(String.join(", ", c.path("eligibility").path("fields").propertyNames())))
        .append(".</p>\n<table>");
    for (String k : c.path("eligibility").path("fields").propertyNames()) {
      sb.append("<tr><th>")
          .append(esc(k))
          .append("</th><td>")
          .append(esc(c.path("eligibility").path("fields").path(k).asString()))
          .append("</td></tr>");
    }
    sb.append(
        "</table>\n<h2>Audit</h2>\n<table><tr><th>side</th><th>run</th><th>status</th></tr>\n");
    for (String side : List.of("reference", "candidate")) {
      for (JsonNode r : c.path(side)) {
        sb.append("<tr><td>")
            .append(side)
            .append("</td><td>")
            .append(esc(r.path("run").path("label").asString()))
            .append("</td><td class=\"")
            .append(esc(r.path("audit_status").asString()))
            .append("\">")
            .append(esc(r.path("audit_status").asString()))
            .append("</td></tr>\n");
      }
    }
    sb.append(
        "</table>\n<h2>Verdict per metric</h2>\n<table><tr><th>load point</th><th>metric</th><th>better</th>"
            + "<th>reference</th><th>candidate</th><th>change</th><th>95% CI</th><th>MDE</th><th>method</th><th>verdict</th></tr>\n");
    for (JsonNode m : c.path("metrics")) {
      JsonNode e = m.path("effect");
      sb.append("<tr><td>")
          .append(esc(m.path("load_point").asString()))
          .append("</td><td>")
          .append(esc(m.path("metric").asString()))
          .append(m.path("gated").asBoolean() ? " (gated)" : "")
          .append("</td><td>")
          .append(esc(m.path("better").asString()))
          .append("</td><td>")
          .append(AnalysisMarkdown.num(e.path("reference_mean")))
          .append("</td><td>")
          .append(AnalysisMarkdown.num(e.path("candidate_mean")))
          .append("</td><td>")
          .append(AnalysisMarkdown.signed(e.path("delta_pct")))
          .append("</td><td>")
          .append(AnalysisMarkdown.signed(e.path("ci_low_pct")))
          .append(" .. ")
          .append(AnalysisMarkdown.signed(e.path("ci_high_pct")))
          .append("</td><td>")
          .append(
              e.path("mde_pct").isNumber()
                  ? String.format(java.util.Locale.ROOT, "%.2f%%", e.path("mde_pct").asDouble())
                  : "n/a")
          .append("</td><td>")
          .append(esc(e.path("method").asString()))
          .append("</td><td class=\"")
          .append(esc(m.path("verdict").asString()))
          .append("\">")
          .append(esc(m.path("verdict").asString()))
          .append("</td></tr>\n");
    }
    sb.append("</table>\n<p>Repeat decision: <b>")
        .append(esc(c.path("repeat_decision").path("decision").asString()))
        .append("</b> — ")
        .append(esc(c.path("repeat_decision").path("rationale").asString()))
        .append("</p>\n");
    plots(sb, svgs);
    return foot(sb);
  }

  private static void questionAndPlan(StringBuilder sb, JsonNode d) {
    sb.append("<table><tr><th>question</th><td>")
        .append(
            esc(
                d.path("question").isNull()
                    ? "none recorded (no plan)"
                    : d.path("question").asString()))
        .append("</td></tr><tr><th>plan</th><td>")
        .append(
            esc(
                d.path("plan").isNull()
                    ? "none: plain AIPerf directories (AIPerf's input_config stands in)"
                    : d.path("plan").path("path").asString()
                        + " — sha256 "
                        + d.path("plan").path("sha256").asString()))
        .append("</td></tr></table>\n");
  }

  private static void plots(StringBuilder sb, Map<String, String> svgs) {
    sb.append("<h2>Plots</h2>\n");
    for (Map.Entry<String, String> e : svgs.entrySet()) {
      sb.append("<figure>")
          .append(e.getValue())
          .append("<figcaption>")
          .append(esc(e.getKey()))
          .append("</figcaption></figure>\n");
    }
  }

  private static StringBuilder head(String title) {
    StringBuilder sb = new StringBuilder(1 << 16);
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">")
        .append("<title>")
        .append(esc(title))
        .append("</title><style>")
        .append(CSS)
        .append("</style></head><body>\n");
    return sb;
  }

  private static String foot(StringBuilder sb) {
    sb.append(
            "<p><small>Written by benchplan. Self-contained: no script, style, font or image is fetched.</small></p>\n")
        .append("</body></html>\n");
    return sb.toString();
  }

  static String esc(String s) {
    if (s == null) {
      return "";
    }
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
