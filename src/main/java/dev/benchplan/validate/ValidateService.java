package dev.benchplan.validate;

import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import dev.benchplan.run.ShutdownHooks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code benchplan validate}: the one-shot inference performance gate for a cluster.
 *
 * <p>Constraints from the overlay (or the defaults) -> skip unless the check is listed and
 * constrained -> skip when the DGD CRD is absent -> discover an existing DGD frontend (refusing on
 * ambiguity) or deploy the default DGD on the node with the most free GPUs -> plan, render, run and
 * gate the benchmark -> clean up everything this run created (also on failure and on Ctrl-C)
 * -> verdict, CTRF and JUnit reports.
 */
public final class ValidateService {
  /** Connects to the cluster named by the options. */
  @FunctionalInterface
  public interface ClusterConnector {
    ValidateCluster connect(ValidateOptions options);
  }

  /** The GPU model label of NVIDIA's GPU feature discovery, recorded with the deployment. */
  static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";

  private final ClusterConnector connector;
  private final BenchmarkRunner runner;
  private final Clock clock;
  private final PrintWriter err;
  private final ShutdownHooks hooks;

  public ValidateService(
      ClusterConnector connector, BenchmarkRunner runner, Clock clock, PrintWriter err,
      ShutdownHooks hooks, String toolVersion) {
    this.connector = Objects.requireNonNull(connector, "connector");
    this.runner = Objects.requireNonNull(runner, "runner");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.err = Objects.requireNonNull(err, "err");
    this.hooks = Objects.requireNonNull(hooks, "hooks");
    // toolVersion is accepted but not yet recorded anywhere (it never was read)
  }

  /**
   * Runs validate. Bad input found before anything was created (overlay, --dgd, --model,
   * ambiguity) is thrown or returned as {@code invalid} (exit 2) with nothing written; every other
   * outcome writes the reports.
   */
  public ValidateResult execute(ValidateOptions options) {
    Execution ex = new Execution(options);
    // Ctrl-C / SIGTERM: clean up and write the verdict; the JVM hooks then halt with exit 3
    AutoCloseable hook = hooks.onInterrupt(ex::abort);
    try {
      return ex.execute();
    } finally {
      try {
        hook.close();
      } catch (Exception e) {
        // unregistering cannot change the verdict
      }
    }
  }

  private static String describe(DiscoveryDecision d) {
    if (d instanceof DiscoveryDecision.Use u) {
      return "benchmarking existing " + u.candidate().describe();
    }
    if (d instanceof DiscoveryDecision.Ambiguous a) {
      return a.candidates().size() + " candidates: ambiguous";
    }
    return "auto-deploy: " + ((DiscoveryDecision.Deploy) d).reason();
  }

  /** The state of one run; the abort hook and the main thread share it under one lock. */
  private final class Execution {
    private final ValidateOptions options;
    private final ValidateRun run;
    private final ProgressRenderer progress;
    private final VerdictDocument doc;
    private @Nullable PerformanceRequest requested;
    private final CreatedObjects ledger = new CreatedObjects();
    private final ReentrantLock lifecycle = new ReentrantLock();
    private volatile @Nullable ValidateStep current;
    private @Nullable ValidateCluster cluster;
    private @Nullable CleanupReport cleanup;
    private @Nullable ValidateResult result;

    Execution(ValidateOptions options) {
      this.options = options;
      Instant now = clock.instant();
      this.run = ValidateRun.start(now);
      this.progress = new ProgressRenderer("validate", err, clock, false);
      this.doc = new VerdictDocument(run, now);
    }

