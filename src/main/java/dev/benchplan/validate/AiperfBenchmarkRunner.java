package dev.benchplan.validate;

import dev.benchplan.aiperf.config.EndpointType;
import dev.benchplan.aiperf.version.AiperfVersionResolver;
import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.gate.Constraint;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.ExperimentType;
import dev.benchplan.plan.Intent;
import dev.benchplan.plan.MeasurementMode;
import dev.benchplan.plan.PlanOptions;
import dev.benchplan.plan.PlanRequest;
import dev.benchplan.plan.PlanResult;
import dev.benchplan.plan.PlanService;
import dev.benchplan.plan.Question;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.PlanRenderer;
import dev.benchplan.render.RenderRequest;
import dev.benchplan.render.RenderResult;
import dev.benchplan.run.PerfYaml;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.run.RunService;
import dev.benchplan.run.ShutdownHooks;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.GpuAllocation;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.SmokeEvidence;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The benchmark of a validate run through the project's own pipeline: {@code plan} (a static-shape,
 * closed-loop series plan built in code, its deployment record declaring in-cluster readiness),
 * {@code render} (aiperf-config.yaml and perf.yaml under the run's deploy root) and {@code run}
 * (apply, watch, collect, gate), on the client validate already holds.
 */
public final class AiperfBenchmarkRunner implements BenchmarkRunner {
  /** The deploy root inside the run's folder. */
  static final String DEPLOY_ROOT = "deploy";

  /** The file the measured DGD is recorded in (canonical JSON). */
  static final String DGD_FILE = "dgd.json";

  private final Function<ShutdownHooks, RunService> runs;
  private final Clock clock;
  private final Map<String, String> env;
  private final AtomicReference<Runnable> runInterrupt = new AtomicReference<>();
  private volatile boolean interrupted;

  /**
   * @param runs run's service on the cluster validate connected to, given the hooks it registers
   *     its interrupt action with (called when the run starts)
   * @param clock the clock for the plan and the render run ID
   * @param env the environment (for {@code BENCHPLAN_AIPERF_INDEX_URL})
   */
  public AiperfBenchmarkRunner(
      Function<ShutdownHooks, RunService> runs, Clock clock, Map<String, String> env) {
    this.runs = Objects.requireNonNull(runs, "runs");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.env = Map.copyOf(env);
  }

  @Override
  public PlannedBenchmark plan(BenchmarkRequest req) {
    FrontendTarget t = req.target();
    BenchmarkShape shape = req.shape();
    Path workDir = req.workDir().toAbsolutePath().normalize();
    try {
      Files.createDirectories(workDir);
    } catch (IOException e) {
      throw BenchplanException.runtime(
          ErrorLocation.file(workDir),
          workDir + ": cannot create the run folder: " + e.getMessage(),
          e);
    }
    // the DGD measured, exactly as read (or as deployed), hashed for the plan's record
    Path dgdFile = workDir.resolve(DGD_FILE);
    byte[] dgdBytes = CanonicalJson.bytes(req.dgdDocument());
    AtomicFiles.write(dgdFile, dgdBytes);
    String dgdSha = Sha256.hex(dgdBytes);

    DeploymentRecord deployment =
        DeploymentRecord.inMemory(
            "validate:" + t.origin(),
            t.dgdName(),
            req.options().kubeContext() == null ? "current" : req.options().kubeContext(),
            t.namespace(),
            dgdFile.toString(),
            dgdSha,
            t.service(),
            t.port(),
            t.model(),
            t.model(),
            List.of(new GpuAllocation(req.gpuType(), t.workers())),
            null,
            new SmokeEvidence.InClusterReadiness(
                "benchplan validate",
                "the AIPerf Job waits, bounded, until the frontend lists the model, and a warmup phase of "
                    + shape.warmupRequests()
                    + " chat completions precedes the measured requests"),
            secrets(req.dgdDocument(), req.options().hfTokenSecret()));
    InputDocument workload = InputDocument.of("validate:workload", workload(req), workDir);
    Question question = new Question(question(req), Intent.characterization, null, List.of());
    PlanOptions options =
        PlanOptions.builder()
            .expRoot(workDir)
            .seriesId("validate-" + req.run().runId().toLowerCase(Locale.ROOT))
            .experiment(ExperimentType.static_shape)
            .measurementMode(MeasurementMode.closed_loop)
            .warmupRequests(shape.warmupRequests())
            .seed(BenchmarkShape.SEED)
            .datasetEntries(BenchmarkShape.DATASET_ENTRIES)
            .temperature(BenchmarkShape.TEMPERATURE)
            .measurementLimitS(BenchmarkShape.MEASUREMENT_LIMIT_S)
            .endpointType(EndpointType.chat)
            .streaming(true)
            .aiperf(versionRequest(req))
            // one measured run per Job: --repeats runs this plan's Job N times (see run())
            .build();
    PlanResult result =
        new PlanService().plan(PlanRequest.of(workload, deployment, question, options, clock));
    VerifiedPlan verified = result.verified();
    String mechanism = verified.plan().aiperf().resolution().mechanism();
    return new PlannedBenchmark(
        verified.path(), verified.sha256(), result.seriesId(), result.aiperfVersion(), mechanism);
  }

  /** The user workload validate plans from: AICR's shape, and the constraints as SLOs. */
  static ObjectNode workload(BenchmarkRequest req) {
    BenchmarkShape s = req.shape();
    FrontendTarget t = req.target();
    ObjectNode w = Json.JSON.createObjectNode();
    ObjectNode profile = w.putObject("profile");
    profile.put("name", "benchplan-validate");
    profile.put("type", "chat");
    profile.put(
        "description",
        "inference-perf gate: static ISL/OSL "
            + s.isl()
            + "/"
            + s.osl()
            + " (stddev 0, ignore_eos), streaming chat, concurrency "
            + s.concurrency()
            + " ("
            + s.basis()
            + "),"
            + " AICR's load: "
            + s.requestCount()
            + " requests, "
            + s.warmupRequests()
            + " warmup, "
            + BenchmarkShape.DATASET_ENTRIES
            + " dataset entries, seed "
            + BenchmarkShape.SEED
            + ", temperature "
            + BenchmarkShape.TEMPERATURE);
    w.putObject("model").put("source", t.model());
    ArrayNode hw = w.putArray("hardware");
    hw.addObject().put("gpu_type", req.gpuType()).put("gpu_count", t.workers());
    ObjectNode traffic = w.putObject("traffic");
    traffic.put("input_tokens", s.isl());
    traffic.put("output_tokens", s.osl());
    traffic.put("input_tokens_stddev", 0);
    traffic.put("output_tokens_stddev", 0);
    traffic.putArray("concurrency").add(s.concurrency());
    traffic.put("request_count", s.requestCount());
    ObjectNode objectives = w.putObject("objectives");
    // AICR's constraints keep AICR's tolerance in the plan's gates (a user's own objective has
    // none)
    objectives.put("gate_tolerance", PerformanceRequest.GATE_OPTIONS.tolerance());
    ArrayNode slos = objectives.putArray("custom_slos");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (Constraint c : req.constraints().constraints()) {
      if (!seen.add(c.metric() + "-" + c.stat())) {
        continue; // the per-GPU floor and AICR's floor gate the same statistic: the run gates both
      }
      ObjectNode o = slos.addObject();
      o.put("metric", c.metric()).put("stat", c.stat());
      o.put(c.operator() == dev.benchplan.gate.Operator.GE ? "min" : "max", c.threshold());
      o.put(
          "unit",
          Objects.requireNonNull(c.unit()).text()); // validate's constraints all carry a unit
    }
    w.put(
        "notes",
        "written by benchplan validate run "
            + req.run().runId()
            + " for "
            + t.origin()
            + " DGD "
            + t.namespace()
            + "/"
            + t.dgdName()
            + "; gate tolerance "
            + tolerancePercent()
            + "% as AICR applies it"
            + inputsNote(req.inputs()));
    return w;
  }

  /** The resolved inputs with their sources, for the workload the plan hashes. */
  static String inputsNote(@Nullable ValidateInputs inputs) {
    if (inputs == null) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    inputs
        .values()
        .forEach(
            (k, v) -> parts.add(k + "=" + v.value() + " (" + v.source() + ": " + v.origin() + ")"));
    return "; inputs: " + String.join("; ", parts);
  }

  private static String question(BenchmarkRequest req) {
    StringBuilder sb =
        new StringBuilder("Does the inference stack at ")
            .append(req.target().namespace())
            .append('/')
            .append(req.target().dgdName())
            .append(" (")
            .append(req.target().model())
            .append(") meet ");
    List<String> parts = new ArrayList<>();
    for (Constraint c : req.constraints().constraints()) {
      parts.add(
          c.name()
              + " "
              + c.operator().symbol()
              + " "
              + c.threshold().toPlainString()
              + " "
              + Objects.requireNonNull(c.unit()).text());
    }
    sb.append(String.join(" and ", parts))
        .append(" within ")
        .append(tolerancePercent())
        .append("%?");
    int n = req.options().repeats();
    if (n > 1) {
      sb.append(" validate --repeats ")
          .append(n)
          .append(": this plan's Job is run ")
          .append(n)
          .append(" times, one measured run each, and the gate takes the median of each gated")
          .append(" metric, because one run on a cluster with an intermittently stalled worker can")
          .append(" false-fail a healthy deployment (AICR's investigation).");
    }
    return sb.toString();
  }

  private static String tolerancePercent() {
    return PerformanceRequest.GATE_OPTIONS
        .tolerance()
        .movePointRight(2)
        .stripTrailingZeros()
        .toPlainString();
  }

  private VersionRequest versionRequest(BenchmarkRequest req) {
    if (req.options().aiperfVersion() != null) {
      return VersionRequest.pinned(req.options().aiperfVersion());
    }
    String url =
        req.options().aiperfIndexUrl() != null
            ? req.options().aiperfIndexUrl()
            : env.get(AiperfVersionResolver.INDEX_URL_ENV);
    if (url == null || url.isBlank()) {
      return VersionRequest
          .none(); // plan blocks with AIPERF_VERSION_UNRESOLVED: never a version from memory
    }
    try {
      return VersionRequest.index(URI.create(url));
    } catch (IllegalArgumentException e) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--aiperf-index-url"),
          "option --aiperf-index-url: not a URL: '" + url + "'");
    }
  }

  /** Secret names the DGD references (never their values), plus --hf-token-secret. */
  static List<String> secrets(JsonNode dgd, @Nullable String hfTokenSecret) {
    TreeSet<String> names = new TreeSet<>();
    if (hfTokenSecret != null) {
      names.add(hfTokenSecret);
    }
    for (JsonNode svc : dgd.path("spec").path("services").values()) {
      if (svc.path("envFromSecret").isString()) {
        names.add(svc.path("envFromSecret").stringValue());
      }
    }
    for (JsonNode comp : dgd.path("spec").path("components").values()) {
      for (JsonNode c : comp.path("podTemplate").path("spec").path("containers").values()) {
        for (JsonNode from : c.path("envFrom").values()) {
          if (from.path("secretRef").path("name").isString()) {
            names.add(from.path("secretRef").path("name").stringValue());
          }
        }
      }
    }
    return List.copyOf(names);
  }

  /**
   * Renders the first (or only) measurement: with {@code --repeats} above 1 each repeat has its own
   * deploy root, {@code deploy/repeat_K/}, rendered when its turn comes (a run ID of its own).
   */
  @Override
  public RenderedBenchmark render(BenchmarkRequest req, PlannedBenchmark plan) {
    return render(req, plan, deployRoot(req, 1));
  }

  /** {@code deploy/} for one measurement, {@code deploy/repeat_K/} for repeat K of several. */
  static Path deployRoot(BenchmarkRequest req, int repeat) {
    Path root = req.workDir().toAbsolutePath().normalize().resolve(DEPLOY_ROOT);
    return req.options().repeats() > 1 ? root.resolve(RepeatsOutcome.label(repeat)) : root;
  }

  private RenderedBenchmark render(BenchmarkRequest req, PlannedBenchmark plan, Path deployRoot) {
    try {
      Files.createDirectories(deployRoot);
    } catch (IOException e) {
      throw BenchplanException.runtime(
          ErrorLocation.file(deployRoot),
          deployRoot + ": cannot create the deploy root: " + e.getMessage(),
          e);
    }
    int modelWait =
        (int) Math.min(Integer.MAX_VALUE, req.options().timeouts().endpointReady().toSeconds());
    RenderResult r =
        PlanRenderer.render(
            RenderRequest.builder(plan.planPath(), plan.planSha256(), deployRoot)
                .runId(clock, new SecureRandom())
                .modelWaitSeconds(Math.max(1, modelWait))
                .readyRequestTimeoutSeconds(
                    (int)
                        Math.max(
                            1,
                            Math.min(
                                Integer.MAX_VALUE,
                                req.options().timeouts().readyRequest().toSeconds())))
                .build());
    PerfYaml perf = PerfYaml.read(r.perfYaml());
    String ns = r.namespace();
    List<CreatedObject> objects = new ArrayList<>();
    for (String cm : perf.configMapNames()) {
      objects.add(new CreatedObject("v1", "ConfigMap", ns, cm, JobContract.RUN_ID, perf.runId()));
    }
    objects.add(
        new CreatedObject("batch/v1", "Job", ns, perf.jobName(), JobContract.RUN_ID, perf.runId()));
    return new RenderedBenchmark(
        deployRoot, r.perfYaml(), r.perfYamlSha256(), r.jobName(), ns, r.runId(), objects);
  }

  @Override
  public BenchmarkOutcome run(
      BenchmarkRequest req,
      PlannedBenchmark plan,
      RenderedBenchmark rendered,
      ProgressSink progress) {
    int n = req.options().repeats();
    if (n == 1) {
      return outcome(runJob(req, rendered, progress));
    }
    // one Job per repeat: each run's tree stays within the pod-log channel at AICR's load
    List<RunOutcome> runs = new ArrayList<>();
    for (int k = 1; k <= n; k++) {
      if (interrupted) {
        throw BenchplanException.runtime(
            "interrupted before " + RepeatsOutcome.label(k) + " of " + n);
      }
      RenderedBenchmark r = k == 1 ? rendered : render(req, plan, deployRoot(req, k));
      String prefix = RepeatsOutcome.label(k) + "/" + n + " ";
      progress.update(prefix + "Job " + r.namespace() + "/" + r.jobName());
      RunOutcome o = runJob(req, r, detail -> progress.update(prefix + detail));
      BenchmarkOutcome stop = RepeatsOutcome.stop(o, k, n);
      if (stop != null) {
        return stop;
      }
      runs.add(o);
    }
    return RepeatsOutcome.of(
        runs, req.constraints(), req.workDir().toAbsolutePath().normalize().resolve(DEPLOY_ROOT));
  }

  /** Applies one rendered Job (recording its objects first), runs it and gates its run. */
  private RunOutcome runJob(
      BenchmarkRequest req, RenderedBenchmark rendered, ProgressSink progress) {
    for (CreatedObject o : rendered.objects()) {
      if (!req.ledger().record(o)) {
        throw BenchplanException.runtime("interrupted before the AIPerf Job was applied");
      }
    }
    // run's own interrupt action is handed to validate's hook instead of halting the JVM itself
    ShutdownHooks hooks =
        action -> {
          runInterrupt.set(action);
          return () -> runInterrupt.set(null);
        };
    // validate's constraints as resolved for this load (scaled floor, per-GPU floor x GPUs), not
    // the file's
    RunRequest runRequest =
        RunRequest.builder(rendered.deployRoot())
            .namespace(rendered.namespace())
            .timeout(req.options().timeouts().job())
            .scheduleTimeout(req.options().timeouts().podScheduling())
            .keep(req.options().keep())
            .constraints(req.constraints().set())
            .build();
    return runs.apply(hooks)
        .run(
            runRequest,
            (phase, elapsed, detail) ->
                progress.update(phase + (detail == null ? "" : ": " + detail)));
  }

  @Override
  public void interrupt() {
    interrupted = true; // no further repeat starts
    Runnable r = runInterrupt.getAndSet(null);
    if (r != null) {
      r.run();
    }
  }

  /** The run's gate verdict, as validate reports it; a run that ended early is a run error. */
  static BenchmarkOutcome outcome(RunOutcome o) {
    return outcome(o.verdict(), o.exitReason(), o.runDir());
  }

  /**
   * The same, from the run's verdict (findings applied: a client-bound run is an error), how it
   * ended and its directory.
   */
  static BenchmarkOutcome outcome(Verdict v, String exitReason, Path runDir) {
    if (v.verdict() == Status.SKIP) {
      throw new ValidateStepException(
          ValidateStep.GATE,
          dev.benchplan.error.ExitCode.RUNTIME,
          "the gate found no constraint to judge",
          null);
    }
    boolean completed = "completed".equals(exitReason);
    ValidateStep failed =
        v.verdict() == Status.ERROR ? (completed ? ValidateStep.GATE : ValidateStep.RUN) : null;
    String message =
        v.message()
            + (v.verdict() == Status.ERROR && !completed ? " (run ended: " + exitReason + ")" : "");
    return new BenchmarkOutcome(v, message, failed, runDir.toString());
  }
}
