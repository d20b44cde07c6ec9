package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.stats.Direction;
import dev.benchplan.analysis.stats.Effect;
import dev.benchplan.analysis.stats.EffectEstimator;
import dev.benchplan.analysis.stats.EffectVerdict;
import dev.benchplan.analysis.stats.NoiseFloor;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The compare verdict is calibrated on generated runs whose truth is known by construction. */
class CalibrationTest {
  static final int TRIALS = 2000;

  static double[] runs(SplittableRandom r, int n, double mean, double cv) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = mean * (1 + cv * gaussian(r));
    }
    return v;
  }

  static double gaussian(SplittableRandom r) {
    // Box-Muller on the seeded stream (java.util.Random#nextGaussian is not on SplittableRandom in
    // 17)
    double u1 = r.nextDouble();
    double u2 = r.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  }

  @Test
  @DisplayName("A/A, n=3 vs 3, CV 2%: false regressed + improved <= 5% over 2000 comparisons")
  void aa() {
    SplittableRandom r = new SplittableRandom(7);
    int regressed = 0;
    int improved = 0;
    for (int i = 0; i < TRIALS; i++) {
      Effect e =
          EffectEstimator.estimate(
              runs(r, 3, 5000, 0.02),
              runs(r, 3, 5000, 0.02),
              Direction.HIGHER_IS_BETTER,
              false,
              null,
              null);
      if (e.verdict() == EffectVerdict.REGRESSED) {
        regressed++;
      } else if (e.verdict() == EffectVerdict.IMPROVED) {
        improved++;
      }
    }
    double rate = (regressed + improved) / (double) TRIALS;
    System.out.printf(
        "calibration A/A: regressed %d, improved %d of %d -> false rate %.4f%n",
        regressed, improved, TRIALS, rate);
    assertThat(rate).isLessThanOrEqualTo(0.05);
  }

  @Test
  @DisplayName("true 10% throughput drop, n=3 vs 3, CV 2%: regressed >= 80% over 2000 comparisons")
  void power() {
    SplittableRandom r = new SplittableRandom(11);
    int regressed = 0;
    int improved = 0;
    for (int i = 0; i < TRIALS; i++) {
      Effect e =
          EffectEstimator.estimate(
              runs(r, 3, 5000, 0.02),
              runs(r, 3, 4500, 0.02),
              Direction.HIGHER_IS_BETTER,
              false,
              null,
              null);
      if (e.verdict() == EffectVerdict.REGRESSED) {
        regressed++;
      } else if (e.verdict() == EffectVerdict.IMPROVED) {
        improved++;
      }
    }
    double rate = regressed / (double) TRIALS;
    System.out.printf(
        "calibration 10%% drop: regressed %d of %d -> power %.4f (improved %d)%n",
        regressed, TRIALS, rate, improved);
    assertThat(rate).isGreaterThanOrEqualTo(0.80);
    assertThat(improved).isZero();
  }

  @Test
  @DisplayName(
      "a TTFT rise (lower is better) is regressed; a 0.1% change is never improved/regressed")
  void directionAndTinyChange() {
    Effect rise =
        EffectEstimator.estimate(
            new double[] {100, 101, 99},
            new double[] {150, 152, 149},
            Direction.LOWER_IS_BETTER,
            false,
            null,
            null);
    assertThat(rise.verdict()).isEqualTo(EffectVerdict.REGRESSED);
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 500; i++) {
      Effect tiny =
          EffectEstimator.estimate(
              runs(r, 3, 5000, 0.02),
              runs(r, 3, 5005, 0.02),
              Direction.HIGHER_IS_BETTER,
              false,
              null,
              5.0);
      assertThat(tiny.verdict()).isIn(EffectVerdict.NO_CHANGE, EffectVerdict.INCONCLUSIVE);
    }
  }

  @Test
  @DisplayName(
      "identical repeats (zero spread) are no noise estimate: a 0.01% drop is inconclusive, not"
          + " regressed; the series noise floor stands in when there is one")
  void zeroSpread() {
    double[] ref = {100, 100, 100};
    double[] cand = {99.99, 99.99, 99.99};
    for (boolean paired : new boolean[] {false, true}) {
      Effect e =
          EffectEstimator.estimate(ref, cand, Direction.HIGHER_IS_BETTER, paired, null, null);
      assertThat(e.verdict()).as("paired %s", paired).isEqualTo(EffectVerdict.INCONCLUSIVE);
      assertThat(e.method()).isEqualTo("none");
      assertThat(e.mdeSource()).isEqualTo("none");
      assertThat(e.deltaPct()).isCloseTo(-0.01, org.assertj.core.data.Offset.offset(1e-9));
    }
    // repeats that differ only by floating-point rounding are identical too
    Effect rounding =
        EffectEstimator.estimate(
            new double[] {100, 100 + 1e-12, 100 - 1e-12},
            new double[] {99.99, 99.99 + 1e-12, 99.99},
            Direction.HIGHER_IS_BETTER,
            false,
            null,
            null);
    assertThat(rounding.method()).isEqualTo("none");
    assertThat(rounding.verdict()).isEqualTo(EffectVerdict.INCONCLUSIVE);
    // a real drop with identical repeats is not decided from zero spread either
    Effect drop =
        EffectEstimator.estimate(
            ref, new double[] {90, 90, 90}, Direction.HIGHER_IS_BETTER, false, null, null);
    assertThat(drop.verdict()).isEqualTo(EffectVerdict.INCONCLUSIVE);
    // with the series noise floor (CV 2% over 3 pilot runs), its spread decides: the 0.01% is
    // inside the noise, the 10% drop is regressed
    NoiseFloor floor = NoiseFloor.of("output_token_throughput.avg", new double[] {98, 100, 102});
    Effect tiny =
        EffectEstimator.estimate(ref, cand, Direction.HIGHER_IS_BETTER, false, floor, null);
    assertThat(tiny.method()).isEqualTo("series_noise_floor");
    assertThat(tiny.verdict()).isIn(EffectVerdict.NO_CHANGE, EffectVerdict.INCONCLUSIVE);
    Effect big =
        EffectEstimator.estimate(
            ref, new double[] {90, 90, 90}, Direction.HIGHER_IS_BETTER, false, floor, null);
    assertThat(big.method()).isEqualTo("series_noise_floor");
    assertThat(big.verdict()).isEqualTo(EffectVerdict.REGRESSED);
    // one side's spread is enough for Welch
    Effect oneSided =
        EffectEstimator.estimate(
            ref, new double[] {90, 91, 89}, Direction.HIGHER_IS_BETTER, false, null, null);
    assertThat(oneSided.method()).isEqualTo("welch_t");
    assertThat(oneSided.verdict()).isEqualTo(EffectVerdict.REGRESSED);
  }
}
