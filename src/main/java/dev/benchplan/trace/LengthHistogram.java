package dev.benchplan.trace;

import java.util.Arrays;

/**
 * Exact distribution of non-negative token lengths in memory independent of the number of rows: a
 * counting histogram for lengths below {@link #DENSE_LIMIT} (grown on demand) and a primitive array
 * for the rare longer ones. Gives nearest-rank percentiles and the exact mean.
 */
final class LengthHistogram {
  /** Lengths below this are counted in a dense array (8 MB at most); longer ones are kept raw. */
  static final int DENSE_LIMIT = 1 << 20;

  private long[] counts = new long[1 << 12];
  private long[] large = new long[0];
  private int largeCount;
  private long count;
  private long sum;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;

  void add(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("negative length " + value);
    }
    count++;
    sum += value;
    if (value < min) {
      min = value;
    }
    if (value > max) {
      max = value;
    }
    if (value < counts.length) {
      counts[(int) value]++;
    } else if (value < DENSE_LIMIT) {
      int grown = Math.min(DENSE_LIMIT, Integer.highestOneBit((int) value) << 1);
      counts = Arrays.copyOf(counts, grown);
      counts[(int) value]++;
    } else {
      if (largeCount == large.length) {
        large = Arrays.copyOf(large, Math.max(16, largeCount * 2));
      }
      large[largeCount++] = value;
    }
  }

  long count() {
    return count;
  }

  /**
   * The nearest-rank percentile: the value at 1-based rank ceil(p/100 * n) of the sorted values.
   *
   * @param percent 1..100
   */
  long percentile(int percent) {
    if (count == 0) {
      throw new IllegalStateException("no values");
    }
    if (percent < 1 || percent > 100) {
      throw new IllegalArgumentException("percent must be in 1..100, got " + percent);
    }
    // ceil(p * n / 100) in exact integer arithmetic; n < 2^56 in any real trace
    long rank = Math.max(1, (percent * count + 99) / 100);
    long seen = 0;
    for (int v = 0; v < counts.length; v++) {
      seen += counts[v];
      if (seen >= rank) {
        return v;
      }
    }
    Arrays.sort(large, 0, largeCount);
    return large[(int) (rank - seen - 1)];
  }

  /** The report's summary; every statistic is null when there are no values. */
  TraceReport.LengthSummary toSummary() {
    if (count == 0) {
      return new TraceReport.LengthSummary(0, null, null, null, null, null, null, null);
    }
    return new TraceReport.LengthSummary(
        count,
        min,
        max,
        (double) sum / count,
        percentile(50),
        percentile(90),
        percentile(95),
        percentile(99));
  }
}