    ValidateResult execute() {
      PerformanceRequest request;
      try {
        request = step(ValidateStep.CONSTRAINTS, null, "reading constraints from "
            + (options.recipe() == null ? "the defaults" : options.recipe()), () -> options.recipe() == null
                ? PerformanceRequest.defaults() : ValidationOverlay.load(options.recipe()),
            r -> r.runs() ? r.constraints().size() + " constraint(s) from " + r.source() : "check not requested");
      } catch (ValidateStepException e) {
        throw e; // exit 2, nothing written
      }
      requested = request;
      doc.constraints(request);
      if (!request.runs()) {
        return complete("skip", ExitCode.OK, request.skipReason(), null);
      }
      try {
        return benchmark(request);
      } catch (ValidateStepException e) {
        if (e.exitCode() == ExitCode.INVALID && ledger.snapshot().isEmpty()) {
          closeQuietly();
          throw e; // bad input found before anything was created: nothing written
        }
        // invalid input (2) and bugs (4) keep their code; every other failure is the cluster's or the run's (3)
        int code = e.exitCode() == ExitCode.INVALID || e.exitCode() == ExitCode.INTERNAL ? e.exitCode()
            : ExitCode.RUNTIME;
        return complete("error", code, e.getMessage(), e.step());
      }
    }

