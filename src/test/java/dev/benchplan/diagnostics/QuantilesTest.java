package dev.benchplan.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class QuantilesTest {
  @Test
  @DisplayName("the median by selection is, to the bit, the median of the sorted values")
  void medianOfUnsortedIsMedianOfSorted() {
    SplittableRandom r = new SplittableRandom(13);
    for (int round = 0; round < 5000; round++) {
      int n = round < 4950 ? 1 + r.nextInt(300) : 50_000 + r.nextInt(60_000);
      double[] v = new double[n];
      int kind = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        v[i] =
            switch (kind) {
              case 0 -> 100 + 900 * r.nextDouble(); // latencies
              case 1 -> r.nextInt(3); // few distinct values, 0.0 included
              case 2 -> i; // sorted already
              default -> n - i; // reversed
            };
      }
      double[] sorted = v.clone();
      Arrays.sort(sorted);
      assertThat(Double.doubleToRawLongBits(Quantiles.medianOfUnsorted(v)))
          .as("round %d, n %d", round, n)
          .isEqualTo(Double.doubleToRawLongBits(Quantiles.median(sorted)));
    }
  }

  @Test
  @DisplayName("a timeline's median latency is the median of its sorted latencies")
  void timelineMedianLatency() {
    RequestTimeline.Builder b = new RequestTimeline.Builder();
    long[][] requests = {{0, 300_000_000}, {5, 100_000_005}, {10, 200_000_010}, {20, 400_000_020}};
    for (long[] q : requests) {
      b.add(q[0], q[1], 1, true);
    }
    assertThat(b.build().medianLatencyMs()).isEqualTo(250.0);
    assertThat(RequestTimeline.empty().medianLatencyMs()).isNaN();
  }
}
