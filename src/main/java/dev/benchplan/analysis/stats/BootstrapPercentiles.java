package dev.benchplan.analysis.stats;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.descriptive.Quantile;
import org.apache.commons.statistics.distribution.BetaDistribution;
import org.apache.commons.statistics.distribution.ContinuousDistribution;

/**
 * Percentiles of per-request values with a percentile-bootstrap confidence interval.
 *
 * <p>Each bootstrap resample is n draws with replacement; its percentile (linear interpolation
 * between order statistics k and k+1) depends only on which original order statistics land at ranks
 * k and k+1 of the resample. Those ranks are drawn exactly: the k-th smallest of n uniform indices
 * is {@code ceil(n * U)} with {@code U ~ Beta(k, n-k+1)}, and the next one follows as {@code U +
 * (1-U) * Beta(1, n-k)}. This is the same distribution as resampling n records, at two Beta draws
 * per resample instead of n, so 100,000 requests cost no more than 100.
 *
 * <p>Seeded with {@link java.util.SplittableRandom} (a specified algorithm): same values and seed,
 * byte-identical intervals.
 */
public final class BootstrapPercentiles {
  /** Bootstrap resamples per interval. */
  public static final int RESAMPLES = 2000;

  /** The fixed seed (recorded in every document that carries an interval). */
  public static final long SEED = 20261201L;

  /** Two-sided confidence level of the intervals. */
  public static final double CONFIDENCE = 0.95;

  /**
   * Requests needed beyond (and below) a percentile for it to be estimable: with fewer than 10 in
   * the tail the interval cannot move past the sample extremes. p99 needs 1,000 (Dynamo's decision
   * API refuses p99 below 1,000), p95 200, p90 100, p50 20.
   */
  public static final int TAIL_MINIMUM = 10;

  // withCopy: the sorted input is indexed afterwards and must not be reordered by selection
  private static final Quantile HF7 =
      Quantile.withDefaults().with(Quantile.EstimationMethod.HF7).withCopy(true);

  private BootstrapPercentiles() {}

  /** The minimum number of samples for percentile {@code p} (0..100). */
  public static long minimumSamples(double p) {
    double tail = Math.min(p, 100 - p) / 100.0;
    return (long) Math.ceil(TAIL_MINIMUM / tail - 1e-9);
  }

  /**
   * The estimate of percentile {@code p} (0..100) of {@code sorted} (ascending, finite); {@code
   * stream} separates the random streams of different metrics so each is reproducible alone.
   */
  public static PercentileEstimate estimate(double[] sorted, double p, long stream) {
    int n = sorted.length;
    long minimum = minimumSamples(p);
    if (n == 0) {
      return new PercentileEstimate(p, Double.NaN, Double.NaN, Double.NaN, 0, minimum, false);
    }
    double value = ofSorted(sorted, p / 100.0);
    if (n < minimum) {
      return new PercentileEstimate(p, value, Double.NaN, Double.NaN, n, minimum, false);
    }
    double h = (n - 1) * (p / 100.0) + 1; // HF7 position, 1-based
    int k = (int) Math.floor(h);
    double frac = h - k;
    SplittableRandom random =
        new SplittableRandom(SEED ^ (stream * 0x9E3779B97F4A7C15L) ^ Double.doubleToLongBits(p));
    UniformRandomProvider rng = random::nextLong;
    ContinuousDistribution.Sampler first = BetaDistribution.of(k, n - k + 1).createSampler(rng);
    ContinuousDistribution.Sampler next =
        k < n ? BetaDistribution.of(1, n - k).createSampler(rng) : null;
    double[] boot = new double[RESAMPLES];
    for (int b = 0; b < RESAMPLES; b++) {
      double u = first.sample();
      double lo = sorted[index(u, n)];
      double hi = lo;
      if (next != null && frac > 0) {
        double u2 = u + (1 - u) * next.sample();
        hi = sorted[index(u2, n)];
      }
      boot[b] = lo + frac * (hi - lo);
    }
    Arrays.sort(boot);
    double alpha = 1 - CONFIDENCE;
    double[] ci = HF7.evaluate(boot, alpha / 2, 1 - alpha / 2);
    return new PercentileEstimate(p, value, ci[0], ci[1], n, minimum, true);
  }

  /**
   * Quantile {@code q} (0..1) of an ascending array of finite values, by Hyndman-Fan 7: exactly
   * what Commons Statistics' {@code Quantile} (HF7) gives, the same arithmetic on the same order
   * statistics, without its copy of the array and its selection (a sorted array has them in place;
   * a copy and a selection of 100,000 values per percentile was half of the run documents' time).
   */
  public static double ofSorted(double[] sorted, double q) {
    int n = sorted.length;
    if (!(q >= 0 && q <= 1) || n <= 1) {
      return HF7.evaluate(sorted, q); // the library's checks and its answer for n <= 1
    }
    // Quantile.EstimationMethod.HF7: position (n - 1) q, held to [0, n - 1]
    double pos = (n - 1) * q;
    if (pos < 0) {
      pos = 0;
    } else if (pos > n - 1.0) {
      pos = n - 1.0;
    }
    int i = (int) pos;
    if (!(pos > i)) {
      return sorted[i];
    }
    // Commons Statistics' Interpolation.interpolate(a, b, t)
    double a = sorted[i];
    double b = sorted[i + 1];
    double t = pos - i;
    if (a <= 0 && b >= 0) {
      return t * b + (1 - t) * a;
    }
    if (a == b) {
      return a;
    }
    return a + t * (b - a);
  }

  private static int index(double u, int n) {
    int i = (int) Math.ceil(n * u) - 1;
    return Math.max(0, Math.min(n - 1, i));
  }
}
