package dev.benchplan.analysis.stats;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The run-to-run noise of one metric from repeated runs of one unchanged configuration (the series
 * pilot): the coefficient of variation, its chi-square confidence interval (with n = 3 it spans
 * about 0.52-6.3 x the sample value) and the minimum detectable effect it implies.
 *
 * @param metric metric key, e.g. {@code output_token_throughput.avg}
 * @param runs how many runs
 * @param mean their mean
 * @param stdDev their standard deviation (n-1)
 * @param cv stdDev / mean
 * @param cvLow lower 95% bound of the CV
 * @param cvHigh upper 95% bound of the CV
 * @param mdePct1v1 minimum detectable effect (percent of the mean) of a 1-vs-1 comparison at alpha
 *     0.05 two-sided and 80% power
 * @param mdePct3v3 the same for 3 vs 3 runs
 */
public record NoiseFloor(
    String metric,
    int runs,
    double mean,
    double stdDev,
    double cv,
    double cvLow,
    double cvHigh,
    double mdePct1v1,
    double mdePct3v3) {
  /** Power the minimum detectable effect is stated at. */
  public static final double POWER = 0.80;

  /** Two-sided significance level. */
  public static final double ALPHA = 0.05;

  /** Degrees of freedom of the spread estimate. */
  public int degreesOfFreedom() {
    return runs - 1;
  }

  /** The noise floor of {@code values} (at least two runs). */
  public static NoiseFloor of(String metric, double[] values) {
    int n = values.length;
    if (n < 2) {
      throw new IllegalArgumentException("a noise floor needs at least two runs, got " + n);
    }
    double mean = 0;
    for (double v : values) {
      mean += v;
    }
    mean /= n;
    double ss = 0;
    for (double v : values) {
      ss += (v - mean) * (v - mean);
    }
    double sd = Math.sqrt(ss / (n - 1));
    double cv = mean == 0 ? Double.NaN : sd / Math.abs(mean);
    ChiSquaredDistribution chi = ChiSquaredDistribution.of(n - 1);
    double cvLow = cv * Math.sqrt((n - 1) / chi.inverseCumulativeProbability(1 - ALPHA / 2));
    double cvHigh = cv * Math.sqrt((n - 1) / chi.inverseCumulativeProbability(ALPHA / 2));
    return new NoiseFloor(
        metric, n, mean, sd, cv, cvLow, cvHigh, mdePct(cv, n - 1, 1, 1), mdePct(cv, n - 1, 3, 3));
  }

  /**
   * Minimum detectable effect in percent for a comparison of nA vs nB runs whose per-run CV is
   * {@code cv}, estimated with {@code df} degrees of freedom: (t(1-alpha/2) + t(power)) x cv x
   * sqrt(1/nA + 1/nB) x 100.
   */
  public static double mdePct(double cv, double df, int nA, int nB) {
    if (!Double.isFinite(cv) || !(df > 0)) {
      return Double.NaN;
    }
    TDistribution t = TDistribution.of(df);
    double factor =
        t.inverseSurvivalProbability(ALPHA / 2) + t.inverseSurvivalProbability(1 - POWER);
    return factor * cv * Math.sqrt(1.0 / nA + 1.0 / nB) * 100;
  }
}