    private ValidateResult benchmark(PerformanceRequest request) {
      ValidateCluster cluster = step(ValidateStep.CONNECT, null, "connecting",
          () -> connector.connect(options), ValidateCluster::describe);
      this.cluster = cluster;
      doc.cluster(cluster.describe());
      DgdApi api = step(ValidateStep.CRD_CHECK, null, "looking up " + DgdApi.PLURAL + "." + DgdApi.GROUP,
          cluster::dgdApi, a -> a.installed() ? "served versions " + a.servedVersions() + ", using "
              + a.apiVersion() : "not installed");
      if (!api.installed()) {
        return complete("skip", ExitCode.OK, "the DynamoGraphDeployment CRD (" + DgdApi.PLURAL + "."
            + api.group() + ") is not installed in the cluster: no Dynamo platform to validate", null);
      }
      String scope = options.namespace() == null ? "all namespaces" : "namespace " + options.namespace();
      List<DgdCandidate> seen = step(ValidateStep.DISCOVERY, null, "looking for DGDs in " + scope,
          () -> cluster.discover(api, options.namespace()), s -> s.size() + " DGD(s) seen");
      DiscoveryDecision decision = step(ValidateStep.DISCOVERY, null, "deciding",
          () -> DiscoveryDecision.decide(seen, options.dgd(), scope), ValidateService::describe);
      FrontendTarget target;
      DefaultDeployment deployment = null;
      ObjectNode dgdDocument;
      String gpuType;
      if (decision instanceof DiscoveryDecision.Ambiguous a) {
        closeQuietly();
        return ambiguous(a, scope, seen);
      } else if (decision instanceof DiscoveryDecision.Use u) {
        doc.discovery(scope, seen, "discovered", "exactly one usable DGD"
            + (options.dgd() == null ? "" : " (named with --dgd)"));
        FrontendTarget t = step(ValidateStep.DISCOVERY, null, "reading the served model",
            () -> FrontendTarget.discovered(u.candidate(), options.model()),
            x -> x.model() + " (" + x.modelSource() + ")");
        target = t;
        dgdDocument = step(ValidateStep.DISCOVERY, null, "recording DGD " + t.namespace() + "/" + t.dgdName(),
            () -> cluster.dgdDocument(api, t.namespace(), t.dgdName()), d -> "recorded as read");
        gpuType = "unknown";
      } else {
        DiscoveryDecision.Deploy p = (DiscoveryDecision.Deploy) decision;
        doc.discovery(scope, seen, "deploy", p.reason());
        ValidateTimeouts t = options.timeouts();
        step(ValidateStep.OLD_NAMESPACES, t.oldNamespace(), "waiting for earlier validate namespaces to go",
            () -> {
              cluster.awaitOldNamespacesGone(t.oldNamespace(), progress.sink());
              return Boolean.TRUE;
            }, x -> "none terminating");
        GpuNodeChoice choice = step(ValidateStep.NODE_SELECTION, null, "choosing the GPU node"
            + (options.nodeSelector().isEmpty() ? "" : " matching " + options.nodeSelector()),
            () -> GpuNodeChoice.choose(cluster.gpuNodes(), options.nodeSelector()),
            c -> c.node().name() + " with " + c.workers() + " free GPU(s) -> " + c.workers() + " worker(s)");
        deployment = new DefaultDeployment(run, api.apiVersion(), run.namespace(),
            options.modelOrDefault(), choice.workers(),
            choice.node().labels().getOrDefault(DefaultDeployment.HOSTNAME_LABEL, choice.node().name()),
            choice.node().taints(), options.runtimeImage(), options.hfTokenSecret());
        doc.deployment(choice, deployment);
        target = FrontendTarget.planned(deployment, choice.node().name(), options.modelGiven());
        dgdDocument = deployment.manifest();
        gpuType = choice.node().labels().getOrDefault(GPU_PRODUCT_LABEL, "unknown");
      }
      doc.target(target);
      BenchmarkShape shape = new BenchmarkShape(
          target.workers(), options.concurrencyPerWorker(), options.isl(), options.osl());
      doc.benchmark(shape, null, null, null);
      Path workDir = options.reportDir().resolve("runs").resolve(run.runId());
      BenchmarkRunner.BenchmarkRequest req = new BenchmarkRunner.BenchmarkRequest(
          run, options, target, shape, request, dgdDocument, gpuType, workDir, ledger);
      // plan and render before anything is created: a problem with them costs no deployment
      BenchmarkRunner.PlannedBenchmark planned = step(ValidateStep.PLAN, null,
          "planning concurrency " + shape.concurrency() + ", " + shape.requestCount() + " requests, ISL/OSL "
              + shape.isl() + "/" + shape.osl(), () -> runner.plan(req),
          pl -> pl.planPath() + " (sha256 " + pl.planSha256() + ", AIPerf " + pl.aiperfVersion() + ")");
      doc.benchmark(shape, planned, null, null);
      BenchmarkRunner.RenderedBenchmark rendered = step(ValidateStep.RENDER, null, "rendering the AIPerf Job",
          () -> runner.render(req, planned), r -> r.perfYaml() + " (Job " + r.jobName() + ")");
      doc.benchmark(shape, planned, rendered, null);
      if (deployment != null) {
        target = deploy(cluster, api, deployment, target);
        doc.target(target);
      }
      ValidateTimeouts t = options.timeouts();
      Duration runBound = t.podScheduling().plus(t.endpointReady()).plus(t.job());
      BenchmarkOutcome outcome = step(ValidateStep.RUN, runBound, "running Job " + rendered.namespace() + "/"
          + rendered.jobName() + " and gating",
          () -> runner.run(req, planned, rendered, progress.sink()),
          BenchmarkOutcome::message);
      doc.benchmark(shape, planned, rendered, outcome.runDir());
      doc.gated(outcome);
      return switch (outcome.verdict()) {
        case "pass" -> complete("pass", ExitCode.OK, outcome.message(), null);
        case "fail" -> complete("fail", ExitCode.GATE_FAILED, outcome.message(), null);
        default -> complete("error", ExitCode.RUNTIME, outcome.message(),
            outcome.failedStep() == null ? ValidateStep.GATE : outcome.failedStep());
      };
    }

