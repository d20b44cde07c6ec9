package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.analysis.stats.NoiseFloor;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * One metric's noise floor as performance_analysis.json and the findings log write it (and as a
 * later analysis or comparison reads it back to carry the floor forward).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record NoiseFloorDoc(
    int runs,
    @Nullable BigDecimal mean,
    @JsonProperty("std_dev") @Nullable BigDecimal stdDev,
    @Nullable BigDecimal cv,
    @JsonProperty("cv_ci_low") @Nullable BigDecimal cvCiLow,
    @JsonProperty("cv_ci_high") @Nullable BigDecimal cvCiHigh,
    @JsonProperty("mde_pct_1v1") @Nullable BigDecimal mdePct1v1,
    @JsonProperty("mde_pct_3v3") @Nullable BigDecimal mdePct3v3) {

  /** The document of a noise floor. */
  public static NoiseFloorDoc of(NoiseFloor nf) {
    return new NoiseFloorDoc(
        nf.runs(),
        Measured.of(nf.mean()),
        Measured.of(nf.stdDev()),
        Measured.of(nf.cv()),
        Measured.of(nf.cvLow()),
        Measured.of(nf.cvHigh()),
        Measured.of(nf.mdePct1v1()),
        Measured.of(nf.mdePct3v3()));
  }

  /**
   * The noise floor of {@code metric} this document holds (a missing number reads as 0, as the tree
   * reader did).
   */
  public NoiseFloor toFloor(String metric) {
    return new NoiseFloor(
        metric,
        runs,
        d(mean),
        d(stdDev),
        d(cv),
        d(cvCiLow),
        d(cvCiHigh),
        d(mdePct1v1),
        d(mdePct3v3));
  }

  private static double d(@Nullable BigDecimal v) {
    return v == null ? 0 : v.doubleValue();
  }
}
