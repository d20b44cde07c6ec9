package dev.benchplan.diagnostics;

/**
 * Client-side figures some AIPerf versions put in their summary export; NaN where the version does
 * not export them.
 *
 * @param effectiveConcurrency {@code effective_concurrency} avg (requests in flight, as AIPerf
 *     measured)
 * @param creditDropLatencyMs {@code credit_drop_latency} avg in ms (from a worker receiving a
 *     credit to sending the request: AIPerf's own client overhead)
 * @param measuredRequests the summary's measured requests (successful plus failed): when the
 *     records hold fewer, they are incomplete or trimmed and the in-flight check is not judged on
 *     them
 */
public record ExportSignals(
    double effectiveConcurrency, double creditDropLatencyMs, double measuredRequests) {
  public static ExportSignals none() {
    return new ExportSignals(Double.NaN, Double.NaN, Double.NaN);
  }
}
