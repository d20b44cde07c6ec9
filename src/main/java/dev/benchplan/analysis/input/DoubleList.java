package dev.benchplan.analysis.input;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** A growable array of doubles (per-request values; a boxed list would triple the memory). */
public final class DoubleList {
  private double[] values = new double[256];
  private int size;

  // sortedFinite()'s result until the next add (the audit, the summary and the report each ask)
  private volatile double @Nullable [] sorted;

  public void add(double v) {
    if (sorted != null) { // a volatile read is cheap; a volatile write per value is not
      sorted = null;
    }
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  /**
   * Makes room for {@code n} values in all (a scan that knows about how many records a file holds
   * asks once, instead of copying the array as it doubles).
   */
  public void ensureCapacity(int n) {
    if (n > values.length) {
      values = Arrays.copyOf(values, n);
    }
  }

  public int size() {
    return size;
  }

  public double get(int i) {
    return values[i];
  }

  /** A copy of the values. */
  public double[] toArray() {
    return Arrays.copyOf(values, size);
  }

  /** A sorted copy of the finite values (NaN marks a value the record did not have). */
  public double[] sortedFinite() {
    double[] cached = sorted;
    if (cached == null) {
      // one sort however many threads ask (RecordScan#sortAhead sorts on another core)
      synchronized (this) {
        cached = sorted;
        if (cached == null) {
          cached = sortFinite();
          sorted = cached;
        }
      }
    }
    return Arrays.copyOf(cached, cached.length);
  }

  /** Sorts now, so that later {@link #sortedFinite} calls find the result. */
  void sortAhead() {
    sortedFinite();
  }

  private double[] sortFinite() {
    double[] out = new double[size];
    int n = 0;
    double[] all = values;
    for (int i = 0; i < size; i++) {
      double x = all[i];
      if (Math.abs(x) <= Double.MAX_VALUE) { // finite (no call: this loop runs interpreted)
        out[n++] = x;
      }
    }
    double[] trimmed = n == out.length ? out : Arrays.copyOf(out, n);
    Arrays.sort(trimmed);
    return trimmed;
  }
}