    /** Creates the namespace and the default DGD and waits until it serves as planned. */
    private FrontendTarget deploy(ValidateCluster cluster, DgdApi api, DefaultDeployment deployment,
        FrontendTarget planned) {
      ValidateTimeouts t = options.timeouts();
      String ns = deployment.namespace();
      step(ValidateStep.NAMESPACE, t.oldNamespace(), "creating namespace " + ns, () -> {
        cluster.createNamespace(run, ns, ledger, t.oldNamespace(), progress.sink());
        return ns;
      }, x -> "created " + x);
      DgdView created = step(ValidateStep.DEPLOY, null, "creating DGD " + ns + "/" + deployment.name()
          + " (" + api.apiVersion() + ", " + deployment.workers() + " x " + DefaultDeployment.WORKER
          + " on " + planned.node() + ")",
          () -> cluster.createDgd(api, deployment.manifest(), ledger), v -> "created " + v.ref());
      DgdCandidate ready = step(ValidateStep.READINESS, t.dgdReady(), "waiting for DGD "
          + created.ref() + " to be successful with " + deployment.workers() + " ready worker(s)",
          () -> {
            DgdCandidate c = cluster.awaitReady(api, ns, deployment.name(), deployment.desiredWorkers(),
                t.dgdReady(), progress.sink());
            FrontendMatch f = c.frontend();
            if (f == null || c.dgd() == null) {
              throw BenchplanException.runtime(created.ref() + " is ready but has no frontend Service");
            }
            if (!f.service().name().equals(planned.service()) || f.port() != planned.port()) {
              throw BenchplanException.runtime("the frontend Service of " + created.ref() + " is "
                  + f.service().name() + ":" + f.port() + ", but the plan targets " + planned.service()
                  + ":" + planned.port());
            }
            return c;
          },
          c -> "ready; frontend Service " + Objects.requireNonNull(c.frontend()).service().name() + ":"
              + Objects.requireNonNull(c.frontend()).port());
      // the readiness step above has checked both
      FrontendMatch f = Objects.requireNonNull(ready.frontend(), "frontend");
      DgdView dgd = Objects.requireNonNull(ready.dgd(), "dgd");
      return new FrontendTarget("deployed", ns, deployment.name(), dgd.uid(), api.apiVersion(),
          f.service().name(), f.port(), f.matchedBy() + (f.ownedByDgd() ? "+owner" : ""),
          planned.model(), planned.modelSource(), planned.workers(), planned.node());
    }

    private ValidateResult ambiguous(DiscoveryDecision.Ambiguous a, String scope, List<DgdCandidate> seen) {
      doc.discovery(scope, seen, "ambiguous", a.message());
      doc.finish("invalid", ExitCode.INVALID, a.message(), ValidateStep.DISCOVERY, clock.instant());
      doc.candidates(a.candidates());
      err.println("benchplan: " + a.message());
      err.flush();
      lifecycle.lock();
      try {
        result = new ValidateResult(ExitCode.INVALID, "invalid", doc.build(), Map.of());
        return result;
      } finally {
        lifecycle.unlock();
      }
    }

    /** Runs one step with progress lines and a step record; failures carry the step's name. */
    private <T> T step(ValidateStep s, @Nullable Duration bound, String what, Supplier<T> body,
        java.util.function.Function<T, String> outcome) {
      current = s;
      progress.start(s.id(), bound, what);
      try {
        T value = body.get();
        String detail = outcome.apply(value);
        Duration elapsed = progress.end(detail);
        doc.step(s, "ok", elapsed, bound, detail);
        return value;
      } catch (RuntimeException e) {
        ValidateStepException v = ValidateStepException.of(s, e);
        Duration elapsed = progress.end("failed: " + v.getMessage());
        doc.step(s, "failed", elapsed, bound, v.getMessage());
        throw v;
      }
    }

