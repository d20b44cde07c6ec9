package dev.benchplan.numeric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RadixSortTest {
  private static final double[] SPECIAL = {
    0.0,
    -0.0,
    Double.MIN_VALUE,
    -Double.MIN_VALUE,
    Double.MIN_NORMAL,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.NaN,
    Double.longBitsToDouble(0x7ff0000000000001L), // a signalling NaN payload
    Double.longBitsToDouble(0xfff8000000000000L), // a NaN with the sign bit set
    Double.longBitsToDouble(0xffffffffffffffffL),
    1.0,
    -1.0
  };

  /** Values as the records hold them, with duplicates, specials and a scale per array. */
  private static double[] doubles(SplittableRandom r, int n) {
    double[] a = new double[n];
    int kind = r.nextInt(5);
    for (int i = 0; i < n; i++) {
      a[i] =
          switch (kind) {
            case 0 -> 80 + 40 * r.nextDouble(); // latencies of one magnitude
            case 1 -> r.nextInt(7); // few distinct values (token counts)
            case 2 -> Double.longBitsToDouble(r.nextLong()); // any bit pattern, NaNs included
            case 3 -> r.nextInt(10) == 0 ? SPECIAL[r.nextInt(SPECIAL.length)] : r.nextGaussian();
            default ->
                (r.nextBoolean() ? -1 : 1) * Math.scalb(r.nextDouble(), r.nextInt(-1074, 1024));
          };
    }
    return a;
  }

  private static long[] bits(double[] a) {
    long[] b = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      b[i] = Double.doubleToRawLongBits(a[i]);
    }
    return b;
  }

  @Test
  void doublesInTheJdkOrderBitForBit() {
    SplittableRandom r = new SplittableRandom(7);
    int[] sizes = {0, 1, 2, 63, 64, 65, 1000, RadixSort.WIDE - 1, RadixSort.WIDE, 100_000};
    for (int size : sizes) {
      for (int round = 0; round < 6; round++) {
        double[] a = doubles(r, size);
        double[] expected = a.clone();
        Arrays.sort(expected);
        RadixSort.sort(a);
        assertArrayEquals(bits(expected), bits(a), "size " + size + ", round " + round);
      }
    }
  }

  @Test
  void everySpecialValueAndOrdering() {
    SplittableRandom r = new SplittableRandom(11);
    for (int round = 0; round < 50; round++) {
      double[] a = new double[200 + r.nextInt(200)];
      for (int i = 0; i < a.length; i++) {
        a[i] = SPECIAL[r.nextInt(SPECIAL.length)];
      }
      double[] expected = a.clone();
      Arrays.sort(expected);
      double[] sorted = a.clone();
      RadixSort.sort(sorted);
      assertArrayEquals(bits(expected), bits(sorted), "round " + round);
      // also already sorted and reversed input
      RadixSort.sort(sorted);
      assertArrayEquals(bits(expected), bits(sorted));
    }
  }

  @Test
  void aRangeOnlyTouchesTheRange() {
    SplittableRandom r = new SplittableRandom(3);
    double[] a = doubles(r, 5_000);
    double[] expected = a.clone();
    Arrays.sort(expected, 1_000, 4_500);
    RadixSort.sort(a, 1_000, 4_500);
    assertArrayEquals(bits(expected), bits(a));
    assertThrows(IndexOutOfBoundsException.class, () -> RadixSort.sort(new double[3], 2, 4));
  }

  @Test
  void longsInTheJdkOrder() {
    SplittableRandom r = new SplittableRandom(5);
    int[] sizes = {0, 1, 63, 64, 500, RadixSort.WIDE, 100_000};
    for (int size : sizes) {
      for (int round = 0; round < 6; round++) {
        long[] a = new long[size];
        for (int i = 0; i < size; i++) {
          a[i] =
              switch (round % 3) {
                case 0 -> 1_762_551_534_000_000_000L + r.nextLong(1_000_000_000_000L); // ns stamps
                case 1 -> r.nextLong();
                default -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1}[r.nextInt(5)];
              };
        }
        long[] expected = a.clone();
        Arrays.sort(expected);
        RadixSort.sort(a);
        assertArrayEquals(expected, a, "size " + size + ", round " + round);
      }
    }
  }

  @Test
  void constantColumnsAreLeftAsTheyAre() {
    double[] a = new double[100_000];
    Arrays.fill(a, 64.0);
    RadixSort.sort(a);
    assertEquals(64.0, a[0]);
    assertEquals(64.0, a[a.length - 1]);
  }
}
