package dev.benchplan.diagnostics;

/**
 * Order statistics on sorted arrays (linear interpolation, Hyndman-Fan 7, as numpy and AIPerf use).
 */
final class Quantiles {
  private Quantiles() {}

  static double of(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double h = (sorted.length - 1) * q;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }

  static double median(double[] sorted) {
    return of(sorted, 0.5);
  }

  /** Values in a sorted array that are strictly above {@code x}. */
  static int countAbove(double[] sorted, double x) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return sorted.length - lo;
  }
}
