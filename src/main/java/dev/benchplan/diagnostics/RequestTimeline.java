package dev.benchplan.diagnostics;

import java.util.Arrays;

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

  private RequestTimeline(long[] start, long[] end, double[] ttftMs, boolean[] ok) {
    this.start = start;
    this.end = end;
    this.ttftMs = ttftMs;
    this.ok = ok;
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

  /** Sorted copy of the start times. */
  long[] sortedStarts() {
    long[] s = start.clone();
    Arrays.sort(s);
    return s;
  }

  /** Sorted copy of the end times. */
  long[] sortedEnds() {
    long[] e = end.clone();
    Arrays.sort(e);
    return e;
  }

  /** Sorted finite TTFTs of the successful requests. */
  double[] sortedTtft() {
    double[] out = new double[ttftMs.length];
    int n = 0;
    for (int i = 0; i < ttftMs.length; i++) {
      if (ok[i] && Double.isFinite(ttftMs[i])) {
        out[n++] = ttftMs[i];
      }
    }
    double[] v = Arrays.copyOf(out, n);
    Arrays.sort(v);
    return v;
  }

  /** Sorted latencies (end - start, ms) of every request. */
  double[] sortedLatencyMs() {
    double[] v = new double[start.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = (end[i] - start[i]) / 1e6;
    }
    Arrays.sort(v);
    return v;
  }

  /** Collects a timeline request by request. */
  public static final class Builder {
    private long[] start = new long[64];
    private long[] end = new long[64];
    private double[] ttft = new double[64];
    private boolean[] ok = new boolean[64];
    private int size;

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
      return new RequestTimeline(
          Arrays.copyOf(start, size),
          Arrays.copyOf(end, size),
          Arrays.copyOf(ttft, size),
          Arrays.copyOf(ok, size));
    }
  }
}
