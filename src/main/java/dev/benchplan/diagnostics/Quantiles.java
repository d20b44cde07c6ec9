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

  /**
   * {@link #median} of values not sorted (reordered in place): the two order statistics it reads,
   * found by selection instead of a sort of the whole array. The values must be finite and without
   * -0.0 (selection, unlike a sort, does not order -0.0 before 0.0).
   */
  static double medianOfUnsorted(double[] values) {
    int n = values.length;
    if (n == 0) {
      return Double.NaN;
    }
    double h = (n - 1) * 0.5;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, n - 1);
    select(values, lo);
    double a = values[lo];
    double b = a;
    if (hi > lo) { // the next order statistic: the least of what selection left above lo
      b = values[hi];
      for (int i = hi + 1; i < n; i++) {
        b = values[i] < b ? values[i] : b;
      }
    }
    return a + (h - lo) * (b - a);
  }

  /**
   * Puts the k-th smallest value at index k, the smaller ones before it and the others after it
   * (quickselect, median-of-three pivots).
   */
  private static void select(double[] a, int k) {
    int left = 0;
    int right = a.length - 1;
    while (right > left) {
      int mid = (left + right) >>> 1;
      // median of three to a[mid]
      if (a[mid] < a[left]) {
        swap(a, mid, left);
      }
      if (a[right] < a[left]) {
        swap(a, right, left);
      }
      if (a[right] < a[mid]) {
        swap(a, right, mid);
      }
      double pivot = a[mid];
      int i = left;
      int j = right;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (pivot < a[j]) {
          j--;
        }
        if (i <= j) {
          swap(a, i, j);
          i++;
          j--;
        }
      }
      // [left, j] <= pivot <= [i, right], and anything between equals the pivot
      if (k <= j) {
        right = j;
      } else if (k >= i) {
        left = i;
      } else {
        return;
      }
    }
  }

  private static void swap(double[] a, int i, int j) {
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
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
