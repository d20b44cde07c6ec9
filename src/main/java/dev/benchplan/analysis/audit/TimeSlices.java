package dev.benchplan.analysis.audit;

import dev.benchplan.diagnostics.RequestTimeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The measured window cut into equal time slices (audit check {@code time_slices}): per slice the
 * completed requests per second and the median TTFT of the requests that started in it, from the
 * per-request records. A slice whose median TTFT is more than {@link #BOUND} away from the run's
 * median TTFT, or (the first and last slice aside: ramp-up and drain) whose throughput is more than
 * {@link #BOUND} away from the median slice throughput, is a {@code warn} finding: warm-up leaking
 * into the measured window (the first slices slow), or drift. {@link #SLICES} slices over the span
 * of the successful requests; with fewer than {@link #MIN_REQUESTS} successful requests (20 a
 * slice) a slice's median is noise and the check says not checked.
 */
public final class TimeSlices {
  public static final String ID = "time_slices";

  /** Slices the measured window is cut into. */
  public static final int SLICES = 10;

  /**
   * Relative deviation of a slice from the run that is a finding (AIPerf's own run-to-run noise is
   * about 15% at 50-100 requests).
   */
  public static final double BOUND = 0.25;

  /** Successful requests needed: 20 a slice. */
  public static final int MIN_REQUESTS = 20 * SLICES;

  private TimeSlices() {}

  /** The check of one run's timeline. */
  public static AuditCheck check(RequestTimeline t) {
    // the columns, read directly: these loops run once, in the interpreter, where every call
    // (an accessor, Math.min, Double.isFinite) costs more than the loop's own work
    long[] starts = t.startsNs();
    long[] ends = t.endsNs();
    double[] ttfts = t.ttftsMs();
    boolean[] succeeded = t.successes();
    int n = starts.length;
    int okCount = 0;
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      if (succeeded[i]) {
        okCount++;
        long s = starts[i];
        long e = ends[i];
        start = s < start ? s : start;
        end = e > end ? e : end;
      }
    }
    if (okCount < MIN_REQUESTS || end <= start) {
      return AuditCheck.notChecked(
          ID,
          okCount
              + " successful requests with timestamps; "
              + MIN_REQUESTS
              + " are needed for "
              + SLICES
              + " slices of 20");
    }
    double width = (end - start) / (double) SLICES;
    int[] done = new int[SLICES];
    // primitive columns per slice (a boxed list per slice cost more than the sorts); each
    // request's start slice is kept (-1: failed or no TTFT) for the second pass. A slice is
    // (long) ((ns - start) / width) held to [0, SLICES - 1], written out (no call per request)
    int[] started = new int[SLICES];
    byte[] startSlice = new byte[n];
    for (int i = 0; i < n; i++) {
      if (!succeeded[i]) {
        startSlice[i] = -1;
        continue;
      }
      long e = (long) ((ends[i] - start) / width);
      done[e < 0 ? 0 : e > SLICES - 1 ? SLICES - 1 : (int) e]++;
      double v = ttfts[i];
      if (Math.abs(v) <= Double.MAX_VALUE) { // finite
        long b = (long) ((starts[i] - start) / width);
        int s = b < 0 ? 0 : b > SLICES - 1 ? SLICES - 1 : (int) b;
        started[s]++;
        startSlice[i] = (byte) s;
      } else {
        startSlice[i] = -1;
      }
    }
    double[][] ttft = new double[SLICES][];
    for (int s = 0; s < SLICES; s++) {
      ttft[s] = new double[started[s]];
    }
    int[] filled = new int[SLICES];
    for (int i = 0; i < n; i++) {
      int s = startSlice[i];
      if (s >= 0) {
        ttft[s][filled[s]++] = ttfts[i];
      }
    }
    double seconds = width / 1e9;
    double[] rate = new double[SLICES];
    for (int s = 0; s < SLICES; s++) {
      rate[s] = done[s] / seconds;
    }
    double medianRate = median(Arrays.copyOfRange(rate, 1, SLICES - 1));
    // the successful requests' finite TTFTs: the timeline has them sorted already
    double medianTtft = medianOfSorted(t.sortedSuccessfulTtftMs());
    List<String> off = new ArrayList<>();
    StringBuilder table = new StringBuilder();
    for (int s = 0; s < SLICES; s++) {
      double m = median(ttft[s]);
      table.append(String.format(Locale.ROOT, "%s%.3g/s %.4g ms", s == 0 ? "" : ", ", rate[s], m));
      String when =
          String.format(
              Locale.ROOT, "slice %d (%.1f-%.1f s)", s + 1, s * seconds, (s + 1) * seconds);
      if (Double.isFinite(m) && medianTtft > 0 && Math.abs(m - medianTtft) > BOUND * medianTtft) {
        off.add(
            String.format(
                Locale.ROOT,
                "%s TTFT median %.4g ms, run %.4g ms (%+.0f%%)%s",
                when,
                m,
                medianTtft,
                (m - medianTtft) / medianTtft * 100,
                s == 0 && m > medianTtft ? ": warm-up leaking into the measured window" : ""));
      }
      if (s > 0
          && s < SLICES - 1
          && medianRate > 0
          && Math.abs(rate[s] - medianRate) > BOUND * medianRate) {
        off.add(
            String.format(
                Locale.ROOT,
                "%s %.3g completions/s, median slice %.3g/s (%+.0f%%)",
                when,
                rate[s],
                medianRate,
                (rate[s] - medianRate) / medianRate * 100));
      }
    }
    String basis =
        String.format(
            Locale.ROOT,
            "%d slices of %.3f s over %d successful requests, bound +-%.0f%%"
                + " (throughput: slices 2-%d against their median; TTFT: each slice against the run median); per slice"
                + " completions/s and TTFT median: %s",
            SLICES,
            seconds,
            okCount,
            BOUND * 100,
            SLICES - 1,
            table);
    return off.isEmpty()
        ? AuditCheck.pass(ID, basis)
        : AuditCheck.warn(
            ID, "drift in the measured window: " + String.join("; ", off) + ". " + basis);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return medianOfSorted(s);
  }

  private static double medianOfSorted(double[] s) {
    if (s.length == 0) {
      return Double.NaN;
    }
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
