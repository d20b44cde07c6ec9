package dev.benchplan.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SvgNumbersTest {
  @Test
  @DisplayName("fixed decimals, trailing zeros and minus zero dropped, no exponent")
  void examples() {
    assertThat(SvgNumbers.geometry(12.5)).isEqualTo("12.5");
    assertThat(SvgNumbers.geometry(12.0)).isEqualTo("12");
    assertThat(SvgNumbers.geometry(-3.004)).isEqualTo("-3");
    assertThat(SvgNumbers.geometry(-0.001)).isEqualTo("0");
    assertThat(SvgNumbers.geometry(0.07)).isEqualTo("0.07");
    assertThat(SvgNumbers.geometry(719.999)).isEqualTo("720");
    assertThat(SvgNumbers.transform(6.123233995736766E-17)).isEqualTo("0");
    assertThat(SvgNumbers.transform(-1.0)).isEqualTo("-1");
    assertThat(SvgNumbers.transform(0.000001)).isEqualTo("0.000001");
    assertThat(SvgNumbers.transform(1.0000004)).isEqualTo("1");
    assertThat(SvgNumbers.geometry(Double.NaN)).isEqualTo("NaN");
    assertThat(SvgNumbers.geometry(1e300)).isEqualTo("1.0E300");
  }

  @Test
  @DisplayName("equals BigDecimal's half-even rounding of the scaled value, over random inputs")
  void matchesBigDecimal() {
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 100_000; i++) {
      double d = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-3, 8));
      for (int places : new int[] {2, 6}) {
        // the same rounding of the same double product, written by BigDecimal
        double scaled = Math.rint(d * Math.pow(10, places));
        String want =
            new BigDecimal(scaled)
                .movePointLeft(places)
                .setScale(places, RoundingMode.UNNECESSARY)
                .stripTrailingZeros()
                .toPlainString();
        if (want.matches("-?0(\\.0*)?")) {
          want = "0";
        }
        assertThat(SvgNumbers.fixed(d, places)).as("%s at %d places", d, places).isEqualTo(want);
      }
    }
  }
}
