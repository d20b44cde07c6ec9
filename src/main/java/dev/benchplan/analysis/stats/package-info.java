/**
 * The statistics, from Apache Commons Statistics: percentile bootstrap intervals, the noise floor
 * (CV and its chi-square interval), the minimum detectable effect, and the candidate-vs-reference
 * effect with its verdict.
 */
package dev.benchplan.analysis.stats;
