package dev.benchplan.aiperf.export;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The AIPerf container's log as benchplan's Job prints it: AIPerf's own output, then the summary
 * export between marker lines, then the exit line (see the perf.yaml contract):
 *
 * <pre>
 * ==== benchplan:aiperf-summary:begin ====
 * &lt;profile_export_aiperf.json, unchanged&gt;
 * ==== benchplan:aiperf-summary:end ====
 * ==== benchplan:aiperf-exit:&lt;code&gt; ====
 * </pre>
 *
 * @param summary the exact text between the summary markers (null when there was no complete block)
 * @param exitCode AIPerf's exit code from the exit line (null when the line is missing)
 * @param summaryProblem why no summary was taken, when {@code summary} is null
 * @param tail the last lines of the log (at most {@link #TAIL_LINES}), for error messages
 */
public record AiperfPodLog(
    @Nullable String summary,
    @Nullable Integer exitCode,
    @Nullable String summaryProblem,
    String tail) {
  /** The line that opens the summary block. */
  public static final String BEGIN = "==== benchplan:aiperf-summary:begin ====";

  /** The line that closes the summary block. */
  public static final String END = "==== benchplan:aiperf-summary:end ====";

  /** The exit line's prefix; the line is {@code ==== benchplan:aiperf-exit:<code> ====}. */
  public static final String EXIT_PREFIX = "==== benchplan:aiperf-exit:";

  /** How many log lines the tail keeps. */
  public static final int TAIL_LINES = 20;

  private static final Pattern EXIT =
      Pattern.compile(Pattern.quote(EXIT_PREFIX) + "(-?\\d{1,9}) ====");
  private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;?]*[ -/]*[@-~]");

  public AiperfPodLog {
    if (summary == null && summaryProblem == null) {
      throw new IllegalArgumentException("a log without a summary needs the reason");
    }
    tail = tail == null ? "" : tail;
  }

  /** The exit line for an AIPerf exit code, as the Job prints it. */
  public static String exitLine(int code) {
    return EXIT_PREFIX + code + " ====";
  }

  /** True when AIPerf exited 0 and printed a complete summary block. */
  public boolean succeeded() {
    return summary != null && exitCode != null && exitCode == 0;
  }

  /** The summary bytes (UTF-8), for parsing and hashing. */
  public byte[] summaryBytes() {
    return summary == null ? new byte[0] : summary.getBytes(StandardCharsets.UTF_8);
  }

  /** Splits a pod log into AIPerf's summary, its exit code and the log's tail. */
  public static AiperfPodLog parse(String log) {
    List<String> lines = lines(log);
    int begin = -1;
    int end = -1;
    String endPrefix = "";
    Integer exit = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.equals(BEGIN)) {
        begin = i; // the last block wins: a retried container prints a fresh one
        end = -1;
      } else if (line.endsWith(END) && begin >= 0 && end < 0) {
        end = i;
        // a summary file without a final newline glues its last line to the end marker
        endPrefix = line.substring(0, line.length() - END.length());
      } else {
        Matcher m = EXIT.matcher(line);
        if (m.matches()) {
          exit = Integer.valueOf(m.group(1));
        }
      }
    }
    String summary = null;
    String problem = null;
    if (begin < 0) {
      problem = "the log has no AIPerf summary block (no line '" + BEGIN + "')";
    } else if (end < 0) {
      problem =
          "the AIPerf summary block is not terminated (no line '"
              + END
              + "' after '"
              + BEGIN
              + "')";
    } else {
      List<String> body = new ArrayList<>(lines.subList(begin + 1, end));
      if (!endPrefix.isEmpty()) {
        body.add(endPrefix);
      }
      if (body.stream().allMatch(String::isBlank)) {
        problem = "the AIPerf summary block is empty";
      } else {
        summary = String.join("\n", body) + "\n";
      }
    }
    return new AiperfPodLog(summary, exit, problem, tail(lines));
  }

  /**
   * The latest progress line in a chunk of AIPerf output: the last non-blank line, with ANSI
   * escapes removed and only the last carriage-return segment kept (progress bars redraw with CR).
   * Null when the chunk has none.
   */
  public static @Nullable String latestProgressLine(String chunk) {
    if (chunk == null) {
      return null;
    }
    String[] raw = chunk.split("\n", -1);
    for (int i = raw.length - 1; i >= 0; i--) {
      String line = raw[i];
      int cr = line.lastIndexOf('\r', line.length() - 2);
      if (cr >= 0) {
        line = line.substring(cr + 1);
      }
      line = ANSI.matcher(line).replaceAll("").strip();
      if (!line.isEmpty() && !line.startsWith("==== benchplan:")) {
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
      }
    }
    return null;
  }

  /**
   * Follows a log as it arrives in chunks and keeps its latest progress line: chunks may split
   * lines anywhere; the summary block (the export JSON) and the marker lines are never progress.
   */
  public static final class ProgressTracker {
    private final StringBuilder partial = new StringBuilder();
    private boolean inSummary;
    private @Nullable String latest;

    /** Takes the next chunk of the log. */
    public synchronized void accept(String chunk) {
      partial.append(chunk);
      int nl;
      while ((nl = partial.indexOf("\n")) >= 0) {
        line(partial.substring(0, nl));
        partial.delete(0, nl + 1);
      }
      // a partial line that may still become a marker line is not shown
      if (!inSummary
          && partial.length() > 0
          && !"==== benchplan:".startsWith(prefixOf(partial))
          && !partial.toString().startsWith("==== benchplan:")) {
        // an unfinished line (a progress bar redrawn with CR) is already worth showing
        String candidate = latestProgressLine(partial.toString());
        if (candidate != null) {
          latest = candidate;
        }
      }
    }

    private static String prefixOf(StringBuilder sb) {
      return sb.substring(0, Math.min(sb.length(), "==== benchplan:".length()));
    }

    /** The latest progress line, or null when there was none yet. */
    public synchronized @Nullable String latest() {
      return latest;
    }

    private void line(String raw) {
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      if (line.equals(BEGIN)) {
        inSummary = true;
      } else if (inSummary) {
        inSummary = !line.endsWith(END);
      } else {
        String candidate = latestProgressLine(line);
        if (candidate != null) {
          latest = candidate;
        }
      }
    }
  }

  private static List<String> lines(String log) {
    List<String> out = new ArrayList<>();
    if (log == null || log.isEmpty()) {
      return out;
    }
    for (String line : log.split("\n", -1)) {
      out.add(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
    }
    if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
      out.remove(out.size() - 1);
    }
    return out;
  }

  private static String tail(List<String> lines) {
    int from = Math.max(0, lines.size() - TAIL_LINES);
    String t = String.join("\n", lines.subList(from, lines.size()));
    return t.length() > 4000 ? t.substring(t.length() - 4000) : t;
  }
}