    /** Cleans up (unless --keep), writes the reports, closes the client; once. */
    private ValidateResult complete(String verdict, int exitCode, @Nullable String reason, @Nullable ValidateStep failed) {
      lifecycle.lock();
      try {
        if (result != null) {
          return result;
        }
        String finalVerdict = verdict;
        int finalCode = exitCode;
        String finalReason = reason;
        ValidateStep finalStep = failed;
        CleanupReport cleaned = cleanupOnce();
        if (!cleaned.complete()) {
          String problems = String.join("; ", cleaned.problems());
          if (!"error".equals(verdict)) {
            finalVerdict = "error";
            finalCode = ExitCode.RUNTIME;
            finalStep = ValidateStep.CLEANUP;
            finalReason = "cleanup incomplete after a " + verdict + " verdict (" + reason + "): " + problems;
          } else {
            finalReason = reason + "; cleanup incomplete: " + problems;
          }
        }
        doc.finish(finalVerdict, finalCode, finalReason, finalStep, clock.instant());
        ValidateReports.Written written = ValidateReports.write(options.reportDir(), doc.build(), doc.gate(),
            requested == null ? PerformanceRequest.defaults().set() : requested.set());
        err.println("validate: " + finalVerdict + " (exit " + finalCode + ")"
            + (finalStep == null ? "" : " at step " + finalStep.id()) + ": " + finalReason);
        err.println("validate: reports in " + options.reportDir().toAbsolutePath());
        err.flush();
        result = new ValidateResult(finalCode, finalVerdict, written.verdict(), written.paths());
        return result;
      } finally {
        closeQuietly();
        lifecycle.unlock();
      }
    }

    /** Cleans up once and returns the report; it is incomplete when some created object could not be removed. */
    private CleanupReport cleanupOnce() {
      CleanupReport done = cleanup;
      if (done != null) {
        return done;
      }
      List<CreatedObject> created = ledger.snapshot();
      if (options.keep()) {
        ledger.closeForCleanup();
        done = CleanupReport.empty();
        cleanup = done;
        doc.cleanup(true, created, null);
        if (!created.isEmpty()) {
          err.println("validate [cleanup]: --keep: leaving " + created.stream()
              .map(CreatedObject::describe).toList());
        }
        return done;
      }
      ValidateCluster connected = cluster;
      if (connected == null || created.isEmpty()) {
        ledger.closeForCleanup();
        done = CleanupReport.empty();
        cleanup = done;
        doc.cleanup(false, created, done);
        return done;
      }
      ValidateStep before = current;
      Duration bound = options.timeouts().cleanup();
      progress.start(ValidateStep.CLEANUP.id(), bound, "deleting " + created.size() + " object(s) in reverse order");
      try {
        done = connected.cleanup(ledger, bound, progress.sink());
      } catch (RuntimeException e) {
        done = new CleanupReport(List.of(), List.of(), List.of(),
            List.of("cleanup failed: " + (e.getMessage() == null ? e.toString() : e.getMessage())));
      }
      cleanup = done;
      Duration elapsed = progress.end(done.complete()
          ? "done: deleted " + done.deleted().size() + ", already gone " + done.alreadyGone().size()
          : "incomplete: " + String.join("; ", done.problems()));
      doc.step(ValidateStep.CLEANUP, done.complete() ? "ok" : "failed", elapsed, bound,
          done.complete() ? null : String.join("; ", done.problems()));
      doc.cleanup(false, created, done);
      current = before;
      return done;
    }

    /** The Ctrl-C / SIGTERM path: clean up and record an error naming the interrupted step. */
    void abort() {
      lifecycle.lock();
      try {
        if (result != null) {
          return;
        }
        ValidateStep at = current == null ? ValidateStep.CONSTRAINTS : current;
        err.println("validate: interrupted during step " + at.id() + "; cleaning up");
        err.flush();
        try {
          runner.interrupt();
        } catch (RuntimeException e) {
          err.println("validate: stopping the run: " + e.getMessage());
        }
        try {
          complete("error", ExitCode.RUNTIME, "interrupted (SIGINT/SIGTERM) during step " + at.id(), at);
        } catch (BenchplanException e) {
          err.println("validate: " + e.getMessage());
          err.flush();
        }
      } finally {
        lifecycle.unlock();
      }
    }

    private void closeQuietly() {
      if (cluster != null) {
        try {
          cluster.close();
        } catch (RuntimeException ignored) {
          // closing a client cannot change the verdict
        }
      }
    }
  }
}
