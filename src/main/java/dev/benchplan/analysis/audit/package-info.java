/**
 * The audit of one run before any interpretation: every check reported, a failed check makes the
 * run invalid ({@link dev.benchplan.analysis.audit.Auditor}).
 */
package dev.benchplan.analysis.audit;
