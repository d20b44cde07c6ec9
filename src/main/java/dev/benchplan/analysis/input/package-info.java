/**
 * Finding runs on disk in every AIPerf artifact layout and reading their per-request records in one
 * streaming pass ({@link dev.benchplan.analysis.input.RunLocator}, {@link
 * dev.benchplan.analysis.input.RecordScanner}); a summary rebuilt from complete records when
 * AIPerf's is unusable.
 */
package dev.benchplan.analysis.input;
