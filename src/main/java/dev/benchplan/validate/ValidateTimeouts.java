package dev.benchplan.validate;

import java.time.Duration;
import java.util.Objects;

/**
 * The bound of every waiting phase of {@code validate}. The defaults are AICR's (5 min for an old
 * namespace to go, 10 min DGD ready, 5 min endpoint ready, 5 min AIPerf pod scheduling, 15 min
 * AIPerf Job); tests shorten them.
 *
 * @param oldNamespace how long to wait for a previous validate namespace that is terminating
 * @param dgdReady how long the DGD may take to reach {@code successful} with all workers ready
 * @param endpointReady how long the AIPerf Job waits for the frontend to list the model
 * @param podScheduling how long the AIPerf pod may stay unscheduled
 * @param job how long the AIPerf Job may run
 * @param cleanup how long to wait for each created object to be gone
 * @param readyRequest how long each readiness request of the AIPerf Job may take (inside {@code
 *     endpointReady}): AICR's 120 s, so a slow first completion is never cut off
 * @param modelCache how long the model-cache populate Job may take (AICR's 13 min)
 */
public record ValidateTimeouts(
    Duration oldNamespace,
    Duration dgdReady,
    Duration endpointReady,
    Duration podScheduling,
    Duration job,
    Duration cleanup,
    Duration readyRequest,
    Duration modelCache) {

  /** The default per-request readiness bound. */
  public static final Duration READY_REQUEST = Duration.ofMinutes(2);

  /** The default bound of the model-cache populate Job. */
  public static final Duration MODEL_CACHE = Duration.ofMinutes(13);

  /** The bounds with the default readiness-request and model-cache bounds. */
  public ValidateTimeouts(
      Duration oldNamespace,
      Duration dgdReady,
      Duration endpointReady,
      Duration podScheduling,
      Duration job,
      Duration cleanup) {
    this(
        oldNamespace,
        dgdReady,
        endpointReady,
        podScheduling,
        job,
        cleanup,
        READY_REQUEST,
        MODEL_CACHE);
  }

  public ValidateTimeouts {
    requirePositive(oldNamespace, "oldNamespace");
    requirePositive(dgdReady, "dgdReady");
    requirePositive(endpointReady, "endpointReady");
    requirePositive(podScheduling, "podScheduling");
    requirePositive(job, "job");
    requirePositive(cleanup, "cleanup");
    requirePositive(readyRequest, "readyRequest");
    requirePositive(modelCache, "modelCache");
  }

  /** AICR's bounds (and 5 min per deletion). */
  public static ValidateTimeouts defaults() {
    return new ValidateTimeouts(
        Duration.ofMinutes(5),
        Duration.ofMinutes(10),
        Duration.ofMinutes(5),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        Duration.ofMinutes(5));
  }

  /** The same bounds with the DGD readiness bound replaced. */
  public ValidateTimeouts withDgdReady(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, d, endpointReady, podScheduling, job, cleanup, readyRequest, modelCache);
  }

  /** The same bounds with the old-namespace bound replaced. */
  public ValidateTimeouts withOldNamespace(Duration d) {
    return new ValidateTimeouts(
        d, dgdReady, endpointReady, podScheduling, job, cleanup, readyRequest, modelCache);
  }

  /** The same bounds with the Job bound replaced. */
  public ValidateTimeouts withJob(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, dgdReady, endpointReady, podScheduling, d, cleanup, readyRequest, modelCache);
  }

  /** The same bounds with the pod-scheduling bound replaced. */
  public ValidateTimeouts withPodScheduling(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, dgdReady, endpointReady, d, job, cleanup, readyRequest, modelCache);
  }

  /** The same bounds with the endpoint-ready bound replaced. */
  public ValidateTimeouts withEndpointReady(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, dgdReady, d, podScheduling, job, cleanup, readyRequest, modelCache);
  }

  /** The same bounds with the cleanup bound replaced. */
  public ValidateTimeouts withCleanup(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, dgdReady, endpointReady, podScheduling, job, d, readyRequest, modelCache);
  }

  /** The same bounds with the per-request readiness bound replaced. */
  public ValidateTimeouts withReadyRequest(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, dgdReady, endpointReady, podScheduling, job, cleanup, d, modelCache);
  }

  /** The same bounds with the model-cache populate bound replaced. */
  public ValidateTimeouts withModelCache(Duration d) {
    return new ValidateTimeouts(
        oldNamespace, dgdReady, endpointReady, podScheduling, job, cleanup, readyRequest, d);
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException("timeout " + name + " must be positive, got " + d);
    }
  }
}
