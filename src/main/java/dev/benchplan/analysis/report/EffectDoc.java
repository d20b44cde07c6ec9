package dev.benchplan.analysis.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.analysis.stats.Effect;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * One metric's candidate-minus-reference effect as comparison.json writes it ({@code
 * /metrics/N/effect}).
 */
public record EffectDoc(
    @JsonProperty("reference_mean") @Nullable BigDecimal referenceMean,
    @JsonProperty("candidate_mean") @Nullable BigDecimal candidateMean,
    @Nullable BigDecimal delta,
    @JsonProperty("delta_pct") @Nullable BigDecimal deltaPct,
    @JsonProperty("ci_low") @Nullable BigDecimal ciLow,
    @JsonProperty("ci_high") @Nullable BigDecimal ciHigh,
    @JsonProperty("ci_low_pct") @Nullable BigDecimal ciLowPct,
    @JsonProperty("ci_high_pct") @Nullable BigDecimal ciHighPct,
    String method,
    @JsonProperty("degrees_of_freedom") @Nullable BigDecimal degreesOfFreedom,
    @JsonProperty("mde_pct") @Nullable BigDecimal mdePct,
    @JsonProperty("mde_source") String mdeSource) {

  /** The document of an effect. */
  public static EffectDoc of(Effect e) {
    return new EffectDoc(
        Measured.of(e.referenceMean()),
        Measured.of(e.candidateMean()),
        Measured.of(e.delta()),
        Measured.of(e.deltaPct()),
        Measured.of(e.ciLow()),
        Measured.of(e.ciHigh()),
        Measured.of(e.ciLowPct()),
        Measured.of(e.ciHighPct()),
        e.method(),
        Measured.of(e.degreesOfFreedom()),
        Measured.of(e.mdePct()),
        e.mdeSource());
  }
}
