package dev.benchplan.render;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * What {@code benchplan render} was asked: the plan and its SHA-256, the deploy root, and the
 * optional run-scoped overrides (null when not given).
 *
 * @param clock and {@code random} choose the run id (fixed in tests)
 * @param modelWaitSeconds how long the Job waits for the frontend to list the model, or null for
 *     {@link JobBudget#MODEL_WAIT_SECONDS} ({@code validate} passes its endpoint-ready bound)
 * @param ledger the deployment ledger of the candidate to measure ({@code --ledger}), or null for
 *     the ledger the plan records ({@link CandidateBinding})
 * @param readyRequestTimeoutSeconds how long each readiness request of the Job (model list, first
 *     chat completion) may take ({@code --timeout-ready-request}), or null for {@link
 *     JobBudget#READY_REQUEST_SECONDS}; a slow first completion (a fresh worker compiling) must not
 *     be cut off, or it starts over
 * @param refusePastLogBound refuse (exit 2) a Job whose estimated artifact tree exceeds the pod-log
 *     channel without an artifact claim ({@code benchplan render}); false keeps the summary-only
 *     contract for one run past the bound ({@code validate}, {@code verify}'s re-render)
 */
public record RenderRequest(
    Path plan,
    String planSha256,
    Path deployRoot,
    @Nullable String namespace,
    @Nullable String jobName,
    @Nullable String image,
    @Nullable String artifacts,
    @Nullable String traceSource,
    @Nullable String loadPoint,
    Clock clock,
    RandomGenerator random,
    @Nullable Integer modelWaitSeconds,
    @Nullable Path ledger,
    @Nullable Integer readyRequestTimeoutSeconds,
    @Nullable PairLabel pair,
    boolean refusePastLogBound) {
  /**
   * A request for a run that is not part of an AB/BA pair and keeps the summary-only contract for
   * one run past the log bound.
   */
  public RenderRequest(
      Path plan,
      String planSha256,
      Path deployRoot,
      @Nullable String namespace,
      @Nullable String jobName,
      @Nullable String image,
      @Nullable String artifacts,
      @Nullable String traceSource,
      @Nullable String loadPoint,
      Clock clock,
      RandomGenerator random,
      @Nullable Integer modelWaitSeconds,
      @Nullable Path ledger,
      @Nullable Integer readyRequestTimeoutSeconds) {
    this(
        plan,
        planSha256,
        deployRoot,
        namespace,
        jobName,
        image,
        artifacts,
        traceSource,
        loadPoint,
        clock,
        random,
        modelWaitSeconds,
        ledger,
        readyRequestTimeoutSeconds,
        null,
        false);
  }

  /** A request with the default readiness-request timeout. */
  public RenderRequest(
      Path plan,
      String planSha256,
      Path deployRoot,
      String namespace,
      String jobName,
      String image,
      String artifacts,
      String traceSource,
      String loadPoint,
      Clock clock,
      RandomGenerator random,
      @Nullable Integer modelWaitSeconds,
      @Nullable Path ledger) {
    this(
        plan,
        planSha256,
        deployRoot,
        namespace,
        jobName,
        image,
        artifacts,
        traceSource,
        loadPoint,
        clock,
        random,
        modelWaitSeconds,
        ledger,
        null);
  }

  /** A request for the plan's own candidate. */
  public RenderRequest(
      Path plan,
      String planSha256,
      Path deployRoot,
      String namespace,
      String jobName,
      String image,
      String artifacts,
      String traceSource,
      String loadPoint,
      Clock clock,
      RandomGenerator random,
      Integer modelWaitSeconds) {
    this(
        plan,
        planSha256,
        deployRoot,
        namespace,
        jobName,
        image,
        artifacts,
        traceSource,
        loadPoint,
        clock,
        random,
        modelWaitSeconds,
        null);
  }

  /** A request with the default model wait. */
  public RenderRequest(
      Path plan,
      String planSha256,
      Path deployRoot,
      String namespace,
      String jobName,
      String image,
      String artifacts,
      String traceSource,
      String loadPoint,
      Clock clock,
      RandomGenerator random) {
    this(
        plan,
        planSha256,
        deployRoot,
        namespace,
        jobName,
        image,
        artifacts,
        traceSource,
        loadPoint,
        clock,
        random,
        null,
        null);
  }

  public RenderRequest {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(planSha256, "planSha256");
    Objects.requireNonNull(deployRoot, "deployRoot");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(random, "random");
    if (modelWaitSeconds != null && modelWaitSeconds < 1) {
      throw new IllegalArgumentException("modelWaitSeconds must be positive");
    }
    if (readyRequestTimeoutSeconds != null && readyRequestTimeoutSeconds < 1) {
      throw new IllegalArgumentException("readyRequestTimeoutSeconds must be positive");
    }
  }

  /** The model wait in effect. */
  public int modelWait() {
    return modelWaitSeconds == null ? JobBudget.MODEL_WAIT_SECONDS : modelWaitSeconds;
  }

  /** The per-request readiness timeout in effect. */
  public int readyRequestTimeout() {
    return readyRequestTimeoutSeconds == null
        ? JobBudget.READY_REQUEST_SECONDS
        : readyRequestTimeoutSeconds;
  }
}
