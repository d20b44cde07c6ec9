/**
 * The documents and pictures people read: benchmark_audit.json, benchmark_summary.json,
 * performance_analysis.md, summary.md, report.html and the JFreeChart/JFreeSVG plots.
 *
 * <p>Every document is a tree of records: {@link dev.benchplan.analysis.report.AuditDoc} and {@link
 * dev.benchplan.analysis.report.SummaryDoc} (built by {@link
 * dev.benchplan.analysis.report.RunDocuments}), {@link dev.benchplan.analysis.report.AnalysisDoc}
 * with one {@link dev.benchplan.analysis.report.SeriesDoc} per series, {@link
 * dev.benchplan.analysis.report.ComparisonDoc}, {@link
 * dev.benchplan.analysis.report.RepeatDecisionDoc}; numbers go through {@link
 * dev.benchplan.analysis.report.Measured}. The renderers (markdown, HTML, plots) read the records;
 * Jackson sees a document only where it is validated and written (canonical JSON) or printed.
 */
package dev.benchplan.analysis.report;
