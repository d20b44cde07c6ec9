package dev.benchplan.analysis.report;

import dev.benchplan.analysis.compare.LoadPointOrder;
import dev.benchplan.analysis.evidence.RunEvidence;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
  public static String analysis(AnalysisDoc a, List<RunEvidence> runs, Map<String, String> svgs) {
    StringBuilder sb = head("benchplan analyze " + a.analysisId());
    sb.append("<h1>Performance analysis <code>")
        .append(esc(a.analysisId()))
        .append("</code></h1>\n");
    sb.append("<p class=\"verdict ")
        .append(esc(a.verdict()))
        .append("\">Verdict: ")
        .append(esc(a.verdict()))
        .append("</p>\n");
    questionAndPlan(sb, a.question(), a.plan());
    sb.append(
        "<h2>Audit</h2>\n<table><tr><th>run</th><th>load point</th><th>status</th><th>blockers</th></tr>\n");
    List<RunEvidence> ordered = new java.util.ArrayList<>(runs);
    ordered.sort(
        java.util.Comparator.comparing(RunEvidence::loadPoint, LoadPointOrder.NUMERIC)
            .thenComparing(r -> r.source().label()));
    for (RunEvidence r : ordered) {
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
    for (SeriesDoc s : a.series()) {
      sb.append("<h2>Series <code>")
          .append(esc(s.seriesId()))
          .append("</code>, candidate <code>")
          .append(esc(s.candidate().name()))
          .append("</code>: <span class=\"")
          .append(esc(s.verdict()))
          .append("\">")
          .append(esc(s.verdict()))
          .append("</span></h2>\n<p>Repeat decision: <b>")
          .append(esc(s.repeatDecision().decision()))
          .append("</b> &mdash; ")
          .append(esc(s.repeatDecision().rationale()))
          .append("</p>\n");
      sb.append(
          "<table><tr><th>load point</th><th>runs</th><th>out tok/s</th><th>tok/s/GPU</th><th>TTFT p99 ms</th>"
              + "<th>ITL avg ms</th><th>tok/s/user</th><th>SLOs</th></tr>\n");
      for (SeriesDoc.LoadPoint lp : s.loadPoints()) {
        Map<String, SeriesDoc.MetricMean> m = lp.metrics();
        sb.append("<tr><td>")
            .append(esc(lp.loadPoint()))
            .append("</td><td>")
            .append(lp.runs())
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
            .append(AnalysisMarkdown.slos(lp.sloFeasible()))
            .append("</td></tr>\n");
      }
      sb.append("</table>\n");
      dev.benchplan.analysis.capacity.CapacityDoc capacity = s.capacity();
      if (capacity != null) {
        sb.append("<h3>Capacity</h3>\n<p class=\"capacity\">")
            .append(esc(capacity.statement()))
            .append("</p>\n");
      }
    }
    plots(sb, svgs);
    return foot(sb);
  }

  /** The report of a comparison. */
  public static String comparison(ComparisonDoc c, Map<String, String> svgs) {
    StringBuilder sb = head("benchplan compare");
    sb.append("<h1>Comparison: candidate vs reference</h1>\n<p class=\"verdict ")
        .append(esc(c.verdict()))
        .append("\">Verdict: ")
        .append(esc(c.verdict()))
        .append("</p>\n");
    questionAndPlan(sb, c.question(), c.plan());
    Map<String, String> fields = c.eligibility().fields();
    sb.append("<h2>Eligibility</h2>\n<p>Eligible: every run valid under the audit, and the same ");
    sb.append(esc(String.join(", ", fields.keySet()))).append(".</p>\n<table>");
    for (Map.Entry<String, String> f : fields.entrySet()) {
      sb.append("<tr><th>")
          .append(esc(f.getKey()))
          .append("</th><td>")
          .append(esc(f.getValue()))
          .append("</td></tr>");
    }
    sb.append(
        "</table>\n<h2>Audit</h2>\n<table><tr><th>side</th><th>candidate</th><th>run</th><th>status</th></tr>\n");
    for (String side : List.of("reference", "candidate")) {
      for (RunBlock.InputEntry r : side.equals("reference") ? c.reference() : c.candidate()) {
        sb.append("<tr><td>")
            .append(side)
            .append("</td><td>")
            .append(esc(r.run().candidate().name()))
            .append("</td><td>")
            .append(esc(r.run().label()))
            .append("</td><td class=\"")
            .append(esc(r.auditStatus()))
            .append("\">")
            .append(esc(r.auditStatus()))
            .append("</td></tr>\n");
      }
    }
    sb.append(
        "</table>\n<h2>Verdict per metric</h2>\n<table><tr><th>load point</th><th>metric</th><th>better</th>"
            + "<th>reference</th><th>candidate</th><th>change</th><th>95% CI</th><th>MDE</th><th>method</th><th>verdict</th><th>caveats</th></tr>\n");
    for (ComparisonDoc.MetricRow m : c.metrics()) {
      EffectDoc e = m.effect();
      BigDecimal mde = e.mdePct();
      sb.append("<tr><td>")
          .append(esc(m.loadPoint()))
          .append("</td><td>")
          .append(esc(m.metric()))
          .append(m.gated() ? " (gated)" : "")
          .append("</td><td>")
          .append(esc(m.better()))
          .append("</td><td>")
          .append(AnalysisMarkdown.num(e.referenceMean()))
          .append("</td><td>")
          .append(AnalysisMarkdown.num(e.candidateMean()))
          .append("</td><td>")
          .append(AnalysisMarkdown.signed(e.deltaPct()))
          .append("</td><td>")
          .append(AnalysisMarkdown.signed(e.ciLowPct()))
          .append(" .. ")
          .append(AnalysisMarkdown.signed(e.ciHighPct()))
          .append("</td><td>")
          .append(
              mde != null
                  ? String.format(java.util.Locale.ROOT, "%.2f%%", mde.doubleValue())
                  : "n/a")
          .append("</td><td>")
          .append(esc(e.method()))
          .append("</td><td class=\"")
          .append(esc(m.verdict()))
          .append("\">")
          .append(esc(m.verdict()))
          .append("</td><td>")
          .append(esc(String.join("; ", m.caveats())))
          .append("</td></tr>\n");
    }
    for (ComparisonDoc.ErrorRow e : c.errors()) {
      ErrorRowCells x = ErrorRowCells.of(e);
      sb.append("<tr><td>")
          .append(esc(e.loadPoint()))
          .append("</td><td>")
          .append(esc(x.metric()))
          .append("</td><td>lower</td><td>")
          .append(esc(x.reference()))
          .append("</td><td>")
          .append(esc(x.candidate()))
          .append("</td><td></td><td>")
          .append(esc(x.counts()))
          .append("</td><td></td><td></td><td>")
          .append(esc(x.verdict()))
          .append("</td><td></td></tr>\n");
    }
    sb.append("</table>\n");
    for (ComparisonDoc.Excluded x : c.excluded()) {
      sb.append("<p>Excluded (invalid under the audit): ")
          .append(esc(x.side() + " run " + x.run() + " (" + x.loadPoint() + "): "))
          .append(esc(String.join("; ", x.reasons())))
          .append("</p>\n");
    }
    sb.append("<p>Repeat decision: <b>")
        .append(esc(c.repeatDecision().decision()))
        .append("</b> &mdash; ")
        .append(esc(c.repeatDecision().rationale()))
        .append("</p>\n");
    plots(sb, svgs);
    return foot(sb);
  }

  private static void questionAndPlan(
      StringBuilder sb, @Nullable String question, @Nullable FileDoc plan) {
    sb.append("<table><tr><th>question</th><td>")
        .append(esc(question == null ? "none recorded (no plan)" : question))
        .append("</td></tr><tr><th>plan</th><td>")
        .append(
            esc(
                plan == null
                    ? "none: plain AIPerf directories (AIPerf's input_config stands in)"
                    : plan.path() + " &mdash; sha256 " + plan.sha256()))
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

  /**
   * {@code s} as HTML text or attribute value; characters beyond ASCII as numeric references, so
   * the page stays one-byte text (a single non-Latin-1 character would make Java hold and encode
   * the whole page, plots included, as UTF-16).
   */
  static String esc(@Nullable String s) {
    if (s == null) {
      return "";
    }
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      String r =
          switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            default -> c < 0x80 ? null : "&#" + c + ";";
          };
      if (r != null && sb == null) {
        sb = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (sb != null) {
        if (r != null) {
          sb.append(r);
        } else {
          sb.appendCodePoint(c);
        }
      }
      i += Character.charCount(c);
    }
    return sb == null ? s : sb.toString();
  }
}
