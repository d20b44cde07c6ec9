package dev.benchplan.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@code benchplan run} was asked to do.
 *
 * @param deployRoot DEPLOY_ROOT: perf.yaml is read from {@code benchmark/perf.yaml} below it and
 *     runs are written to {@code benchmark/runs/}
 * @param context the kubeconfig context (null: the current context)
 * @param namespace the namespace to run in (null: the manifest's, else the context's)
 * @param constraintsOverlay an AICR-style overlay with gate constraints (null: the plan's gates)
 * @param timeout the bound on the whole Job (null: its activeDeadlineSeconds plus a margin)
 * @param scheduleTimeout the bound on the pod being scheduled and its container starting
 * @param keep keep the Job and ConfigMaps after the run
 * @param replace replace an existing Job/ConfigMaps of the same names (and keep an earlier run
 *     directory of the same run-id under a new name)
 * @param constraints constraints given in code (validate's, resolved for its load: a scaled floor,
 *     a per-GPU floor times the GPUs), or null; they take the place of the overlay's and the plan's
 * @param smokeAge how old the bound ledger's smoke artifact may be now ({@code run
 *     --smoke-max-age}, checked before anything is created); null: not checked (validate deploys
 *     and proves readiness itself)
 */
public record RunRequest(
    Path deployRoot,
    @Nullable String context,
    @Nullable String namespace,
    @Nullable Path constraintsOverlay,
    @Nullable Duration timeout,
    Duration scheduleTimeout,
    boolean keep,
    boolean replace,
    dev.benchplan.gate.@Nullable ConstraintSet constraints,
    dev.benchplan.workload.SmokeEvidence.@Nullable AgeCheck smokeAge) {

  /** The default bound on scheduling and container start (AICR's). */
  public static final Duration DEFAULT_SCHEDULE_TIMEOUT = Duration.ofMinutes(5);

  public RunRequest {
    Objects.requireNonNull(deployRoot, "deployRoot");
    scheduleTimeout = scheduleTimeout == null ? DEFAULT_SCHEDULE_TIMEOUT : scheduleTimeout;
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--timeout"),
          "--timeout: expected a positive duration, got " + timeout);
    }
    if (scheduleTimeout.isNegative() || scheduleTimeout.isZero()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--schedule-timeout"),
          "--schedule-timeout: expected a positive duration, got " + scheduleTimeout);
    }
  }

  /** A request for {@code deployRoot} with every other field at its default, to be set by name. */
  public static Builder builder(Path deployRoot) {
    return new Builder(deployRoot);
  }

  /** Builds a {@link RunRequest} field by field; unset fields are null or false. */
  public static final class Builder {
    private final Path deployRoot;
    private @Nullable String context;
    private @Nullable String namespace;
    private @Nullable Path constraintsOverlay;
    private @Nullable Duration timeout;
    private Duration scheduleTimeout = DEFAULT_SCHEDULE_TIMEOUT;
    private boolean keep;
    private boolean replace;
    private dev.benchplan.gate.@Nullable ConstraintSet constraints;
    private dev.benchplan.workload.SmokeEvidence.@Nullable AgeCheck smokeAge;

    private Builder(Path deployRoot) {
      this.deployRoot = deployRoot;
    }

    public Builder context(@Nullable String value) {
      context = value;
      return this;
    }

    public Builder namespace(@Nullable String value) {
      namespace = value;
      return this;
    }

    public Builder constraintsOverlay(@Nullable Path value) {
      constraintsOverlay = value;
      return this;
    }

    public Builder timeout(@Nullable Duration value) {
      timeout = value;
      return this;
    }

    /** The start bound; null: {@link #DEFAULT_SCHEDULE_TIMEOUT}. */
    public Builder scheduleTimeout(@Nullable Duration value) {
      scheduleTimeout = value == null ? DEFAULT_SCHEDULE_TIMEOUT : value;
      return this;
    }

    public Builder keep(boolean value) {
      keep = value;
      return this;
    }

    public Builder replace(boolean value) {
      replace = value;
      return this;
    }

    public Builder constraints(dev.benchplan.gate.@Nullable ConstraintSet value) {
      constraints = value;
      return this;
    }

    public Builder smokeAge(dev.benchplan.workload.SmokeEvidence.@Nullable AgeCheck value) {
      smokeAge = value;
      return this;
    }

    /** The request; its constructor checks the bounds (exit 2). */
    public RunRequest build() {
      return new RunRequest(
          deployRoot,
          context,
          namespace,
          constraintsOverlay,
          timeout,
          scheduleTimeout,
          keep,
          replace,
          constraints,
          smokeAge);
    }
  }

  /** DEPLOY_ROOT/benchmark/perf.yaml. */
  public Path perfYaml() {
    return deployRoot.resolve("benchmark").resolve("perf.yaml");
  }

  /** DEPLOY_ROOT/benchmark/runs. */
  public Path runsDir() {
    return deployRoot.resolve("benchmark").resolve("runs");
  }
}
