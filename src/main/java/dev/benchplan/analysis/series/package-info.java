/**
 * The analysis of one series against its history: the findings log under the experiment root, noise
 * floor carried forward (the series' own, or the one a pilot decided for it measured), comparisons,
 * repeat decision and verdict.
 *
 * <p>The findings log is read and written as {@link dev.benchplan.analysis.series.FindingLine}
 * records; Jackson is used only in {@link dev.benchplan.analysis.series.FindingsLog} (the file
 * edge) and, for a line that predates {@code decision_source}, to read one field of a pilot plan.
 * {@link dev.benchplan.analysis.series.SeriesAnalysis} builds the series block of
 * performance_analysis.json as a {@link dev.benchplan.analysis.report.SeriesDoc} record. Still a
 * tree (issue 11, open): the plan it reads through {@code PlanInfo} (steady state, SLOs, decision
 * source).
 */
package dev.benchplan.analysis.series;
