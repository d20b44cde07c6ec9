/**
 * The documents and pictures people read: benchmark_audit.json, benchmark_summary.json,
 * performance_analysis.md, summary.md, report.html and the JFreeChart/JFreeSVG plots.
 */
package dev.benchplan.analysis.report;
