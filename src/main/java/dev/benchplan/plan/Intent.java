package dev.benchplan.plan;

/** Whether a plan characterizes one candidate or compares candidates directly. */
public enum Intent {
  characterization,
  comparison
}
