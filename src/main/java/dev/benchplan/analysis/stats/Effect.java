package dev.benchplan.analysis.stats;

/**
 * A candidate-minus-reference effect on one metric.
 *
 * @param referenceMean mean over the reference runs
 * @param candidateMean mean over the candidate runs
 * @param delta candidate - reference
 * @param deltaPct delta / reference x 100 (signed)
 * @param ciLow lower 95% bound of delta
 * @param ciHigh upper 95% bound of delta
 * @param ciLowPct lower bound in percent of the reference
 * @param ciHighPct upper bound in percent of the reference
 * @param method how the spread was estimated: {@code welch_t} (both sides n >= 2), {@code paired_t}
 *     (AB/BA pairs), {@code series_noise_floor} (n = 1 on a side), {@code none}
 * @param degreesOfFreedom the t distribution's degrees of freedom, NaN for {@code none}
 * @param mdePct the minimum detectable effect used (percent of the reference)
 * @param mdeSource {@code --mde}, {@code series_noise_floor}, {@code data} (80% power at the spread
 *     used) or {@code none}
 * @param verdict the verdict
 */
public record Effect(
    double referenceMean,
    double candidateMean,
    double delta,
    double deltaPct,
    double ciLow,
    double ciHigh,
    double ciLowPct,
    double ciHighPct,
    String method,
    double degreesOfFreedom,
    double mdePct,
    String mdeSource,
    EffectVerdict verdict) {}
