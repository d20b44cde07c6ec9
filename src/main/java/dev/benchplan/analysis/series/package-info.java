/**
 * The analysis of one series against its history: the findings log under the experiment root, noise
 * floor carried forward (the series' own, or the one a pilot decided for it measured), comparisons,
 * repeat decision and verdict.
 *
 * <p>The findings log is read and written as {@link dev.benchplan.analysis.series.FindingLine}
 * records; Jackson is used only in {@link dev.benchplan.analysis.series.FindingsLog} (the file
 * edge) and, for a line that predates {@code decision_source}, to read one field of a pilot plan.
 * {@link dev.benchplan.analysis.series.SeriesAnalysis} builds the series block of
 * performance_analysis.json as a {@link dev.benchplan.analysis.report.SeriesDoc} record. The plan
 * (steady state, SLOs, decision source) is the typed {@link dev.benchplan.plan.BenchmarkPlan} that
 * {@code PlanInfo} carries, read by {@link dev.benchplan.plan.PlanFile}. The one plan still read as
 * a tree is the pilot plan of an old findings line (its {@code decision_source}, in {@code
 * FindingsLog}): it has no recorded SHA-256 to read it against, and a plan that is not valid there
 * only means the line is not a pilot.
 */
package dev.benchplan.analysis.series;
