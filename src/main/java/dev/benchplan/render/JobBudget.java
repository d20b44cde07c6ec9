package dev.benchplan.render;

/**
 * The time a Job may take: the plan's measurement limit plus a bounded setup margin. Kubernetes'
 * {@code activeDeadlineSeconds} is only the backstop; AIPerf's own bounds (request count, phase
 * duration, grace period) end the measurement.
 *
 * @param measurementLimitSeconds the plan's {@code experiment.measurement_limit_s}
 * @param warmup whether a warmup phase runs
 * @param modelWaitSeconds the longest wait for {@code /v1/models} to list the served model
 * @param measuredRuns how many measured runs the Job executes one after another (load points times
 *     repetitions); each keeps its own measurement limit, warmup, grace period and finish
 */
public record JobBudget(
    int measurementLimitSeconds, boolean warmup, int modelWaitSeconds, int measuredRuns) {
  /** Longest wait for {@code /v1/models} to list the served model. */
  public static final int MODEL_WAIT_SECONDS = 600;

  /**
   * Longest single readiness request (model list, first chat completion): AICR's 120 s, since a
   * fresh worker's first inference can take ~45 s and is lost when the client gives up.
   */
  public static final int READY_REQUEST_SECONDS = 120;

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
    if (measuredRuns < 1) {
      throw new IllegalArgumentException("a Job measures at least one run");
    }
  }

  /** A budget for one measured run. */
  public JobBudget(int measurementLimitSeconds, boolean warmup, int modelWaitSeconds) {
    this(measurementLimitSeconds, warmup, modelWaitSeconds, 1);
  }

  /** A budget with the default model wait. */
  public JobBudget(int measurementLimitSeconds, boolean warmup) {
    this(measurementLimitSeconds, warmup, MODEL_WAIT_SECONDS);
  }

  /** The bounded margin of one measured run (model wait and setup happen once per Job). */
  public int setupMarginSeconds() {
    return modelWaitSeconds + SETUP_SECONDS + perRunMarginSeconds();
  }

  /** What each measured run adds beyond its measurement limit. */
  public int perRunMarginSeconds() {
    return (warmup ? WARMUP_LIMIT_SECONDS : 0) + GRACE_PERIOD_SECONDS + FINISH_SECONDS;
  }

  /**
   * The Job's {@code activeDeadlineSeconds}: readiness and setup once, then every measured run's
   * own limit and margin.
   */
  public long activeDeadlineSeconds() {
    return (long) modelWaitSeconds
        + SETUP_SECONDS
        + (long) measuredRuns * (measurementLimitSeconds + perRunMarginSeconds());
  }
}
