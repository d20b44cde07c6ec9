package dev.benchplan.render;

import dev.benchplan.workload.SmokeEvidence;
import java.nio.file.Path;
import java.security.SecureRandom;
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
 * @param smokeAge how old the bound ledger's smoke artifact may be now ({@code render
 *     --smoke-max-age}, plan's rule applied again at render time); null: not checked ({@code
 *     verify}'s re-render of a past run, {@code validate}'s in-cluster readiness)
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
    boolean refusePastLogBound,
    SmokeEvidence.@Nullable AgeCheck smokeAge) {
  /**
   * Starts a request for {@code plan} (with its SHA-256) rendered under {@code deployRoot}: every
   * override unset, the system clock and a secure random source for the run id, the default model
   * wait and readiness timeout, no AB/BA pair, and the summary-only contract for one run past the
   * log bound. Set what differs by name, then {@link Builder#build()}.
   */
  public static Builder builder(Path plan, String planSha256, Path deployRoot) {
    return new Builder(plan, planSha256, deployRoot);
  }

  /** The one way to assemble a {@link RenderRequest} field by field; unset fields keep defaults. */
  public static final class Builder {
    private final Path plan;
    private final String planSha256;
    private final Path deployRoot;
    private @Nullable String namespace;
    private @Nullable String jobName;
    private SmokeEvidence.@Nullable AgeCheck smokeAge;
    private @Nullable String image;
    private @Nullable String artifacts;
    private @Nullable String traceSource;
    private @Nullable String loadPoint;
    private @Nullable Clock clock;
    private @Nullable RandomGenerator random;
    private @Nullable Integer modelWaitSeconds;
    private @Nullable Path ledger;
    private @Nullable Integer readyRequestTimeoutSeconds;
    private @Nullable PairLabel pair;
    private boolean refusePastLogBound;

    private Builder(Path plan, String planSha256, Path deployRoot) {
      this.plan = plan;
      this.planSha256 = planSha256;
      this.deployRoot = deployRoot;
    }

    /** The namespace override ({@code --namespace}), or null for the plan's. */
    public Builder namespace(@Nullable String namespace) {
      this.namespace = namespace;
      return this;
    }

    /** The Job name override ({@code --job-name}), or null for a generated one. */
    public Builder jobName(@Nullable String jobName) {
      this.jobName = jobName;
      return this;
    }

    /** The AIPerf image override ({@code --image}), or null for the plan's. */
    public Builder image(@Nullable String image) {
      this.image = image;
      return this;
    }

    /** Where artifacts go ({@code --artifacts}, or {@code pvc:NAME}), or null for the default. */
    public Builder artifacts(@Nullable String artifacts) {
      this.artifacts = artifacts;
      return this;
    }

    /** The trace source override ({@code --trace-source}), or null for the plan's. */
    public Builder traceSource(@Nullable String traceSource) {
      this.traceSource = traceSource;
      return this;
    }

    /** The load point to run ({@code --load-point}), or null for the plan's choice. */
    public Builder loadPoint(@Nullable String loadPoint) {
      this.loadPoint = loadPoint;
      return this;
    }

    /** The clock and random source that choose the run id (fixed in tests). */
    public Builder runId(Clock clock, RandomGenerator random) {
      this.clock = clock;
      this.random = random;
      return this;
    }

    /** See {@link RenderRequest#modelWaitSeconds()}. */
    public Builder modelWaitSeconds(@Nullable Integer modelWaitSeconds) {
      this.modelWaitSeconds = modelWaitSeconds;
      return this;
    }

    /** See {@link RenderRequest#ledger()}. */
    public Builder ledger(@Nullable Path ledger) {
      this.ledger = ledger;
      return this;
    }

    /** See {@link RenderRequest#readyRequestTimeoutSeconds()}. */
    public Builder readyRequestTimeoutSeconds(@Nullable Integer readyRequestTimeoutSeconds) {
      this.readyRequestTimeoutSeconds = readyRequestTimeoutSeconds;
      return this;
    }

    /** The AB/BA pair the run belongs to ({@code --pair}), or null. */
    public Builder pair(@Nullable PairLabel pair) {
      this.pair = pair;
      return this;
    }

    /** See {@link RenderRequest#smokeAge()}. */
    public Builder smokeAge(SmokeEvidence.@Nullable AgeCheck smokeAge) {
      this.smokeAge = smokeAge;
      return this;
    }

    /** See {@link RenderRequest#refusePastLogBound()}. */
    public Builder refusePastLogBound(boolean refusePastLogBound) {
      this.refusePastLogBound = refusePastLogBound;
      return this;
    }

    /** The request; the record's constructor checks it. */
    public RenderRequest build() {
      return new RenderRequest(
          plan,
          planSha256,
          deployRoot,
          namespace,
          jobName,
          image,
          artifacts,
          traceSource,
          loadPoint,
          clock != null ? clock : Clock.systemUTC(),
          random != null ? random : new SecureRandom(),
          modelWaitSeconds,
          ledger,
          readyRequestTimeoutSeconds,
          pair,
          refusePastLogBound,
          smokeAge);
    }
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
