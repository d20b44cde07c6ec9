package dev.benchplan.plan;

/** How load is offered (agent-docs/rules/benchmarking/measurement-mode.md). */
public enum MeasurementMode {
  /** A fixed number of requests in flight (concurrency): saturation and peak tokens. */
  closed_loop,
  /** Requests arrive at a rate regardless of completions: latency SLO capacity. */
  open_loop,
  /** Requests are sent at the trace's own timestamps. */
  fixed_schedule
}
