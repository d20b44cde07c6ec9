package dev.benchplan.diagnostics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Was the load generator the bottleneck? (agent-docs/rules/benchmarking/client-bound.md) AIPerf's
 * own signals first, then an independent check on the per-request records; any signal that fires
 * makes the run client bound:
 *
 * <ul>
 *   <li>AIPerf's worker CPU warnings, or its event-loop warnings of at least 100 ms, each at least
 *       {@link AiperfLogWarnings#MIN_WARNINGS} times ({@link AiperfLogWarnings});
 *   <li>{@code effective_concurrency} below {@link #IN_FLIGHT_FLOOR} x C (closed loop), or {@code
 *       credit_drop_latency} above {@link #CREDIT_DROP_LATENCY_MS} ms on average, where the export
 *       has them;
 *   <li>the records, over the steady window: closed loop, the time-weighted number of requests in
 *       flight below {@link #IN_FLIGHT_FLOOR} x C, the window running from the C-th request start
 *       (every slot issued: ramp-up over) to the last request start (after it, drain); open loop,
 *       the achieved request rate below {@link #RATE_FLOOR} x the target, measured between the 5th
 *       and the 95th percentile of the request starts.
 * </ul>
 *
 * The records are judged only with at least {@link #REQUESTS_PER_SLOT} x C requests (open loop:
 * {@link #REQUESTS_PER_SLOT} x rate x median latency, and at least {@link
 * #MIN_OPEN_LOOP_REQUESTS}); with fewer, and no AIPerf signal, the run is "not judged", never
 * client bound.
 */
public final class ClientBoundCheck {
  /**
   * Closed loop: requests in flight (and AIPerf's effective concurrency) at least this share of C.
   */
  public static final double IN_FLIGHT_FLOOR = 0.90;

  /** Open loop: achieved rate at least this share of the target. */
  public static final double RATE_FLOOR = 0.95;

  /** Requests needed per concurrency slot before the records are judged (the steady-state rule). */
  public static final int REQUESTS_PER_SLOT = 8;

  /** Open loop: at least this many requests before the records are judged. */
  public static final int MIN_OPEN_LOOP_REQUESTS = 100;

  /** Open loop: the share of request starts left out at each end (ramp-up and drain). */
  public static final double OPEN_LOOP_TRIM = 0.05;

  /**
   * AIPerf's mean credit-drop latency (ms) above which its client is too slow to issue requests.
   */
  public static final double CREDIT_DROP_LATENCY_MS = 50;

  static final String FIX =
      "give the load generator what the load needs: more CPU and AIPerf workers for its pod"
          + " (benchmark.runtime.workers = ceil(C / 100), ceil(0.4 x workers) + 1 cores), a node of its own, or the"
          + " aiperf-operator engine past one pod; then run again. This run's numbers describe AIPerf, not the"
          + " deployment, and must not be used as evidence";

  private ClientBoundCheck() {}

  /** The outcome. */
  public enum Status {
    CLIENT_BOUND,
    OK,
    NOT_JUDGED
  }

  /**
   * The outcome of the check.
   *
   * @param status client bound, fine, or not judged
   * @param detail one line: what was measured and which signal fired
   * @param finding the finding for the verdict (client bound or not judged), or null when fine
   */
  public record Result(Status status, String detail, @Nullable Finding finding) {
    public boolean clientBound() {
      return status == Status.CLIENT_BOUND;
    }
  }

  /** Runs the check. */
  public static Result check(
      RequestTimeline t, LoadTarget target, AiperfLogWarnings log, ExportSignals export) {
    List<String> fired = new ArrayList<>();
    List<String> said = new ArrayList<>();
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put("aiperf_cpu_warnings", (double) log.cpuWarnings());
    figures.put("aiperf_event_loop_warnings", (double) log.loopWarnings());
    if (log.cpuSignal()) {
      fired.add("aiperf_cpu_warnings");
      said.add(log.cpuWarnings() + " AIPerf worker CPU warnings (\"results may be inaccurate\")");
    }
    if (log.loopSignal()) {
      fired.add("aiperf_event_loop_lag");
      said.add(
          log.slowLoopWarnings()
              + " AIPerf event-loop warnings of at least "
              + (int) AiperfLogWarnings.LOOP_OVERHEAD_MS
              + " ms");
    }
    if (target.mode() == LoadTarget.Mode.CLOSED_LOOP
        && Double.isFinite(export.effectiveConcurrency())) {
      figures.put("effective_concurrency", export.effectiveConcurrency());
      if (export.effectiveConcurrency() < IN_FLIGHT_FLOOR * target.value()) {
        fired.add("effective_concurrency");
        said.add(
            String.format(
                Locale.ROOT,
                "AIPerf's effective_concurrency %s below %.0f%% of %s",
                StallDetector.num(export.effectiveConcurrency()),
                IN_FLIGHT_FLOOR * 100,
                target));
      }
    }
    if (Double.isFinite(export.creditDropLatencyMs())) {
      figures.put("credit_drop_latency_avg_ms", export.creditDropLatencyMs());
      if (export.creditDropLatencyMs() > CREDIT_DROP_LATENCY_MS) {
        fired.add("credit_drop_latency");
        said.add(
            String.format(
                Locale.ROOT,
                "AIPerf's credit_drop_latency avg %s ms above %.0f ms",
                StallDetector.num(export.creditDropLatencyMs()),
                CREDIT_DROP_LATENCY_MS));
      }
    }
    String records = records(t, target, export.measuredRequests(), figures, fired, said);
    String detail = target + "; " + records + "; " + log.describe();
    if (!fired.isEmpty()) {
      Finding f =
          new Finding(
              FindingKind.CLIENT_BOUND,
              null,
              "client bound: the load generator (AIPerf) did not drive the load it was given ("
                  + target
                  + "): "
                  + String.join("; ", said),
              fired,
              figures,
              log.quotes(),
              FIX);
      return new Result(Status.CLIENT_BOUND, detail + "; fired: " + String.join(", ", fired), f);
    }
    if (records.startsWith("not judged")) {
      Finding f =
          new Finding(
              FindingKind.CLIENT_LOAD_NOT_JUDGED,
              null,
              "client load " + records + "; " + log.describe(),
              List.of(records),
              figures,
              List.of(),
              "to have it judged, measure at least "
                  + REQUESTS_PER_SLOT
                  + " x C requests per point"
                  + " (agent-docs/rules/benchmarking/client-bound.md)");
      return new Result(Status.NOT_JUDGED, detail, f);
    }
    return new Result(Status.OK, detail, null);
  }

  private static String records(
      RequestTimeline t,
      LoadTarget target,
      double measured,
      Map<String, Double> figures,
      List<String> fired,
      List<String> said) {
    int n = t.size();
    figures.put("requests", (double) n);
    String trimmed =
        Double.isFinite(measured) && n < measured
            ? "not judged: the records hold "
                + n
                + " of the summary's "
                + (long) measured
                + " measured requests (incomplete or trimmed)"
            : null;
    switch (target.mode()) {
      case UNKNOWN -> {
        return "not judged: " + target;
      }
      case CLOSED_LOOP -> {
        int c = (int) Math.round(target.value());
        figures.put("target_concurrency", (double) c);
        long needed = (long) REQUESTS_PER_SLOT * c;
        if (n < needed) {
          return "not judged: "
              + n
              + " measured requests, fewer than "
              + REQUESTS_PER_SLOT
              + " x "
              + c
              + " = "
              + needed;
        }
        if (trimmed != null) {
          return trimmed;
        }
        long[] s = t.sortedStarts();
        long a = s[c - 1];
        long b = s[n - 1];
        if (b <= a) {
          return "not judged: no steady window (the last of "
              + n
              + " requests started no later than request "
              + c
              + ")";
        }
        double inFlight = inFlight(t, a, b);
        figures.put("time_weighted_in_flight", inFlight);
        figures.put("steady_window_s", (b - a) / 1e9);
        String m =
            String.format(
                Locale.ROOT,
                "time-weighted requests in flight %s of %d over the steady window"
                    + " (%s s, from the %dth request start to the last)",
                StallDetector.num(inFlight),
                c,
                StallDetector.num((b - a) / 1e9),
                c);
        if (inFlight < IN_FLIGHT_FLOOR * c) {
          fired.add("in_flight_below_concurrency");
          said.add(m + String.format(Locale.ROOT, ", below %.0f%%", IN_FLIGHT_FLOOR * 100));
        }
        return m;
      }
      case OPEN_LOOP -> {
        double rate = target.value();
        figures.put("target_rate_per_s", rate);
        double medianLatencyS = n == 0 ? 0 : t.medianLatencyMs() / 1000;
        long needed =
            Math.max(
                MIN_OPEN_LOOP_REQUESTS,
                (long) Math.ceil(REQUESTS_PER_SLOT * rate * medianLatencyS));
        if (n < needed) {
          return "not judged: "
              + n
              + " measured requests, fewer than "
              + needed
              + " ("
              + REQUESTS_PER_SLOT
              + " x rate x median latency, at least "
              + MIN_OPEN_LOOP_REQUESTS
              + ")";
        }
        if (trimmed != null) {
          return trimmed;
        }
        long[] s = t.sortedStarts();
        int lo = (int) Math.floor(OPEN_LOOP_TRIM * n);
        int hi = (int) Math.ceil((1 - OPEN_LOOP_TRIM) * n) - 1;
        if (hi <= lo || s[hi] <= s[lo]) {
          return "not judged: no steady window (the request starts do not spread over time)";
        }
        double achieved = (hi - lo) / ((s[hi] - s[lo]) / 1e9);
        figures.put("achieved_rate_per_s", achieved);
        figures.put("steady_window_s", (s[hi] - s[lo]) / 1e9);
        String m =
            String.format(
                Locale.ROOT,
                "achieved request rate %s/s of %s/s over the steady window (%s s,"
                    + " request starts between the 5th and 95th percentile)",
                StallDetector.num(achieved),
                StallDetector.num(rate),
                StallDetector.num((s[hi] - s[lo]) / 1e9));
        if (achieved < RATE_FLOOR * rate) {
          fired.add("request_rate_below_target");
          said.add(m + String.format(Locale.ROOT, ", below %.0f%%", RATE_FLOOR * 100));
        }
        return m;
      }
      default -> throw new IllegalStateException(target.mode().name());
    }
  }

  /** The time-weighted mean number of requests in flight over [a, b]. */
  static double inFlight(RequestTimeline t, long a, long b) {
    // the columns, no call per request: this loop runs once, in the interpreter
    long[] starts = t.startsNs();
    long[] ends = t.endsNs();
    double sum = 0;
    for (int i = 0; i < starts.length; i++) {
      long s = starts[i];
      long e = ends[i];
      long from = s > a ? s : a;
      long to = e < b ? e : b;
      if (to > from) {
        sum += to - from;
      }
    }
    return sum / (b - a);
  }
}
