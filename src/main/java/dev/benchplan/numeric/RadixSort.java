package dev.benchplan.numeric;

import java.util.Arrays;
import java.util.Objects;

/**
 * Least-significant-digit radix sorts of {@code double} and {@code long} arrays, giving exactly the
 * array {@link Arrays#sort} gives (bit for bit: -0.0 before 0.0, NaNs last in the same order).
 *
 * <p>Why not {@link Arrays#sort}: benchplan is a short-lived process, and analyze sorts about ten
 * columns of per-request values (100,000 each for a large run) once. The JDK's dual-pivot quicksort
 * is a large body of code that runs interpreted, then in the C1 compiler's profiled code, while the
 * C2 compiler spends about a tenth of a second of CPU compiling it (twice: for {@code double} and
 * for {@code long}). The loops here are a few dozen bytecodes each, compiled in milliseconds, and
 * each pass is a plain sweep over the array. A {@code double} is sorted as its bits with the sign
 * bit flipped when positive and every bit flipped when negative, which orders the keys as the
 * numbers (and -0.0 before 0.0, as {@link Arrays#sort} does).
 *
 * <p>Digits of 11 bits (6 passes) for large arrays, 8 bits (8 passes) for small ones; one sweep
 * counts every digit, and a digit that is the same for every value is not sorted on (most of the
 * sign and exponent bits of latencies). Below {@link #SMALL} values, {@link Arrays#sort} (an
 * insertion sort there) is used as is. A call allocates scratch arrays as large as the range: two
 * of {@code long} for {@code double} values (their keys, and the sort's second buffer), one for
 * {@code long} values.
 */
public final class RadixSort {
  /** Below this many values {@link Arrays#sort} is cheaper than any counting. */
  static final int SMALL = 64;

  /** From this many values up, 11-bit digits; below, 8-bit digits. */
  static final int WIDE = 1 << 14;

  private RadixSort() {}

  /** Sorts {@code a} ascending, as {@link Arrays#sort(double[])} would. */
  public static void sort(double[] a) {
    sort(a, 0, a.length);
  }

  /** Sorts {@code a[from, to)} ascending, as {@link Arrays#sort(double[], int, int)} would. */
  public static void sort(double[] a, int from, int to) {
    Objects.checkFromToIndex(from, to, a.length);
    // NaNs to the end first, exactly as the JDK's sort moves them (so their bit patterns end up
    // in the same places); the rest has no NaN
    int high = to;
    for (int k = to; k > from; ) {
      double ak = a[--k];
      if (Double.isNaN(ak)) {
        a[k] = a[--high];
        a[high] = ak;
      }
    }
    int n = high - from;
    if (n < SMALL) {
      Arrays.sort(a, from, high);
      return;
    }
    long[] keys = new long[n];
    toKeys(a, from, keys, n);
    long[] sorted = sortKeys(keys, n);
    fromKeys(sorted, a, from, n);
  }

  /** Sorts {@code a} ascending, as {@link Arrays#sort(long[])} would. */
  public static void sort(long[] a) {
    int n = a.length;
    if (n < SMALL) {
      Arrays.sort(a);
      return;
    }
    flipSigns(a, n); // signed order is the unsigned order of the values with the sign bit flipped
    long[] sorted = sortKeys(a, n);
    if (sorted != a) {
      System.arraycopy(sorted, 0, a, 0, n);
    }
    flipSigns(a, n);
  }

  /**
   * Sorts the first {@code n} keys as unsigned numbers; returns the array holding the result
   * ({@code keys} or the scratch array).
   */
  private static long[] sortKeys(long[] keys, int n) {
    int bits = n >= WIDE ? 11 : 8;
    int radix = 1 << bits;
    int digits = (64 + bits - 1) / bits;
    int[] counts = new int[digits << bits];
    histograms(keys, n, counts, bits, digits);
    long[] src = keys;
    long[] dst = new long[n];
    for (int d = 0; d < digits; d++) {
      int base = d << bits;
      if (offsets(counts, base, radix, n)) {
        scatter(src, dst, n, counts, base, d * bits, radix - 1);
        long[] t = src;
        src = dst;
        dst = t;
      }
    }
    return src;
  }

  /** Every digit's histogram in one sweep: digit d's counts at {@code [d << bits, +radix)}. */
  private static void histograms(long[] keys, int n, int[] counts, int bits, int digits) {
    int mask = (1 << bits) - 1;
    for (int i = 0; i < n; i++) {
      long k = keys[i];
      for (int d = 0, shift = 0; d < digits; d++, shift += bits) {
        counts[(d << bits) + ((int) (k >>> shift) & mask)]++;
      }
    }
  }

  /**
   * Turns one digit's counts into start offsets; false when every key has the same digit there
   * (nothing to sort on).
   */
  private static boolean offsets(int[] counts, int base, int radix, int n) {
    int sum = 0;
    for (int i = base; i < base + radix; i++) {
      int c = counts[i];
      if (c == n) {
        return false;
      }
      counts[i] = sum;
      sum += c;
    }
    return true;
  }

  private static void scatter(
      long[] src, long[] dst, int n, int[] offsets, int base, int shift, int mask) {
    for (int i = 0; i < n; i++) {
      long k = src[i];
      dst[offsets[base + ((int) (k >>> shift) & mask)]++] = k;
    }
  }

  private static void flipSigns(long[] a, int n) {
    for (int i = 0; i < n; i++) {
      a[i] ^= Long.MIN_VALUE;
    }
  }

  private static void toKeys(double[] a, int from, long[] keys, int n) {
    for (int i = 0; i < n; i++) {
      long b = Double.doubleToRawLongBits(a[from + i]);
      keys[i] = b ^ ((b >> 63) | Long.MIN_VALUE);
    }
  }

  private static void fromKeys(long[] keys, double[] a, int from, int n) {
    for (int i = 0; i < n; i++) {
      long k = keys[i];
      a[from + i] = Double.longBitsToDouble(k ^ ((~k >> 63) | Long.MIN_VALUE));
    }
  }
}
