package dev.benchplan.trace;

import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The compact human summary {@code trace inspect --format text} prints. */
public final class TraceReportText {
  private TraceReportText() {}

  /** Renders a report as a few aligned lines (ending with a newline). */
  public static String render(TraceReport r) {
    StringBuilder out = new StringBuilder();
    line(out, "trace", r.path());
    line(out, "sha256", r.sha256());
    line(out, "size", n(r.bytes()) + " bytes (" + humanBytes(r.bytes()) + ")");
    if (r.window() != null) {
      out.append("whole trace:\n");
    }
    line(out, "rows", n(r.rows()) + " (" + n(r.blankLines()) + " blank lines)");
    line(out, "span", span(r.timestampMs()));
    line(out, "input", lengths(r.inputLength()));
    line(out, "output", lengths(r.outputLength()));
    line(out, "prefix", prefix(r.hashIds()));
    line(out, "context", context(r.context()));
    if (r.window() != null) {
      TraceReport.WindowSummary w = r.window();
      out.append(
          String.format(
              Locale.ROOT,
              "window %s .. %s ms (the rows a replay sends):%n",
              w.startMs() == null ? "start" : n(w.startMs()),
              w.endMs() == null ? "end" : n(w.endMs())));
      line(
          out,
          "rows",
          n(w.rows())
              + " of "
              + n(r.rows())
              + (w.rows() == 0
                  ? ""
                  : ", "
                      + n(w.firstMs())
                      + " .. "
                      + n(w.lastMs())
                      + " ms, "
                      + (w.requestsPerSecond() == null
                          ? "all at one instant"
                          : String.format(Locale.ROOT, "%.2f requests/s", w.requestsPerSecond()))));
      line(out, "input", lengths(w.inputLength()));
      line(out, "output", lengths(w.outputLength()));
      line(out, "context", context(w.context()));
    }
    if (r.valid()) {
      line(out, "problems", "none: the trace is valid");
    } else {
      line(
          out,
          "problems",
          n(r.problemsTotal())
              + (r.problemsTotal() > r.problems().size()
                  ? " (first " + r.problems().size() + " listed)"
                  : "")
              + ": the trace is INVALID");
      for (TraceProblem p : r.problems()) {
        out.append("  ").append(p).append('\n');
      }
    }
    return out.toString();
  }

  private static String span(TraceReport.TimestampSummary t) {
    if (t.presentRows() == 0) {
      return "no timestamps";
    }
    long span = Objects.requireNonNull(t.span(), "a span when timestamps are present");
    long s = Math.round(span / 1000.0);
    String human =
        span < 60_000
            ? String.format(Locale.ROOT, "%.1fs", span / 1000.0)
            : s >= 3600
                ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    return String.format(
        Locale.ROOT,
        "%s .. %s ms (%s) on %s rows; %s going backwards",
        n(t.min()),
        n(t.max()),
        human,
        n(t.presentRows()),
        n(t.nonMonotonicRows()));
  }

  private static String lengths(TraceReport.LengthSummary l) {
    if (l.count() == 0) {
      return "no values";
    }
    return String.format(
        Locale.ROOT,
        "mean %s  p50 %s  p90 %s  p95 %s  p99 %s  min %s  max %s tokens",
        String.format(Locale.ROOT, "%,.1f", l.mean()),
        n(l.p50()),
        n(l.p90()),
        n(l.p95()),
        n(l.p99()),
        n(l.min()),
        n(l.max()));
  }

  private static String prefix(TraceReport.HashBlockSummary h) {
    if (h.rowsWithHashIds() == 0) {
      return "no hash_ids";
    }
    String rate =
        h.infiniteCacheHitRate() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%.1f%%", 100 * h.infiniteCacheHitRate());
    return String.format(
        Locale.ROOT,
        "%s rows with hash_ids, %s unique %d-token blocks; infinite-cache hit rate %s;"
            + " block-rule violations: %s",
        n(h.rowsWithHashIds()),
        n(h.uniqueBlocks()),
        h.blockSize(),
        rate,
        n(h.blockRuleViolations()));
  }

  private static String context(TraceReport.ContextSummary c) {
    if (c.limit() == null) {
      return "no limit given (--max-context)";
    }
    if (c.rowsOverLimit() == 0) {
      return "all rows fit in " + n(c.limit()) + " tokens";
    }
    StringBuilder lines = new StringBuilder();
    for (Long line : c.firstOverLimitLines()) {
      lines.append(lines.length() == 0 ? "" : ", ").append(line);
    }
    return n(c.rowsOverLimit())
        + " rows over "
        + n(c.limit())
        + " tokens (input + output), first"
        + " on lines "
        + lines;
  }

  private static String humanBytes(long bytes) {
    if (bytes < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    if (bytes < 1024L * 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }
    return String.format(Locale.ROOT, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  }

  private static void line(StringBuilder out, String label, String value) {
    out.append(String.format(Locale.ROOT, "%-9s %s%n", label, value));
  }

  private static String n(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }

  /** A value that is absent only when there is nothing to count (the callers check that first). */
  private static String n(@Nullable Long v) {
    return v == null ? "-" : n(v.longValue());
  }
}
