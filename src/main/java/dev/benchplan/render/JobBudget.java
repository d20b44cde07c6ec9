package dev.benchplan.render;

/**
 * The time a Job may take: the plan's measurement limit plus a bounded setup margin. Kubernetes'
 * {@code activeDeadlineSeconds} is only the backstop; AIPerf's own bounds (request count, phase
 * duration, grace period) end the measurement.
 *
 * @param measurementLimitSeconds the plan's {@code experiment.measurement_limit_s}
 * @param warmup whether a warmup phase runs
 * @param modelWaitSeconds the longest wait for {@code /v1/models} to list the served model
 */
public record JobBudget(int measurementLimitSeconds, boolean warmup, int modelWaitSeconds) {
  /** Longest wait for {@code /v1/models} to list the served model. */
  public static final int MODEL_WAIT_SECONDS = 600;
  /** Image start, tokenizer download, dataset generation, AIPerf service start. */
  public static final int SETUP_SECONDS = 300;
  /** Upper bound on the warmup phase (AIPerf stops it after this long). */
  public static final int WARMUP_LIMIT_SECONDS = 300;
  /** In-flight responses still counted after the measured phase's duration ends. */
  public static final int GRACE_PERIOD_SECONDS = 30;
  /** Writing exports and printing the summary. */
  public static final int FINISH_SECONDS = 60;

  public JobBudget {
    if (measurementLimitSeconds < 1) {
      throw new IllegalArgumentException("measurement limit must be >= 1 s");
    }
    if (modelWaitSeconds < 1) {
      throw new IllegalArgumentException("model wait must be >= 1 s");
    }
  }

  /** A budget with the default model wait. */
  public JobBudget(int measurementLimitSeconds, boolean warmup) {
    this(measurementLimitSeconds, warmup, MODEL_WAIT_SECONDS);
  }

  /** The bounded margin added to the measurement limit. */
  public int setupMarginSeconds() {
    return modelWaitSeconds
        + SETUP_SECONDS
        + (warmup ? WARMUP_LIMIT_SECONDS : 0)
        + GRACE_PERIOD_SECONDS
        + FINISH_SECONDS;
  }

  /** The Job's {@code activeDeadlineSeconds}. */
  public long activeDeadlineSeconds() {
    return (long) measurementLimitSeconds + setupMarginSeconds();
  }
}
