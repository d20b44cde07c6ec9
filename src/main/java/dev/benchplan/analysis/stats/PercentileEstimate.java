package dev.benchplan.analysis.stats;

/**
 * A percentile recomputed from per-request records, with its bootstrap interval.
 *
 * @param percentile e.g. 99
 * @param value the point estimate (linear interpolation, numpy's default as AIPerf uses), or NaN
 *     with no samples
 * @param ciLow lower interval bound, or NaN when not estimable
 * @param ciHigh upper interval bound, or NaN when not estimable
 * @param samples the number of requests behind it
 * @param minimumSamples the fewest samples this percentile needs to be estimable
 * @param estimable whether samples reach the minimum
 */
public record PercentileEstimate(
    double percentile,
    double value,
    double ciLow,
    double ciHigh,
    long samples,
    long minimumSamples,
    boolean estimable) {}
