/**
 * The documents and pictures people read: benchmark_audit.json, benchmark_summary.json,
 * performance_analysis.md, summary.md, report.html and the JFreeChart/JFreeSVG plots.
 *
 * <p>Typed records: {@link dev.benchplan.analysis.report.NoiseFloorDoc}, {@link
 * dev.benchplan.analysis.report.EffectDoc}, {@link
 * dev.benchplan.analysis.report.RepeatDecisionDoc}. Still trees (issue 11, open): the audit and
 * summary documents ({@link dev.benchplan.analysis.report.RunDocuments}) and the renderers, which
 * read the analysis and comparison documents as trees.
 */
package dev.benchplan.analysis.report;
