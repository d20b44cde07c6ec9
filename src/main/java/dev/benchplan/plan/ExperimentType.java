package dev.benchplan.plan;

/** The experiment that exposes the behaviour under investigation. */
public enum ExperimentType {
  /** Replay a trace with its timestamps (fixed schedule). */
  trace_fidelity,
  /** Keep the exact synthetic ISL/OSL at the given load. */
  static_shape,
  /** Vary concurrency or request rate over a bounded grid. */
  capacity
}
