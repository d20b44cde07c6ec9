package dev.benchplan.diagnostics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * AIPerf's own warnings that its client was overloaded, counted and quoted from its log (the pod
 * log of benchplan's Job, or {@code logs/aiperf.log} in an artifact directory). The texts are
 * AIPerf's (src/aiperf/workers/worker_manager.py and src/aiperf/common/event_loop_monitor.py):
 *
 * <pre>
 * CPU usage for worker_0 is 97%. AIPerf results may be inaccurate.
 * Event loop for worker_0 is taking too long to run. Overhead: 1,234.56ms
 * </pre>
 *
 * AIPerf warns about its event loop from 10 ms of overhead; only warnings of at least {@link
 * #LOOP_OVERHEAD_MS} count towards the signal, and each signal needs {@link #MIN_WARNINGS}
 * warnings, so one start-up hiccup does not condemn a run.
 *
 * @param logRead whether a log was read at all (without one, AIPerf's own signal is unknown)
 * @param cpuWarnings worker CPU warnings ("results may be inaccurate")
 * @param maxCpuPercent the highest CPU figure quoted, or NaN
 * @param loopWarnings event-loop warnings, any overhead
 * @param slowLoopWarnings event-loop warnings with at least {@link #LOOP_OVERHEAD_MS} of overhead
 * @param maxLoopOverheadMs the largest overhead quoted, or NaN
 * @param quotes the first lines of each kind, as AIPerf wrote them (ANSI colours removed)
 */
public record AiperfLogWarnings(
    boolean logRead,
    int cpuWarnings,
    double maxCpuPercent,
    int loopWarnings,
    int slowLoopWarnings,
    double maxLoopOverheadMs,
    List<String> quotes) {
  /** Warnings of one kind needed before the signal fires. */
  public static final int MIN_WARNINGS = 3;

  /** Event-loop overhead (ms) from which a warning counts towards the signal. */
  public static final double LOOP_OVERHEAD_MS = 100;

  private static final Pattern CPU =
      Pattern.compile(
          "CPU usage for (\\S+) is ([0-9][0-9.,]*)\\s*%\\.?\\s*AIPerf results may be inaccurate",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern INACCURATE =
      Pattern.compile("results may be inaccurate", Pattern.CASE_INSENSITIVE);
  private static final Pattern LOOP =
      Pattern.compile(
          "Event loop for (\\S+) is taking too long to run\\.?(?:\\s*Overhead:\\s*([0-9][0-9.,]*)\\s*ms)?",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;?]*[ -/]*[@-~]");
  private static final int QUOTES_PER_KIND = 3;

  public AiperfLogWarnings {
    quotes = List.copyOf(quotes);
  }

  /** No log was available. */
  public static AiperfLogWarnings absent() {
    return new AiperfLogWarnings(false, 0, Double.NaN, 0, 0, Double.NaN, List.of());
  }

  /** Parses a log. */
  public static AiperfLogWarnings parse(String log) {
    return parse(log.lines().toList());
  }

  /** Parses log lines. */
  public static AiperfLogWarnings parse(List<String> lines) {
    int cpu = 0;
    double maxCpu = Double.NaN;
    int loop = 0;
    int slowLoop = 0;
    double maxLoop = Double.NaN;
    List<String> cpuQuotes = new ArrayList<>();
    List<String> loopQuotes = new ArrayList<>();
    for (String raw : lines) {
      String line = ANSI.matcher(raw).replaceAll("").strip();
      Matcher c = CPU.matcher(line);
      if (c.find() || INACCURATE.matcher(line).find()) {
        cpu++;
        if (c.find(0)) {
          double v = number(c.group(2));
          maxCpu = Double.isNaN(maxCpu) ? v : Math.max(maxCpu, v);
        }
        if (cpuQuotes.size() < QUOTES_PER_KIND) {
          cpuQuotes.add(line);
        }
        continue;
      }
      Matcher l = LOOP.matcher(line);
      if (l.find()) {
        loop++;
        double v = l.group(2) == null ? Double.NaN : number(l.group(2));
        if (v >= LOOP_OVERHEAD_MS) {
          slowLoop++;
          if (loopQuotes.size() < QUOTES_PER_KIND) {
            loopQuotes.add(line);
          }
        }
        if (!Double.isNaN(v)) {
          maxLoop = Double.isNaN(maxLoop) ? v : Math.max(maxLoop, v);
        }
      }
    }
    List<String> quotes = new ArrayList<>(cpuQuotes);
    quotes.addAll(loopQuotes);
    return new AiperfLogWarnings(true, cpu, maxCpu, loop, slowLoop, maxLoop, quotes);
  }

  /** AIPerf's CPU warnings reached {@link #MIN_WARNINGS}. */
  public boolean cpuSignal() {
    return cpuWarnings >= MIN_WARNINGS;
  }

  /**
   * AIPerf's event-loop warnings of at least {@link #LOOP_OVERHEAD_MS} reached {@link
   * #MIN_WARNINGS}.
   */
  public boolean loopSignal() {
    return slowLoopWarnings >= MIN_WARNINGS;
  }

  /** A one-line account, e.g. for a finding. */
  public String describe() {
    if (!logRead) {
      return "AIPerf's log was not available";
    }
    return String.format(
        Locale.ROOT,
        "AIPerf's log: %d worker CPU warning(s)%s, %d event-loop warning(s), %d of them"
            + " with at least %.0f ms of overhead%s",
        cpuWarnings,
        Double.isNaN(maxCpuPercent)
            ? ""
            : String.format(Locale.ROOT, " (up to %.0f%%)", maxCpuPercent),
        loopWarnings,
        slowLoopWarnings,
        LOOP_OVERHEAD_MS,
        Double.isNaN(maxLoopOverheadMs)
            ? ""
            : String.format(Locale.ROOT, " (up to %,.0f ms)", maxLoopOverheadMs));
  }

  private static double number(String s) {
    try {
      return Double.parseDouble(s.replace(",", ""));
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
