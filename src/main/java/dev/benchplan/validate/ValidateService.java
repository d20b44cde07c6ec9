package dev.benchplan.validate;

import dev.benchplan.error.ExitCode;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.run.ShutdownHooks;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * {@code benchplan validate}: the one-shot inference performance gate for a cluster, as a sequence
 * of phases, each returning an immutable record.
 *
 * <p>{@link ConstraintsPhase} (the overlay or the defaults; skip unless the check is listed and
 * constrained) -> {@link DiscoveryPhase} (skip when the DGD CRD is absent; an existing DGD
 * frontend, refusing on ambiguity) or {@link DeploymentPlanPhase} (the default DGD on the node with
 * the most free GPUs) -> {@link BenchmarkPhase} plans and renders -> {@link DeployPhase} and {@link
 * ReadinessPhase} -> {@link BenchmarkPhase} runs -> {@link GatePhase} -> {@link Completion}: {@link
 * CleanupPhase} removes everything this run created (also on failure and on Ctrl-C), then the
 * verdict, CTRF and JUnit reports.
 */
public final class ValidateService {
  /** Connects to the cluster named by the options. */
  @FunctionalInterface
  public interface ClusterConnector {
    ValidateCluster connect(ValidateOptions options);
  }

  private final ClusterConnector connector;
  private final BenchmarkRunner runner;
  private final Clock clock;
  private final PrintWriter err;
  private final ShutdownHooks hooks;

  public ValidateService(
      ClusterConnector connector,
      BenchmarkRunner runner,
      Clock clock,
      PrintWriter err,
      ShutdownHooks hooks,
      String toolVersion) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.err = Objects.requireNonNull(err, "err");
    this.hooks = Objects.requireNonNull(hooks, "hooks");
  }

  /**
   * Runs validate. Bad input found before anything was created (overlay, --dgd, --model, several
   * DGDs qualifying) is thrown as invalid input (exit 2) with nothing written; every other outcome
   * writes the reports.
   */
  public ValidateResult execute(ValidateOptions options) {
    Instant now = clock.instant();
    ValidateRun run = ValidateRun.start(now);
    ValidateVerdictBuilder doc = new ValidateVerdictBuilder(run, now);
    StepRunner steps = new StepRunner(new ProgressRenderer("validate", err, clock, false), doc);
    ValidateContext ctx = new ValidateContext(options, run, steps, doc, err, new CreatedObjects());
    Completion end = new Completion(ctx, clock);
    // Ctrl-C / SIGTERM: clean up and write the verdict; the JVM hooks then halt with exit 3
    AutoCloseable hook = hooks.onInterrupt(() -> end.abort(runner));
    try {
      return validate(ctx, end);
    } finally {
      try {
        hook.close();
      } catch (Exception e) {
        // unregistering cannot change the verdict
      }
    }
  }

  private ValidateResult validate(ValidateContext ctx, Completion end) {
    PerformanceRequest request = ConstraintsPhase.read(ctx); // exit 2 here: nothing written
    if (!request.runs()) {
      return end.finish(Conclusion.skip(request.skipReason()));
    }
    ConstraintsPhase.Resolved resolved = ConstraintsPhase.resolve(ctx, request);
    String withoutDynamo = resolved.withoutDynamo(ctx.options().recipe());
    if (withoutDynamo != null) {
      return end.finish(Conclusion.skip(withoutDynamo));
    }
    try {
      return benchmark(ctx, end, resolved);
    } catch (ValidateStepException e) {
      if (e.exitCode() == ExitCode.INVALID && ctx.ledger().snapshot().isEmpty()) {
        end.closeQuietly();
        throw e; // bad input found before anything was created: nothing written
      }
      return end.finish(Conclusion.failed(e));
    }
  }

  private ValidateResult benchmark(
      ValidateContext ctx, Completion end, ConstraintsPhase.Resolved resolved) {
    ValidateCluster cluster = DiscoveryPhase.connect(ctx, connector);
    end.attach(cluster);
    DgdApi api = DiscoveryPhase.crdCheck(ctx, cluster);
    Conclusion noCrd = DiscoveryPhase.withoutCrd(api, resolved.recipe(), ctx.options().recipe());
    if (noCrd != null) {
      return end.finish(noCrd);
    }
    DiscoveryPhase.Discovered found = DiscoveryPhase.discover(ctx, cluster, api, resolved);
    TargetChoice choice =
        found.decision() instanceof DiscoveryDecision.Use
            ? DiscoveryPhase.existing(ctx, cluster, api, found)
            : DeploymentPlanPhase.plan(ctx, cluster, api, found, resolved.request());
    // plan and render before anything is created: a problem with them costs no deployment
    BenchmarkPhase.Prepared prepared =
        BenchmarkPhase.prepare(ctx, runner, choice, resolved.request());
    DefaultDeployment deployment = choice.deployment();
    if (deployment != null) {
      DgdView created = DeployPhase.deploy(ctx, cluster, api, deployment, choice.target());
      ctx.doc()
          .target(ReadinessPhase.deployed(ctx, cluster, api, deployment, created, choice.target()));
    } else {
      ReadinessPhase.existing(ctx, cluster, api, choice.target());
    }
    BenchmarkOutcome outcome = BenchmarkPhase.run(ctx, runner, prepared);
    return end.finish(GatePhase.conclude(ctx, prepared, outcome));
  }
}
