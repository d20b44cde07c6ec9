/**
 * Pure detectors over one measured run's per-request timings: {@link
 * dev.benchplan.diagnostics.StallDetector} (a suspected stalled worker: a separate slow TTFT group,
 * or completions stopping while requests are in flight;
 * agent-docs/rules/benchmarking/stall-diagnosis.md) and {@link
 * dev.benchplan.diagnostics.ClientBoundCheck} (the load generator, not the deployment, was the
 * bottleneck; agent-docs/rules/benchmarking/client-bound.md), with {@link
 * dev.benchplan.diagnostics.AiperfLogWarnings}, the parser of AIPerf's own warnings. No file access
 * here: the records are read once by {@code analysis.input.RecordScanner}, and the findings travel
 * in the gate's verdict.
 */
package dev.benchplan.diagnostics;
