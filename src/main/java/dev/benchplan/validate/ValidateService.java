package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import dev.benchplan.progress.ProgressRenderer;
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
 * gate the benchmark -> clean up everything this run created (also on failure and on Ctrl-C) ->
 * verdict, CTRF and JUnit reports.
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
   * Runs validate. Bad input found before anything was created (overlay, --dgd, --model, ambiguity)
   * is thrown or returned as {@code invalid} (exit 2) with nothing written; every other outcome
   * writes the reports.
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

  private static String describeInputs(ValidateInputs in) {
    List<String> parts = new java.util.ArrayList<>();
    for (String k :
        List.of(
            ValidateInputs.MODEL,
            ValidateInputs.CONCURRENCY_PER_GPU,
            ValidateInputs.CONCURRENCY_PER_WORKER,
            ValidateInputs.ROUTING_MODE,
            ValidateInputs.MODEL_CACHE_STORAGE_CLASS)) {
      ResolvedInput r = in.values().get(k);
      if (r != null) {
        parts.add(
            k
                + " "
                + (r.value() == null ? "(cluster default)" : r.value())
                + " ["
                + r.source()
                + "]");
      }
    }
    return String.join(", ", parts);
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
    private final ValidateVerdictBuilder doc;
    private @Nullable PerformanceRequest requested;

    /** The recipe's settings (none without --recipe). */
    private RecipeSettings recipe = RecipeSettings.none();

    /**
     * Every input resolved, with its source. The default deployment reads its routing mode ({@link
     * ValidateInputs#routingMode()}) and model-cache class ({@link
     * ValidateInputs#modelCacheStorageClass()}) here.
     */
    private @Nullable ValidateInputs inputs;

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
      this.doc = new ValidateVerdictBuilder(run, now);
    }

    ValidateResult execute() {
      PerformanceRequest request;
      try {
        request =
            step(
                ValidateStep.CONSTRAINTS,
                null,
                "reading constraints from "
                    + (options.recipe() == null ? "the defaults" : options.recipe()),
                () ->
                    options.recipe() == null
                        ? PerformanceRequest.defaults()
                        : ValidationOverlay.load(
                            options.recipe(), options.allowUnknownConstraints()),
                r ->
                    r.runs()
                        ? r.constraints().size() + " constraint(s) from " + r.source()
                        : "check not requested");
      } catch (ValidateStepException e) {
        throw e; // exit 2, nothing written
      }
      requested = request;
      doc.constraints(request);
      if (!request.runs()) {
        return complete("skip", ExitCode.OK, request.skipReason(), null);
      }
      // every input resolved before the cluster is touched: a bad value is exit 2 with nothing
      // written
      recipe =
          step(
              ValidateStep.CONSTRAINTS,
              null,
              "resolving inputs (flag > recipe > "
                  + InputFlags.ENV_PREFIX
                  + "* > "
                  + options.flags().defaults().source()
                  + ")",
              () ->
                  options.recipe() == null
                      ? RecipeSettings.none()
                      : ValidationOverlay.settings(options.recipe()),
              r ->
                  r.settings().isEmpty()
                      ? "no inputs in the recipe"
                      : "recipe sets " + r.settings().keySet());
      inputs =
          step(
              ValidateStep.CONSTRAINTS,
              null,
              "resolving model and load",
              () -> ValidateInputs.resolve(options, recipe, options.recipe() != null),
              ValidateService::describeInputs);
      doc.inputs(inputs);
      inputs.warnings().forEach(w -> err.println("validate: warning: " + w));
      if (recipe.componentRefs() && !recipe.dynamoPlatform()) {
        return complete(
            "skip",
            ExitCode.OK,
            options.recipe()
                + ": spec.componentRefs does not include "
                + RecipeSettings.DYNAMO_PLATFORM
                + ": no Dynamo platform to validate",
            null);
      }
      try {
        return benchmark();
      } catch (ValidateStepException e) {
        if (e.exitCode() == ExitCode.INVALID && ledger.snapshot().isEmpty()) {
          closeQuietly();
          throw e; // bad input found before anything was created: nothing written
        }
        // invalid input (2) and bugs (4) keep their code; every other failure is the cluster's or
        // the run's (3)
        int code =
            e.exitCode() == ExitCode.INVALID || e.exitCode() == ExitCode.INTERNAL
                ? e.exitCode()
                : ExitCode.RUNTIME;
        return complete("error", code, e.getMessage(), e.step());
      }
    }

    private ValidateResult benchmark() {
      ValidateCluster connected =
          step(
              ValidateStep.CONNECT,
              null,
              "connecting",
              () -> connector.connect(options),
              ValidateCluster::describe);
      cluster = connected;
      doc.cluster(connected.describe());
      DgdApi api =
          step(
              ValidateStep.CRD_CHECK,
              null,
              "looking up " + DgdApi.PLURAL + "." + DgdApi.GROUP,
              connected::dgdApi,
              a ->
                  a.installed()
                      ? "served versions " + a.servedVersions() + ", using " + a.apiVersion()
                      : "not installed");
      if (!api.installed() && recipe.dynamoPlatform()) {
        return complete(
            "error",
            ExitCode.RUNTIME,
            options.recipe()
                + " lists "
                + RecipeSettings.DYNAMO_PLATFORM
                + " in spec.componentRefs, but the DynamoGraphDeployment CRD ("
                + DgdApi.PLURAL
                + "."
                + api.group()
                + ") is not installed in the cluster: the platform is missing or broken",
            ValidateStep.CRD_CHECK);
      }
      if (!api.installed()) {
        return complete(
            "skip",
            ExitCode.OK,
            "the DynamoGraphDeployment CRD ("
                + DgdApi.PLURAL
                + "."
                + api.group()
                + ") is not installed in the cluster: no Dynamo platform to validate",
            null);
      }
      String scope =
          options.namespace() == null ? "all namespaces" : "namespace " + options.namespace();
      List<DgdCandidate> seen =
          step(
              ValidateStep.DISCOVERY,
              null,
              "looking for DGDs in " + scope,
              () -> connected.discover(api, options.namespace()),
              s -> s.size() + " DGD(s) seen");
      DiscoveryDecision decision =
          step(
              ValidateStep.DISCOVERY,
              null,
              "deciding",
              () -> DiscoveryDecision.decide(seen, options.dgd(), scope),
              ValidateService::describe);
      FrontendTarget target;
      DefaultDeployment deployment = null;
      ObjectNode dgdDocument;
      String gpuType;
      GpuCount gpus;
      ResolvedInput platform =
          step(
              ValidateStep.CRD_CHECK,
              null,
              "reading the Dynamo platform version",
              () -> RuntimeImage.platformVersion(recipe, connected::dynamoPlatformVersion),
              v ->
                  v.value() == null
                      ? "unknown (" + v.origin() + ")"
                      : v.value() + " (" + v.source() + ": " + v.origin() + ")");
      // resolved by execute() before the cluster is touched
      inputs = Objects.requireNonNull(inputs).with("dynamo_platform_version", platform);
      doc.inputs(inputs);
      if (decision instanceof DiscoveryDecision.Ambiguous a) {
        closeQuietly();
        return ambiguous(a, scope, seen);
      } else if (decision instanceof DiscoveryDecision.Use u) {
        doc.discovery(
            scope,
            seen,
            "discovered",
            "exactly one usable DGD" + (options.dgd() == null ? "" : " (named with --dgd)"));
        ValidateInputs resolved = inputs;
        ResolvedInput m = Objects.requireNonNull(resolved.values().get(ValidateInputs.MODEL));
        FrontendTarget t =
            step(
                ValidateStep.DISCOVERY,
                null,
                "reading the served model",
                () ->
                    FrontendTarget.discovered(
                        u.candidate(),
                        resolved.modelGiven() ? resolved.model() : null,
                        m.source().equals("flag")
                            ? "option --model"
                            : Objects.requireNonNull(m.origin())),
                x -> x.model() + " (" + x.modelSource() + ")");
        target = t;
        if (!inputs.modelGiven()) {
          inputs =
              inputs.with(
                  ValidateInputs.MODEL, new ResolvedInput(t.model(), "dgd", t.modelSource()));
        }
        dgdDocument =
            step(
                ValidateStep.DISCOVERY,
                null,
                "recording DGD " + t.namespace() + "/" + t.dgdName(),
                () -> connected.dgdDocument(api, t.namespace(), t.dgdName()),
                d -> "recorded as read");
        gpuType = "unknown";
        gpus = DgdGpus.count(dgdDocument);
        String older =
            RuntimeImage.olderThanPlatform(
                t.namespace() + "/" + t.dgdName(), DgdGpus.images(dgdDocument), platform);
        if (older != null) {
          doc.warn(older);
          err.println("validate: warning: " + older);
        }
      } else {
        DiscoveryDecision.Deploy p = (DiscoveryDecision.Deploy) decision;
        doc.discovery(scope, seen, "deploy", p.reason());
        ValidateTimeouts t = options.timeouts();
        step(
            ValidateStep.OLD_NAMESPACES,
            t.oldNamespace(),
            "waiting for earlier validate namespaces to go",
            () -> {
              connected.awaitOldNamespacesGone(
                  t.oldNamespace(), options.modelCache(), progress.sink());
              return Boolean.TRUE;
            },
            x -> "none terminating");
        GpuNodeChoice choice =
            step(
                ValidateStep.NODE_SELECTION,
                null,
                "choosing the GPU node"
                    + (options.nodeSelector().isEmpty()
                        ? ""
                        : " matching " + options.nodeSelector()),
                () -> DraNodeChoice.choose(connected, options.nodeSelector()),
                c ->
                    c.node().name()
                        + " with "
                        + c.workers()
                        + " free GPU(s) -> "
                        + c.workers()
                        + " worker(s)");
        ResolvedInput image = RuntimeImage.image(options.runtimeImage(), platform);
        String imageText =
            Objects.requireNonNull(image.text()); // RuntimeImage.image always names one
        inputs = inputs.with("runtime_image", image);
        String hostname =
            choice
                .node()
                .labels()
                .getOrDefault(DefaultDeployment.HOSTNAME_LABEL, choice.node().name());
        ModelCache cache = null;
        if (options.modelCache()) {
          // resolved before anything is created: a missing class is exit 2 with nothing left
          // behind;
          // the class: --model-cache-storage-class > recipe > BENCHPLAN_VALIDATE_* (resolved
          // inputs) >
          // the cluster's default class
          ResolvedInput resolvedClass =
              inputs.values().get(ValidateInputs.MODEL_CACHE_STORAGE_CLASS);
          String named =
              options.modelCacheStorageClass() != null
                  ? options.modelCacheStorageClass()
                  : inputs.modelCacheStorageClass();
          String classSource =
              named == null
                  ? "cluster-default"
                  : options.modelCacheStorageClass() == null && resolvedClass != null
                      ? resolvedClass.source()
                      : "flag";
          String storageClass =
              step(
                  ValidateStep.MODEL_CACHE,
                  null,
                  named == null
                      ? "finding the cluster's default StorageClass for the model cache"
                      : "checking StorageClass " + named + " for the model cache",
                  () -> connected.modelCacheStorageClass(named),
                  x -> x + (named == null ? " (cluster default)" : ""));
          cache =
              new ModelCache(
                  run,
                  run.namespace(),
                  inputs.model(),
                  storageClass,
                  classSource,
                  options.modelCacheSize(),
                  imageText,
                  options.hfTokenSecret(),
                  hostname,
                  choice.node().taints(),
                  Math.max(1, t.modelCache().toSeconds()));
        }
        deployment =
            new DefaultDeployment(
                run,
                api.apiVersion(),
                run.namespace(),
                inputs.model(),
                choice.workers(),
                hostname,
                choice.node().taints(),
                imageText,
                options.hfTokenSecret(),
                cache);
        doc.deployment(choice, deployment);
        ResolvedInput m = Objects.requireNonNull(inputs.values().get(ValidateInputs.MODEL));
        target =
            FrontendTarget.planned(
                deployment, choice.node().name(), m.source() + ": " + m.origin());
        gpus =
            new GpuCount(
                choice.workers(),
                "default deployment: 1 "
                    + GpuNode.GPU_RESOURCE
                    + " x "
                    + choice.workers()
                    + " worker(s) on node "
                    + choice.node().name(),
                null);
        scaleFloor(choice);
        dgdDocument = deployment.manifest();
        gpuType = choice.node().labels().getOrDefault(GPU_PRODUCT_LABEL, "unknown");
      }
      doc.target(target);
      doc.gpus(gpus);
      inputs =
          inputs.with(
              "gpus",
              new ResolvedInput(
                  gpus.gpus(),
                  gpus.known() ? "dgd" : "none",
                  gpus.known() ? gpus.source() : gpus.note()));
      if (!gpus.known()) {
        doc.warn("no output throughput per GPU: " + gpus.note());
      }
      FrontendTarget measured = target;
      BenchmarkShape shape =
          step(
              ValidateStep.PLAN,
              null,
              "sizing the load",
              () -> shape(measured, gpus),
              s -> "concurrency " + s.concurrency() + " (" + s.basis() + ")");
      recordLoad(shape);
      GpuCount g = gpus;
      PerformanceRequest asked =
          Objects.requireNonNull(requested); // read by execute() before benchmark()
      PerformanceRequest request =
          step(
              ValidateStep.PLAN,
              null,
              "resolving the constraints for this load",
              () -> asked.forLoad(g.gpus(), g.note(), floorScale, floorWhy),
              r -> r.constraints().size() + " constraint(s)");
      requested = request;
      doc.constraints(request);
      doc.inputs(inputs);
      doc.benchmark(shape, null, null, null);
      Path workDir = options.reportDir().resolve("runs").resolve(run.runId());
      BenchmarkRunner.BenchmarkRequest req =
          new BenchmarkRunner.BenchmarkRequest(
              run, options, target, shape, request, dgdDocument, gpuType, workDir, ledger, inputs);
      // plan and render before anything is created: a problem with them costs no deployment
      BenchmarkRunner.PlannedBenchmark planned =
          step(
              ValidateStep.PLAN,
              null,
              "planning concurrency "
                  + shape.concurrency()
                  + ", "
                  + shape.requestCount()
                  + " requests, ISL/OSL "
                  + shape.isl()
                  + "/"
                  + shape.osl(),
              () -> runner.plan(req),
              pl ->
                  pl.planPath()
                      + " (sha256 "
                      + pl.planSha256()
                      + ", AIPerf "
                      + pl.aiperfVersion()
                      + ")");
      doc.benchmark(shape, planned, null, null);
      BenchmarkRunner.RenderedBenchmark rendered =
          step(
              ValidateStep.RENDER,
              null,
              "rendering the AIPerf Job",
              () -> runner.render(req, planned),
              r -> r.perfYaml() + " (Job " + r.jobName() + ")");
      doc.benchmark(shape, planned, rendered, null);
      ValidateTimeouts t = options.timeouts();
      if (deployment != null) {
        target = deploy(api, deployment, target);
        doc.target(target);
      } else {
        // a DGD can say successful while a component has no ready replica: nothing is benchmarked
        // until each has
        FrontendTarget existing = target;
        step(
            ValidateStep.READINESS,
            t.dgdReady(),
            "waiting for every component of DGD "
                + existing.namespace()
                + "/"
                + existing.dgdName()
                + " to have its ready replicas",
            () ->
                connected.awaitComponentsReady(
                    api, existing.namespace(), existing.dgdName(), t.dgdReady(), progress.sink()),
            DgdView::readiness);
      }
      int repeats = options.repeats();
      // one Job per repeat, each with its own bounds
      Duration runBound =
          t.podScheduling().plus(t.endpointReady()).plus(t.job()).multipliedBy(repeats);
      BenchmarkOutcome outcome =
          step(
              ValidateStep.RUN,
              runBound,
              repeats > 1
                  ? "running "
                      + repeats
                      + " Jobs in "
                      + rendered.namespace()
                      + ", one per repeat, and gating their medians"
                  : "running Job "
                      + rendered.namespace()
                      + "/"
                      + rendered.jobName()
                      + " and gating",
              () -> runner.run(req, planned, rendered, progress.sink()),
              BenchmarkOutcome::message);
      doc.benchmark(shape, planned, rendered, outcome.runDir());
      doc.gated(outcome);
      return switch (outcome.verdict()) {
        case "pass" -> complete("pass", ExitCode.OK, outcome.message(), null);
        case "fail" -> complete("fail", ExitCode.GATE_FAILED, outcome.message(), null);
        default ->
            complete(
                "error",
                ExitCode.RUNTIME,
                outcome.message(),
                outcome.failedStep() == null ? ValidateStep.GATE : outcome.failedStep());
      };
    }

    private java.math.@Nullable BigDecimal floorScale;
    private @Nullable String floorWhy;

    /**
     * AICR's rule on a partly occupied node: the throughput floor times free GPUs / node GPUs,
     * recorded with the figures.
     */
    private void scaleFloor(GpuNodeChoice choice) {
      GpuNode n = choice.node();
      long free = n.freeGpus();
      long all = n.allocatableGpus();
      if (all < 1 || free >= all) {
        return;
      }
      floorScale =
          java.math.BigDecimal.valueOf(free)
              .divide(java.math.BigDecimal.valueOf(all), 6, java.math.RoundingMode.HALF_UP)
              .stripTrailingZeros();
      floorWhy = "free / node GPUs " + free + "/" + all + " on node " + n.name();
      PerformanceRequest asked =
          Objects.requireNonNull(requested); // read by execute() before benchmark()
      dev.benchplan.gate.Constraint floor = asked.throughputFloor();
      if (floor != null) {
        PerformanceRequest scaled = asked.forLoad(null, null, floorScale, floorWhy);
        // the scaled request keeps the floor it scaled
        java.math.BigDecimal scaledFloor =
            Objects.requireNonNull(scaled.throughputFloor()).threshold();
        doc.floorScaling(
            new ValidateVerdict.FloorScaling(
                n.name(), free, all, floorScale, floor.threshold(), scaledFloor));
        err.println(
            "validate: throughput floor "
                + floor.threshold().toPlainString()
                + " scaled to "
                + scaledFloor.toPlainString()
                + " ("
                + floorWhy
                + "), as AICR does");
      }
    }

    /**
     * C = per GPU x GPUs, or per worker x workers; a per-GPU load without a GPU count is invalid.
     */
    private BenchmarkShape shape(FrontendTarget target, GpuCount gpus) {
      ValidateInputs inputs = Objects.requireNonNull(this.inputs); // resolved by execute()
      Integer perGpu = inputs.concurrencyPerGpu();
      if (perGpu != null) {
        if (!gpus.known()) {
          throw BenchplanException.invalid(
              Objects.requireNonNull(inputs.load()).origin()
                  + ": a per-GPU concurrency ("
                  + perGpu
                  + ") needs a GPU count, but "
                  + target.namespace()
                  + "/"
                  + target.dgdName()
                  + ": "
                  + gpus.note()
                  + "; give --concurrency-per-worker instead");
        }
        // known: the count is there
        return BenchmarkShape.perGpu(
            target.workers(),
            Objects.requireNonNull(gpus.gpus()),
            perGpu,
            options.isl(),
            options.osl());
      }
      // no per-GPU load: the per-worker one is resolved (a default at least)
      return new BenchmarkShape(
          target.workers(),
          Objects.requireNonNull(inputs.concurrencyPerWorker()),
          options.isl(),
          options.osl());
    }

    /** AICR's load figures, each with where it comes from. */
    private void recordLoad(BenchmarkShape s) {
      // resolved by execute(), with the load that shape() sized
      ResolvedInput load = Objects.requireNonNull(Objects.requireNonNull(inputs).load());
      inputs =
          inputs
              .with("concurrency", new ResolvedInput(s.concurrency(), load.source(), s.basis()))
              .with(
                  "request_count",
                  new ResolvedInput(
                      s.requestCount(),
                      "aicr",
                      "max("
                          + BenchmarkShape.MIN_REQUESTS
                          + ", "
                          + BenchmarkShape.REQUESTS_PER_SLOT
                          + " x "
                          + s.concurrency()
                          + ")"))
              .with(
                  "warmup_requests",
                  new ResolvedInput(
                      s.warmupRequests(),
                      "aicr",
                      BenchmarkShape.WARMUP_PER_SLOT + " per concurrency slot"))
              .with("isl_stddev", new ResolvedInput(0, "aicr", "zero spread"))
              .with("osl_stddev", new ResolvedInput(0, "aicr", "zero spread"))
              .with("ignore_eos", new ResolvedInput(true, "aicr", "fixed output length"))
              .with(
                  "dataset_entries",
                  new ResolvedInput(
                      BenchmarkShape.DATASET_ENTRIES, "aicr", "AICR's synthetic dataset size"))
              .with("seed", new ResolvedInput(BenchmarkShape.SEED, "aicr", "AICR's random seed"))
              .with(
                  "temperature",
                  new ResolvedInput(
                      BenchmarkShape.TEMPERATURE, "aicr", "AICR's sampling temperature"));
    }

    /** Creates the namespace and the default DGD and waits until it serves as planned. */
    private FrontendTarget deploy(
        DgdApi api, DefaultDeployment deployment, FrontendTarget planned) {
      ValidateTimeouts t = options.timeouts();
      ValidateCluster connected = Objects.requireNonNull(cluster); // benchmark() connected first
      String ns = deployment.namespace();
      step(
          ValidateStep.NAMESPACE,
          t.oldNamespace(),
          "creating namespace " + ns,
          () -> {
            connected.createNamespace(run, ns, ledger, t.oldNamespace(), progress.sink());
            return ns;
          },
          x -> "created " + x);
      ModelCache cache = deployment.modelCache();
      if (cache != null) {
        step(
            ValidateStep.MODEL_CACHE,
            t.modelCache(),
            cache.downloading(),
            () -> {
              connected.populateModelCache(cache, progress.sink());
              return cache;
            },
            c -> "cached; workers mount it read-only, offline");
      }
      DgdView created =
          step(
              ValidateStep.DEPLOY,
              null,
              "creating DGD "
                  + ns
                  + "/"
                  + deployment.name()
                  + " ("
                  + api.apiVersion()
                  + ", "
                  + deployment.workers()
                  + " x "
                  + DefaultDeployment.WORKER
                  + " on "
                  + planned.node()
                  + ")",
              () -> connected.createDgd(api, deployment.manifest(), ledger),
              v -> "created " + v.ref());
      DgdCandidate ready =
          step(
              ValidateStep.READINESS,
              t.dgdReady(),
              "waiting for DGD "
                  + created.ref()
                  + " to be successful with every component ready ("
                  + deployment.workers()
                  + " worker(s))",
              () -> {
                DgdCandidate c =
                    connected.awaitReady(
                        api,
                        ns,
                        deployment.name(),
                        deployment.desiredWorkers(),
                        t.dgdReady(),
                        progress.sink());
                FrontendMatch f =
                    Objects.requireNonNull(c.frontend()); // a ready DGD has its frontend
                if (!f.service().name().equals(planned.service()) || f.port() != planned.port()) {
                  throw BenchplanException.runtime(
                      "the frontend Service of "
                          + created.ref()
                          + " is "
                          + f.service().name()
                          + ":"
                          + f.port()
                          + ", but the plan targets "
                          + planned.service()
                          + ":"
                          + planned.port());
                }
                return c;
              },
              c ->
                  "ready; frontend Service "
                      + Objects.requireNonNull(c.frontend()).service().name()
                      + ":"
                      + Objects.requireNonNull(c.frontend()).port());
      FrontendMatch f = Objects.requireNonNull(ready.frontend());
      return new FrontendTarget(
          "deployed",
          ns,
          deployment.name(),
          ready.dgd().uid(),
          api.apiVersion(),
          f.service().name(),
          f.port(),
          f.matchedBy() + (f.ownedByDgd() ? "+owner" : ""),
          planned.model(),
          planned.modelSource(),
          planned.workers(),
          planned.node());
    }

    private ValidateResult ambiguous(
        DiscoveryDecision.Ambiguous a, String scope, List<DgdCandidate> seen) {
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
    private <T> T step(
        ValidateStep s,
        @Nullable Duration bound,
        String what,
        Supplier<T> body,
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
    private ValidateResult complete(
        String verdict, int exitCode, @Nullable String reason, @Nullable ValidateStep failed) {
      lifecycle.lock();
      try {
        if (result != null) {
          return result;
        }
        String finalVerdict = verdict;
        int finalCode = exitCode;
        String finalReason = reason;
        ValidateStep finalStep = failed;
        if (!cleanupOnce()) {
          // cleanupOnce() always leaves its report
          String problems = String.join("; ", Objects.requireNonNull(cleanup).problems());
          if (!"error".equals(verdict)) {
            finalVerdict = "error";
            finalCode = ExitCode.RUNTIME;
            finalStep = ValidateStep.CLEANUP;
            finalReason =
                "cleanup incomplete after a " + verdict + " verdict (" + reason + "): " + problems;
          } else {
            finalReason = reason + "; cleanup incomplete: " + problems;
          }
        }
        if (cluster != null) {
          doc.isolationSkipped(cluster.skippedIsolationChecks());
        }
        doc.finish(finalVerdict, finalCode, finalReason, finalStep, clock.instant());
        ValidateReports.Written written =
            ValidateReports.write(
                options.reportDir(),
                doc,
                requested == null ? PerformanceRequest.defaults().set() : requested.set());
        err.println(
            "validate: "
                + finalVerdict
                + " (exit "
                + finalCode
                + ")"
                + (finalStep == null ? "" : " at step " + finalStep.id())
                + ": "
                + finalReason);
        err.println("validate: reports in " + options.reportDir().toAbsolutePath());
        err.flush();
        result = new ValidateResult(finalCode, finalVerdict, written.verdict(), written.paths());
        return result;
      } finally {
        closeQuietly();
        lifecycle.unlock();
      }
    }

    /** Returns false when some created object could not be removed. */
    private boolean cleanupOnce() {
      if (cleanup != null) {
        return cleanup.complete();
      }
      List<CreatedObject> created = ledger.snapshot();
      if (options.keep()) {
        ledger.closeForCleanup();
        cleanup = CleanupReport.empty();
        doc.cleanup(true, created, null);
        if (!created.isEmpty()) {
          err.println(
              "validate [cleanup]: --keep: leaving "
                  + created.stream().map(CreatedObject::describe).toList());
        }
        return true;
      }
      if (cluster == null || created.isEmpty()) {
        ledger.closeForCleanup();
        cleanup = CleanupReport.empty();
        doc.cleanup(false, created, cleanup);
        return true;
      }
      ValidateStep before = current;
      Duration bound = options.timeouts().cleanup();
      progress.start(
          ValidateStep.CLEANUP.id(),
          bound,
          "deleting " + created.size() + " object(s) in reverse order");
      try {
        cleanup = cluster.cleanup(ledger, bound, progress.sink());
      } catch (RuntimeException e) {
        cleanup =
            new CleanupReport(
                List.of(),
                List.of(),
                List.of(),
                List.of(
                    "cleanup failed: " + (e.getMessage() == null ? e.toString() : e.getMessage())));
      }
      Duration elapsed =
          progress.end(
              cleanup.complete()
                  ? "done: deleted "
                      + cleanup.deleted().size()
                      + ", already gone "
                      + cleanup.alreadyGone().size()
                  : "incomplete: " + String.join("; ", cleanup.problems()));
      doc.step(
          ValidateStep.CLEANUP,
          cleanup.complete() ? "ok" : "failed",
          elapsed,
          bound,
          cleanup.complete() ? null : String.join("; ", cleanup.problems()));
      doc.cleanup(false, created, cleanup);
      current = before;
      return cleanup.complete();
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
          complete(
              "error", ExitCode.RUNTIME, "interrupted (SIGINT/SIGTERM) during step " + at.id(), at);
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
