package dev.benchplan.analysis.stats;

import org.apache.commons.statistics.distribution.TDistribution;
import org.jspecify.annotations.Nullable;

/**
 * The candidate-vs-reference effect on one metric with a Student-t interval and a four-valued
 * verdict. The spread comes from the runs themselves when both sides have n >= 2 (Welch), from the
 * AB/BA pairs when the runs are paired, from the series noise floor when a side has one run, and
 * otherwise there is none (inconclusive). The verdict: {@code no_change} when the whole interval
 * lies inside plus/minus the MDE; {@code regressed}/{@code improved} when the interval excludes
 * zero on that side and the effect reaches the MDE; {@code inconclusive} otherwise. The MDE is the
 * stated one ({@code --mde}), else the series noise floor's for these run counts, else the data's
 * own (80% power); an MDE taken from the compared data itself never supports {@code no_change} (its
 * margin grows with the noise). Runs whose repeats are identical (zero spread: a copied run, a
 * replayed artifact) give no spread at all: the series noise floor stands in, else there is none.
 */
public final class EffectEstimator {
  private EffectEstimator() {}

  /**
   * A standard error at or below this fraction of the means is no spread: repeats that differ only
   * by floating-point rounding (the same records summed in another order). A real measurement's
   * run-to-run CV is many orders of magnitude above it.
   */
  static final double ZERO_SPREAD = 1e-9;

  /**
   * Estimates the effect.
   *
   * @param reference per-run values of the reference side
   * @param candidate per-run values of the candidate side
   * @param direction which way is better
   * @param paired whether reference[i] and candidate[i] are an AB/BA pair
   * @param floor the series noise floor of this metric, or null
   * @param mdeOverridePct a stated MDE in percent ({@code --mde}), or null
   */
  public static Effect estimate(
      double[] reference,
      double[] candidate,
      Direction direction,
      boolean paired,
      @Nullable NoiseFloor floor,
      @Nullable Double mdeOverridePct) {
    int nr = reference.length;
    int nc = candidate.length;
    double mr = mean(reference);
    double mc = mean(candidate);
    double delta = mc - mr;
    double se = Double.NaN;
    double df = Double.NaN;
    @Nullable String method = null;
    if (paired && nr == nc && nr >= 2) {
      double[] d = new double[nr];
      for (int i = 0; i < nr; i++) {
        d[i] = candidate[i] - reference[i];
      }
      se = Math.sqrt(variance(d) / nr);
      df = nr - 1;
      method = "paired_t";
    } else if (nr >= 2 && nc >= 2) {
      double vr = variance(reference) / nr;
      double vc = variance(candidate) / nc;
      se = Math.sqrt(vr + vc);
      df = (vr + vc) * (vr + vc) / (vr * vr / (nr - 1) + vc * vc / (nc - 1));
      method = "welch_t";
    }
    if (method != null && !(se > ZERO_SPREAD * Math.max(Math.abs(mr), Math.abs(mc)))) {
      // identical repeats (a copied run, a replayed artifact) say nothing about the noise: their
      // zero-width interval and zero MDE would call any difference, however small, a change
      method = null;
    }
    if (method == null && floor != null && Double.isFinite(floor.cv()) && floor.runs() >= 2) {
      se = floor.cv() * Math.abs(mr) * Math.sqrt(1.0 / nr + 1.0 / nc);
      df = floor.degreesOfFreedom();
      method = "series_noise_floor";
    }
    if (method == null || !(se > 0)) {
      double pct = mr == 0 ? Double.NaN : delta / Math.abs(mr) * 100;
      double mde = mdeOverridePct == null ? Double.NaN : mdeOverridePct;
      return new Effect(
          mr,
          mc,
          delta,
          pct,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          "none",
          Double.NaN,
          mde,
          mdeOverridePct == null ? "none" : "--mde",
          EffectVerdict.INCONCLUSIVE);
    }
    // here se > 0: a finite df (n - 1, Welch's, or the noise floor's)
    TDistribution t = TDistribution.of(df);
    double tCrit = t.inverseSurvivalProbability(NoiseFloor.ALPHA / 2);
    double tPower = t.inverseSurvivalProbability(1 - NoiseFloor.POWER);
    double half = tCrit * se;
    double scale = Math.abs(mr);
    double pct = scale == 0 ? Double.NaN : delta / scale * 100;
    double lowPct = scale == 0 ? Double.NaN : (delta - half) / scale * 100;
    double highPct = scale == 0 ? Double.NaN : (delta + half) / scale * 100;
    double mde;
    String mdeSource;
    if (mdeOverridePct != null) {
      mde = mdeOverridePct;
      mdeSource = "--mde";
    } else if (floor != null && Double.isFinite(floor.cv()) && floor.runs() >= 2) {
      mde = NoiseFloor.mdePct(floor.cv(), floor.degreesOfFreedom(), nr, nc);
      mdeSource = "series_noise_floor";
    } else {
      mde = scale == 0 ? Double.NaN : (tCrit + tPower) * se / scale * 100;
      mdeSource = "data";
    }
    EffectVerdict verdict = verdict(pct, lowPct, highPct, mde, direction);
    if (verdict == EffectVerdict.NO_CHANGE && mdeSource.equals("data")) {
      // an equivalence margin taken from the same noisy data grows with the noise: it proves
      // nothing
      verdict = EffectVerdict.INCONCLUSIVE;
    }
    return new Effect(
        mr,
        mc,
        delta,
        pct,
        delta - half,
        delta + half,
        lowPct,
        highPct,
        method,
        df,
        mde,
        mdeSource,
        verdict);
  }

  static EffectVerdict verdict(
      double pct, double lowPct, double highPct, double mde, Direction direction) {
    if (!Double.isFinite(pct) || !Double.isFinite(lowPct) || !Double.isFinite(mde)) {
      return EffectVerdict.INCONCLUSIVE;
    }
    if (lowPct >= -mde && highPct <= mde) {
      return EffectVerdict.NO_CHANGE;
    }
    // "better" interval: flip the sign for lower-is-better metrics
    double betterLow = direction.sign() > 0 ? lowPct : -highPct;
    double betterHigh = direction.sign() > 0 ? highPct : -lowPct;
    if (Math.abs(pct) >= mde && betterHigh < 0) {
      return EffectVerdict.REGRESSED;
    }
    if (Math.abs(pct) >= mde && betterLow > 0) {
      return EffectVerdict.IMPROVED;
    }
    return EffectVerdict.INCONCLUSIVE;
  }

  static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return v.length == 0 ? Double.NaN : s / v.length;
  }

  static double variance(double[] v) {
    double m = mean(v);
    double ss = 0;
    for (double x : v) {
      ss += (x - m) * (x - m);
    }
    return v.length < 2 ? Double.NaN : ss / (v.length - 1);
  }
}
