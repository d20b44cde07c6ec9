/**
 * {@code benchplan analyze} and {@code benchplan compare}: from AIPerf runs to a defensible claim.
 * {@code input} finds runs in every AIPerf artifact layout and reads their per-request records,
 * {@code audit} decides whether a run may serve as evidence, {@code stats} holds the statistics
 * (bootstrap percentile intervals, noise floor, effect intervals and the minimum detectable
 * effect), {@code compare} the eligibility check and per-metric verdicts, {@code report} the
 * documents and plots people read. {@link dev.benchplan.analysis.AnalyzeService} and {@link
 * dev.benchplan.analysis.CompareService} are the two entry points.
 */
package dev.benchplan.analysis;
