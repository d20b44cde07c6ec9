/**
 * The go/no-go gate on an AIPerf summary: constraints (from an AICR-style overlay, a plan's
 * objectives, or flags), the tolerance rule, the verdict, and its JSON / CTRF / JUnit reports.
 * Entry points: {@link dev.benchplan.gate.GateEvaluator#evaluate} and {@link
 * dev.benchplan.gate.VerdictReports#write}.
 */
package dev.benchplan.gate;
