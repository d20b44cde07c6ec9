/**
 * A run as analyze and compare see it: {@link dev.benchplan.analysis.evidence.RunLoader} reads a
 * located run (summary, records, plan), derives its identity and series, and audits it into {@link
 * dev.benchplan.analysis.evidence.RunEvidence}.
 */
package dev.benchplan.analysis.evidence;
