package dev.benchplan.analysis;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.analysis.compare.LoadPointOrder;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.report.SeriesDoc;
import java.util.List;
import java.util.Locale;

/** What analyze prints: a dedicated output record for {@code --format json}, and the text form. */
public final class AnalyzeText {
  private AnalyzeText() {}

  /** One run in the output. */
  public record RunLine(
      String label,
      @JsonProperty("load_point") String loadPoint,
      @JsonProperty("audit_status") String auditStatus,
      @JsonProperty("next_action") String nextAction,
      List<String> blockers) {}

  /** One series in the output. */
  public record SeriesLine(
      @JsonProperty("series_id") String seriesId,
      String verdict,
      @JsonProperty("repeat_decision") String repeatDecision,
      String rationale,
      @org.jspecify.annotations.Nullable String capacity,
      String candidate,
      @JsonProperty("series_id_source") String seriesIdSource) {}

  /** The JSON output of analyze. */
  public record Output(
      @JsonProperty("analysis_id") String analysisId,
      String verdict,
      @JsonProperty("output_dir") String outputDir,
      @JsonProperty("findings_log") String findingsLog,
      List<RunLine> runs,
      List<SeriesLine> series) {}

  /** The output record of an outcome. */
  public static Output output(AnalyzeService.Outcome o) {
    List<RunLine> runs =
        o.runs().stream()
            .map(
                r ->
                    new RunLine(
                        r.source().label(),
                        r.loadPoint(),
                        r.audit().status(),
                        r.audit().nextAction(),
                        r.audit().blockers()))
            .toList();
    List<SeriesLine> series = new java.util.ArrayList<>();
    for (SeriesDoc s : o.analysis().series()) {
      series.add(
          new SeriesLine(
              s.seriesId(),
              s.verdict(),
              s.repeatDecision().decision(),
              s.repeatDecision().rationale(),
              capacityStatement(s),
              s.candidate().name(),
              s.seriesIdSource()));
    }
    return new Output(
        o.analysisId(),
        o.analysis().verdict(),
        o.outputDir().toString(),
        o.findingsLog().toString(),
        runs,
        series);
  }

  /** The text form: verdict, a run table, the series lines, where the files are. */
  public static String text(AnalyzeService.Outcome o) {
    StringBuilder sb = new StringBuilder();
    sb.append("analysis ")
        .append(o.analysisId())
        .append(": ")
        .append(o.analysis().verdict().toUpperCase(Locale.ROOT))
        .append('\n');
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-44s %-16s %-20s %12s %10s%n",
            "run",
            "load point",
            "audit",
            "out tok/s",
            "TTFT p99"));
    List<RunEvidence> ordered = new java.util.ArrayList<>(o.runs());
    ordered.sort(
        java.util.Comparator.comparing(RunEvidence::loadPoint, LoadPointOrder.NUMERIC)
            .thenComparing(r -> r.source().label()));
    for (RunEvidence r : ordered) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-44s %-16s %-20s %12s %10s%n",
              trim(r.source().label(), 44),
              r.loadPoint(),
              r.audit().status(),
              fmt(r.stat("output_token_throughput", "avg").orElse(Double.NaN)),
              fmt(r.stat("time_to_first_token", "p99").orElse(Double.NaN))));
      for (String b : r.audit().blockers()) {
        sb.append("      blocker: ").append(b).append('\n');
      }
    }
    for (SeriesDoc s : o.analysis().series()) {
      sb.append("series ")
          .append(s.seriesId())
          .append(": ")
          .append(s.verdict())
          .append("; repeat_decision ")
          .append(s.repeatDecision().decision())
          .append(" (")
          .append(s.repeatDecision().rationale())
          .append(")\n");
      sb.append("  candidate: ").append(s.candidate().name());
      if (s.seriesIdSource().startsWith("auto-derived")) {
        sb.append("; series id auto-derived (no plan)");
      }
      sb.append('\n');
      java.util.Set<String> against = new java.util.LinkedHashSet<>();
      for (SeriesDoc.Comparison c : s.comparisons()) {
        against.add(
            "  compared with "
                + c.against()
                + " "
                + c.analysisId()
                + " (candidate "
                + c.priorCandidate()
                + (c.priorMeasuredAt() == null ? "" : ", measured " + c.priorMeasuredAt())
                + (c.sameCandidate()
                    ? ""
                    : "; a different candidate, not a previous run of this one")
                + ")");
      }
      against.forEach(line -> sb.append(line).append('\n'));
      String capacity = capacityStatement(s);
      if (capacity != null) {
        sb.append("  capacity: ").append(capacity).append('\n');
      }
    }
    sb.append("written: ")
        .append(o.outputDir())
        .append(" (performance_analysis.json/.md, report.html, summary.md,")
        .append(" runs/*/benchmark_audit.json, benchmark_summary.json)\n");
    sb.append("finding appended: ").append(o.findingsLog()).append('\n');
    return sb.toString();
  }

  private static @org.jspecify.annotations.Nullable String capacityStatement(SeriesDoc s) {
    dev.benchplan.analysis.capacity.CapacityDoc c = s.capacity();
    return c == null ? null : c.statement();
  }

  static String fmt(double d) {
    return Double.isFinite(d) ? String.format(Locale.ROOT, "%.4g", d) : "n/a";
  }

  static String trim(String s, int n) {
    return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
  }
}
