package dev.benchplan.workload;

/** Where a plan's requests come from, in order of preference. */
public enum WorkloadSource {
  /** A trace the user provided, replayed with its own timestamps. */
  user_trace,
  /** The user's exact ISL/OSL and traffic controls, as synthetic requests. */
  user_static,
  /** The closest Dynamo recipe shape: exploration only, never validation of the user's workload. */
  recipe_proxy
}
