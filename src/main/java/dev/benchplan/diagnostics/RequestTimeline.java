package dev.benchplan.diagnostics;

import java.util.Arrays;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The timings of one run's measured (profiling-phase) requests, one entry per request, in record
 * order: start and end (epoch ns, AIPerf's {@code request_start_ns}/{@code request_end_ns}), time
 * to first token (ms, NaN when the record has none) and whether the request succeeded. Records
 * without usable timestamps are not in it (the audit names them). Columns, not objects: a run may
 * hold millions of requests.
 */
public final class RequestTimeline {
  private final long[] start;
  private final long[] end;
  private final double[] ttftMs;
  private final boolean[] ok;

  // where the sorted successful TTFTs come from when someone already sorts the same values (see
  // Builder#build(Supplier)), or null
  private final @Nullable Supplier<double[]> sortedTtftSource;

  private RequestTimeline(
      long[] start,
      long[] end,
      double[] ttftMs,
      boolean[] ok,
      @Nullable Supplier<double[]> sortedTtftSource) {
    this.start = start;
    this.end = end;
    this.ttftMs = ttftMs;
    this.ok = ok;
    this.sortedTtftSource = sortedTtftSource;
  }

  /** An empty timeline. */
  public static RequestTimeline empty() {
    return new Builder().build();
  }

  /** Requests in the timeline. */
  public int size() {
    return start.length;
  }

  public long startNs(int i) {
    return start[i];
  }

  public long endNs(int i) {
    return end[i];
  }

  /** Time to first token in ms, NaN when absent (failed or non-streaming requests). */
  public double ttftMs(int i) {
    return ttftMs[i];
  }

  public boolean succeeded(int i) {
    return ok[i];
  }

  // The columns themselves, for loops over every request: a run-once loop over 100,000 requests
  // runs in the interpreter, where a call per value costs far more than an array read.

  /** The start times in record order (shared: callers must not modify it). */
  public long[] startsNs() {
    return start;
  }

  /** The end times in record order (shared: callers must not modify it). */
  public long[] endsNs() {
    return end;
  }

  /** The TTFTs (ms, NaN when absent) in record order (shared: callers must not modify it). */
  public double[] ttftsMs() {
    return ttftMs;
  }

  /** Whether each request succeeded, in record order (shared: callers must not modify it). */
  public boolean[] successes() {
    return ok;
  }

  // the sorted columns, each computed once when first asked for (the stall detector, the client
  // bound check and the audit's time slices ask for the same ones); guarded by this
  private long @Nullable [] sortedStarts;
  private long @Nullable [] sortedEnds;
  private double @Nullable [] sortedTtft;

  /** The start times, sorted (shared: callers must not modify it). */
  synchronized long[] sortedStarts() {
    long[] s = sortedStarts;
    if (s == null) {
      s = start.clone();
      Arrays.sort(s);
      sortedStarts = s;
    }
    return s;
  }

  /** The end times, sorted (shared: callers must not modify it). */
  synchronized long[] sortedEnds() {
    long[] e = sortedEnds;
    if (e == null) {
      e = end.clone();
      Arrays.sort(e);
      sortedEnds = e;
    }
    return e;
  }

  /** The finite TTFTs of the successful requests, sorted (shared: callers must not modify it). */
  synchronized double[] sortedTtft() {
    double[] v = sortedTtft;
    if (v == null && sortedTtftSource != null) {
      v = sortedTtftSource.get();
      sortedTtft = v;
    }
    if (v == null) {
      double[] out = new double[ttftMs.length];
      int n = 0;
      for (int i = 0; i < ttftMs.length; i++) {
        double x = ttftMs[i];
        if (ok[i] && Math.abs(x) <= Double.MAX_VALUE) { // finite (no call: interpreted loop)
          out[n++] = x;
        }
      }
      v = Arrays.copyOf(out, n);
      Arrays.sort(v);
      sortedTtft = v;
    }
    return v;
  }

  /** A sorted copy of the finite TTFTs (ms) of the successful requests. */
  public double[] sortedSuccessfulTtftMs() {
    return sortedTtft().clone();
  }

  /**
   * The median latency (end - start, ms) of every request ({@link Quantiles#median} of the sorted
   * latencies, found by selection: the stall detector and the client-bound check need only the
   * median, and a sort of every latency cost them more than the rest of their work).
   */
  synchronized double medianLatencyMs() {
    double m = medianLatencyMs;
    if (Double.isNaN(m) && start.length > 0) {
      // end >= start: finite, never -0.0 (what the selection needs)
      m = Quantiles.medianOfUnsorted(latenciesMs());
      medianLatencyMs = m;
    }
    return m;
  }

  private double medianLatencyMs = Double.NaN;

  private double[] latenciesMs() {
    double[] v = new double[start.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = (end[i] - start[i]) / 1e6;
    }
    return v;
  }

  /** Collects a timeline request by request. */
  public static final class Builder {
    private long[] start = new long[64];
    private long[] end = new long[64];
    private double[] ttft = new double[64];
    private boolean[] ok = new boolean[64];
    private int size;

    /** Makes room for {@code n} requests in all. */
    public Builder ensureCapacity(int n) {
      if (n > start.length) {
        start = Arrays.copyOf(start, n);
        end = Arrays.copyOf(end, n);
        ttft = Arrays.copyOf(ttft, n);
        ok = Arrays.copyOf(ok, n);
      }
      return this;
    }

    /** Adds one request; {@code endNs} must not precede {@code startNs}. */
    public Builder add(long startNs, long endNs, double ttftMs, boolean succeeded) {
      if (endNs < startNs) {
        throw new IllegalArgumentException(
            "a request ends before it starts: " + startNs + " > " + endNs);
      }
      if (size == start.length) {
        int n = size * 2;
        start = Arrays.copyOf(start, n);
        end = Arrays.copyOf(end, n);
        ttft = Arrays.copyOf(ttft, n);
        ok = Arrays.copyOf(ok, n);
      }
      start[size] = startNs;
      end[size] = endNs;
      ttft[size] = ttftMs;
      ok[size] = succeeded;
      size++;
      return this;
    }

    public RequestTimeline build() {
      return build(null);
    }

    /**
     * The timeline, taking its sorted successful TTFTs from {@code sortedSuccessfulTtftMs} when
     * first asked for them (its result is kept and shared): for a caller that sorts exactly those
     * values anyway (the records scan, when every measured request has usable timestamps).
     */
    public RequestTimeline build(@Nullable Supplier<double[]> sortedSuccessfulTtftMs) {
      return new RequestTimeline(
          Arrays.copyOf(start, size),
          Arrays.copyOf(end, size),
          Arrays.copyOf(ttft, size),
          Arrays.copyOf(ok, size),
          sortedSuccessfulTtftMs);
    }
  }
}
