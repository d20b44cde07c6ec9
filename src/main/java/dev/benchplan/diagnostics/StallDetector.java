package dev.benchplan.diagnostics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A suspected stalled worker, from the per-request records alone (AICR diagnosed it by hand: one
 * Dynamo worker at its sequence cap with a queue, the others healthy, TTFT of 9-45 s beside a bulk
 * of a few hundred ms). Two signals, either one fires
 * (agent-docs/rules/benchmarking/stall-diagnosis.md):
 *
 * <ol>
 *   <li><b>TTFT split</b>: the successful requests' TTFT falls into a normal bulk and a separate
 *       slow group. The bulk's median is the median of the TTFTs at most 3x the overall median. At
 *       least {@link #MIN_SLOW_SHARE} of requests are above {@link #SLOW_FACTOR} x the bulk's
 *       median, fewer than {@link #MAX_GAP_SHARE} lie between {@link #GAP_FACTOR}x and 10x (the
 *       gap), and the slow group is a minority. A uniformly slow deployment has no slow group; a
 *       continuous long tail fills the gap.
 *   <li><b>Completion stop</b>: in the steady window (from the first completion to the last request
 *       start: ramp-up and drain excluded), no request completes for longer than {@link
 *       #STOP_FACTOR} x the median request latency (and at least {@link #MIN_STOP_SECONDS} s) while
 *       at least {@link #MIN_STOP_IN_FLIGHT} requests are in flight throughout. With fewer in
 *       flight a long window is one slow request, which the TTFT split judges.
 * </ol>
 *
 * Needs {@link #MIN_REQUESTS} successful requests with a TTFT for the split (5% of fewer is one or
 * two requests). The finding never changes a verdict: it recommends a repeat.
 */
public final class StallDetector {
  /** Fewer successful requests than this: the TTFT split is not judged. */
  public static final int MIN_REQUESTS = 50;

  /** The slow group lies above this multiple of the bulk's median TTFT. */
  public static final double SLOW_FACTOR = 10;

  /** The gap starts at this multiple of the bulk's median TTFT (and the bulk ends there). */
  public static final double GAP_FACTOR = 3;

  /** The slow group holds at least this share of requests. */
  public static final double MIN_SLOW_SHARE = 0.05;

  /** The gap holds less than this share of requests. */
  public static final double MAX_GAP_SHARE = 0.01;

  /** A completion stop lasts longer than this multiple of the median request latency. */
  public static final double STOP_FACTOR = 5;

  /** ... and at least this many seconds. */
  public static final double MIN_STOP_SECONDS = 1;

  /** ... with at least this many requests in flight throughout. */
  public static final int MIN_STOP_IN_FLIGHT = 4;

  static final String RECOMMENDATION =
      "repeat the measurement (validate --repeats 3, or run again): a stalled"
          + " worker comes and goes, and a verdict taken while one was stalled does not describe the deployment."
          + " If it persists, compare the workers' running/waiting queues and GPU utilisation (one worker at its"
          + " sequence cap with a queue while the others idle) and route least-loaded. The verdict is unchanged.";

  private StallDetector() {}

  /** The finding, when either signal fires. */
  public static Optional<Finding> detect(RequestTimeline t) {
    // the completion stop first: its sorts (ends, starts, latencies) run here while the records
    // scan's sorting thread sorts the TTFTs the split needs; reported in the order split, stop
    List<String> stopSignals = new ArrayList<>();
    List<String> stopParts = new ArrayList<>();
    Map<String, Double> stopFigures = new LinkedHashMap<>();
    stop(t, stopSignals, stopParts, stopFigures);
    List<String> signals = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    Map<String, Double> figures = new LinkedHashMap<>();
    split(t.sortedTtft(), signals, parts, figures);
    signals.addAll(stopSignals);
    parts.addAll(stopParts);
    stopFigures.forEach(figures::put);
    if (signals.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Finding(
            FindingKind.SUSPECTED_STALLED_WORKER,
            null,
            "suspected stalled worker: " + String.join("; ", parts),
            signals,
            figures,
            List.of(),
            RECOMMENDATION));
  }

  private static void split(
      double[] ttft, List<String> signals, List<String> parts, Map<String, Double> figures) {
    int n = ttft.length;
    if (n < MIN_REQUESTS) {
      return;
    }
    double overall = Quantiles.median(ttft);
    if (!(overall > 0)) {
      return;
    }
    int bulkEnd = n - Quantiles.countAbove(ttft, GAP_FACTOR * overall);
    double bulkMedian = Quantiles.median(Arrays.copyOf(ttft, bulkEnd));
    int slow = Quantiles.countAbove(ttft, SLOW_FACTOR * bulkMedian);
    int gap = Quantiles.countAbove(ttft, GAP_FACTOR * bulkMedian) - slow;
    double slowShare = (double) slow / n;
    double gapShare = (double) gap / n;
    if (slowShare < MIN_SLOW_SHARE || gapShare >= MAX_GAP_SHARE || slow * 2 >= n) {
      return;
    }
    double[] bulk = Arrays.copyOf(ttft, n - slow - gap);
    double[] slowGroup = Arrays.copyOfRange(ttft, n - slow, n);
    signals.add("ttft_split");
    figures.put("requests", (double) n);
    figures.put("slow_requests", (double) slow);
    figures.put("slow_share", slowShare);
    figures.put("gap_share", gapShare);
    figures.put("bulk_ttft_median_ms", Quantiles.median(bulk));
    figures.put("bulk_ttft_p99_ms", Quantiles.of(bulk, 0.99));
    figures.put("slow_ttft_median_ms", Quantiles.median(slowGroup));
    figures.put("slow_ttft_p99_ms", Quantiles.of(slowGroup, 0.99));
    parts.add(
        String.format(
            Locale.ROOT,
            "%s of requests (%d of %d) have a TTFT above %.0fx the bulk's median, with %s between %.0fx and %.0fx"
                + " (bulk TTFT median %s ms, p99 %s ms; slow group median %s ms, p99 %s ms)",
            pct(slowShare),
            slow,
            n,
            SLOW_FACTOR,
            pct(gapShare),
            GAP_FACTOR,
            SLOW_FACTOR,
            num(Quantiles.median(bulk)),
            num(Quantiles.of(bulk, 0.99)),
            num(Quantiles.median(slowGroup)),
            num(Quantiles.of(slowGroup, 0.99))));
  }

  private static void stop(
      RequestTimeline t, List<String> signals, List<String> parts, Map<String, Double> figures) {
    int n = t.size();
    if (n < 2) {
      return;
    }
    long[] ends = t.sortedEnds();
    long[] starts = t.sortedStarts();
    long firstEnd = ends[0];
    long lastStart = starts[n - 1];
    double medianLatencyMs = t.medianLatencyMs();
    double thresholdNs = Math.max(STOP_FACTOR * medianLatencyMs * 1e6, MIN_STOP_SECONDS * 1e9);
    long bestFrom = 0;
    long bestTo = 0;
    int bestInFlight = 0;
    for (int k = 0; k + 1 < n; k++) {
      long from = ends[k];
      long to = ends[k + 1];
      if (from < firstEnd
          || from >= lastStart
          || to - from <= thresholdNs
          || to - from <= bestTo - bestFrom) {
        continue;
      }
      int inFlight = 0;
      for (int i = 0; i < n; i++) {
        if (t.startNs(i) <= from && t.endNs(i) >= to) {
          inFlight++;
        }
      }
      if (inFlight >= MIN_STOP_IN_FLIGHT) {
        bestFrom = from;
        bestTo = to;
        bestInFlight = inFlight;
      }
    }
    if (bestInFlight == 0) {
      return;
    }
    double seconds = (bestTo - bestFrom) / 1e9;
    double offset = (bestFrom - starts[0]) / 1e9;
    signals.add("completion_stop");
    figures.put("stop_window_s", seconds);
    figures.put("stop_window_start_s", offset);
    figures.put("stop_in_flight", (double) bestInFlight);
    figures.put("median_request_latency_ms", medianLatencyMs);
    parts.add(
        String.format(
            Locale.ROOT,
            "no request completed for %s s (from %s s into the run) while %d requests were in flight;"
                + " long means over %.0fx the median request latency (%s ms) and at least %.0f s",
            num(seconds),
            num(offset),
            bestInFlight,
            STOP_FACTOR,
            num(medianLatencyMs),
            MIN_STOP_SECONDS));
  }

  static String pct(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  static String num(double v) {
    if (Math.abs(v) >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }
}
