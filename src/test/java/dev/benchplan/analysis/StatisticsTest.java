package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.benchplan.analysis.stats.BootstrapPercentiles;
import dev.benchplan.analysis.stats.NoiseFloor;
import dev.benchplan.analysis.stats.PercentileEstimate;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.statistics.descriptive.Quantile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StatisticsTest {
  static double[] sortedUniform(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextDouble();
    }
    Arrays.sort(v);
    return v;
  }

  @Test
  @DisplayName(
      "a quantile of a sorted array is, to the bit, what Commons Statistics' HF7 Quantile gives")
  void ofSortedIsCommonsHf7() {
    Quantile hf7 = Quantile.withDefaults().with(Quantile.EstimationMethod.HF7).withCopy(true);
    SplittableRandom r = new SplittableRandom(9);
    double[] qs = {0, 1e-9, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1};
    for (int round = 0; round < 3000; round++) {
      int n = round < 2900 ? r.nextInt(60) : 50_000 + r.nextInt(60_000);
      double[] v = new double[n];
      int kind = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        v[i] =
            switch (kind) {
              case 0 -> 80 + 40 * r.nextDouble(); // latencies
              case 1 -> r.nextInt(5); // few distinct values, zeros included
              case 2 -> -1 + 2 * r.nextDouble(); // both signs
              default -> r.nextDouble() < 0.5 ? -0.0 : 1e-300 * r.nextInt(3); // zeros and tiny
            };
      }
      Arrays.sort(v);
      for (double q : qs) {
        assertThat(Double.doubleToRawLongBits(BootstrapPercentiles.ofSorted(v, q)))
            .as("n %d, q %s", n, q)
            .isEqualTo(Double.doubleToRawLongBits(hf7.evaluate(v, q)));
      }
      double q = r.nextDouble();
      assertThat(Double.doubleToRawLongBits(BootstrapPercentiles.ofSorted(v, q)))
          .as("n %d, q %s", n, q)
          .isEqualTo(Double.doubleToRawLongBits(hf7.evaluate(v, q)));
    }
  }

  @Test
  @DisplayName("minimum samples: p50 20, p90 100, p95 200, p99 1000; one fewer is not estimable")
  void minimums() {
    assertThat(BootstrapPercentiles.minimumSamples(50)).isEqualTo(20);
    assertThat(BootstrapPercentiles.minimumSamples(90)).isEqualTo(100);
    assertThat(BootstrapPercentiles.minimumSamples(95)).isEqualTo(200);
    assertThat(BootstrapPercentiles.minimumSamples(99)).isEqualTo(1000);
    assertThat(BootstrapPercentiles.estimate(sortedUniform(999, 1), 99, 0).estimable()).isFalse();
    assertThat(BootstrapPercentiles.estimate(sortedUniform(1000, 1), 99, 0).estimable()).isTrue();
  }

  @Test
  @DisplayName(
      "the order-statistic bootstrap matches a naive resampling bootstrap and covers the true p90")
  void matchesNaiveBootstrap() {
    double[] v = sortedUniform(400, 3);
    PercentileEstimate fast = BootstrapPercentiles.estimate(v, 90, 0);
    SplittableRandom r = new SplittableRandom(99);
    Quantile q = Quantile.withDefaults().with(Quantile.EstimationMethod.HF7);
    double[] boot = new double[4000];
    double[] sample = new double[v.length];
    for (int b = 0; b < boot.length; b++) {
      for (int i = 0; i < v.length; i++) {
        sample[i] = v[r.nextInt(v.length)];
      }
      boot[b] = q.evaluate(sample, 0.9);
    }
    double[] naive = q.evaluate(boot, 0.025, 0.975);
    double step = 1.0 / v.length; // about one order statistic of a uniform sample
    assertThat(fast.ciLow()).isCloseTo(naive[0], offset(3 * step));
    assertThat(fast.ciHigh()).isCloseTo(naive[1], offset(3 * step));
    assertThat(fast.ciLow()).isLessThan(0.9);
    assertThat(fast.ciHigh()).isGreaterThan(0.9);
  }

  @Test
  @DisplayName("same values and seed: identical interval; another metric stream: another draw")
  void deterministic() {
    double[] v = sortedUniform(5000, 5);
    PercentileEstimate a = BootstrapPercentiles.estimate(v, 99, 0);
    PercentileEstimate b = BootstrapPercentiles.estimate(v, 99, 0);
    PercentileEstimate c = BootstrapPercentiles.estimate(v, 99, 1);
    assertThat(a).isEqualTo(b);
    assertThat(c.ciLow() != a.ciLow() || c.ciHigh() != a.ciHigh()).isTrue();
  }

  @Test
  @DisplayName(
      "noise floor, n = 3: the CV interval is about 0.52-6.3 x the sample CV, as the rule says")
  void noiseFloor() {
    NoiseFloor f = NoiseFloor.of("x", new double[] {4950, 5050, 5000});
    assertThat(f.cv()).isCloseTo(0.01, offset(1e-9));
    assertThat(f.cvLow() / f.cv()).isCloseTo(0.52, offset(0.01));
    assertThat(f.cvHigh() / f.cv()).isCloseTo(6.28, offset(0.05));
    // (t(0.975, 2) + t(0.8, 2)) x 1% x sqrt(2) = (4.303 + 1.061) x 1.414%
    assertThat(f.mdePct1v1()).isCloseTo(7.59, offset(0.02));
  }
}
