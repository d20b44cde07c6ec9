package dev.benchplan.render;

import dev.benchplan.aiperf.config.AiperfInvocation;
import dev.benchplan.aiperf.config.AiperfSettings;
import dev.benchplan.aiperf.version.AiperfVersion;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.manifest.JobInputs;
import dev.benchplan.render.manifest.JobResources;
import dev.benchplan.render.manifest.PerfManifests;
import dev.benchplan.render.manifest.YamlDocuments;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The render service: verifies the plan (SHA-256, schema, trace unchanged), picks the load point,
 * run id and names, renders aiperf-config.yaml and perf.yaml, and writes both atomically (both or
 * neither) under {@code DEPLOY_ROOT/benchmark/}. Every check happens before anything is written.
 */
public final class PlanRenderer {
  /** The folder under DEPLOY_ROOT that receives both files. */
  public static final String BENCHMARK_DIR = "benchmark";

  /** The AIPerf config file name. */
  public static final String AIPERF_CONFIG = "aiperf-config.yaml";

  /** The manifest file name. */
  public static final String PERF_YAML = "perf.yaml";

  private PlanRenderer() {}

  /** Renders and writes; throws invalid input (exit 2) with nothing written on any problem. */
  public static RenderResult render(RenderRequest req) {
    return render(req, req.deployRoot());
  }

  /**
   * As {@link #render(RenderRequest)}, with the paths the rendered files record (plan, ledger)
   * relative to {@code anchor} instead of the DEPLOY_ROOT written to: {@code verify} re-renders
   * into a scratch folder what render wrote into {@code anchor}.
   */
  public static RenderResult render(RenderRequest req, Path anchor) {
    Path recordedRoot = anchor.toAbsolutePath().normalize();
    ArtifactTarget artifacts = ArtifactTarget.parse(req.artifacts());
    TraceSource traceSource = TraceSource.parse(req.traceSource());
    if (req.namespace() != null) {
      KubeNames.requireDns1123Label(
          req.namespace(), "--namespace", ErrorLocation.option("--namespace"));
    }
    if (req.jobName() != null) {
      KubeNames.requireDns1123Label(
          req.jobName(), "--job-name", ErrorLocation.option("--job-name"));
    }
    Path deployRoot = req.deployRoot().toAbsolutePath().normalize();
    if (!Files.isDirectory(deployRoot)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--deploy-root", deployRoot),
          deployRoot
              + ": deploy root does not exist or is not a directory: expected an existing"
              + " DEPLOY_ROOT folder");
    }

    VerifiedPlan series = PlanFile.verify(req.plan(), req.planSha256());
    CandidateBinding candidate = CandidateBinding.bind(series, req.ledger(), req.smokeAge());
    // the plan with /deployment bound to the candidate measured now; path and SHA-256 stay the
    // plan's
    VerifiedPlan verified = candidate.plan();
    BenchmarkPlan plan = verified.plan();
    String source = verified.path().toString();
    AiperfVersion release =
        AiperfVersion.parse(
            plan.aiperf().version(),
            source + " /aiperf/version",
            ErrorLocation.pointer(source, "/aiperf/version"));
    ImageReference image = image(req.image(), plan, release, source);
    String namespace = req.namespace() != null ? req.namespace() : plan.deployment().namespace();
    KubeNames.requireDns1123Label(
        namespace,
        source + " /deployment/namespace",
        ErrorLocation.pointer(source, "/deployment/namespace"));

    TracePlacement trace = null;
    if (AiperfSettingsFactory.usesTrace(plan)) {
      trace = TracePlacement.place(verified, traceSource);
    } else if (traceSource.kind() != TraceSource.Kind.AUTO) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--trace-source"),
          "--trace-source "
              + req.traceSource()
              + ": "
              + source
              + " /workload/source is "
              + plan.workload().source()
              + ", which replays no trace: expected no --trace-source");
    }
    List<LoadPoint> points =
        req.loadPoint() == null
            ? LoadPoint.all(plan.experiment())
            : List.of(LoadPoint.select(plan.experiment(), req.loadPoint(), source));
    BenchmarkPlan.RunPolicy policy = plan.runPolicy();
    MeasuredRuns runs =
        MeasuredRuns.of(
            points, policy == null ? 1 : policy.repetitions(), policy != null && policy.pilot());
    String pointsShown =
        req.loadPoint() != null || points.size() == 1
            ? points.get(0).describe()
            : points.stream().map(LoadPoint::describe).toList().toString();

    // the rendered files name the ledger relative to DEPLOY_ROOT: no checkout's location in them
    String ledgerShown =
        Path.of(candidate.ledgerPath()).isAbsolute()
            ? PlanPaths.relative(recordedRoot, candidate.ledgerPath())
            : candidate.ledgerPath();
    RunId runId = RunId.generate(req.clock(), req.random());
    String jobName =
        req.jobName() != null ? req.jobName() : KubeNames.jobName(plan.seriesId(), runId);
    String artifactDir = PodPaths.artifactDir(runId);
    List<String> context =
        List.of(
            "plan "
                + plan.planId()
                + " (series "
                + plan.seriesId()
                + "), sha256 "
                + verified.sha256(),
            "run "
                + runId
                + (pointsShown == null ? "" : ", load point " + pointsShown)
                + ", "
                + runs.count()
                + " measured run(s): "
                + runs.mechanism(),
            "candidate "
                + candidate.dgd()
                + " at "
                + verified.endpointUrl()
                + ", ledger "
                + ledgerShown
                + " (sha256 "
                + candidate.ledgerSha256()
                + ")");
    List<AiperfInvocation> invocations = new java.util.ArrayList<>();
    AiperfSettings settings = null;
    for (int i = 0; i < points.size(); i++) {
      String dir = runs.points().get(i).directory();
      AiperfSettings s =
          AiperfSettingsFactory.forRun(
              verified,
              points.get(i),
              trace == null ? null : PerfManifests.tracePathInPod(trace.volume()),
              dir == null ? artifactDir : artifactDir + "/" + dir);
      settings = settings == null ? s : settings;
      AiperfInvocation inv =
          AiperfInvocation.of(s, release, PerfManifests.configPathInPod(), context, source);
      if (runs.count() > 1 && inv.mode() != dev.benchplan.aiperf.config.InvocationMode.CONFIG) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(source, "/aiperf/version"),
            source
                + " /aiperf/version: AIPerf "
                + release
                + " reads no native config, and"
                + " benchplan measures several runs in one Job ("
                + runs.count()
                + ": "
                + points.size()
                + " load point(s) x "
                + runs.repetitions()
                + " repetition(s)) only through the native config (multiRun.numRuns, one config"
                + " per point; AIPerf "
                + AiperfInvocation.NATIVE_CONFIG
                + " or later): expected"
                + " --load-point with a plan of one repetition, or a plan pinned to "
                + AiperfInvocation.NATIVE_CONFIG
                + " or later");
      }
      if (runs.repetitions() > 1) {
        // AIPerf's own multi-run: each trial keeps the phase's bounds; numRuns is capped at 10
        // by AIPerf's schema, as run_policy.repetitions is by the plan's
        inv.document().putObject("multiRun").put("numRuns", runs.repetitions());
      }
      invocations.add(inv);
    }
    AiperfInvocation invocation = invocations.get(0);
    ArtifactEstimate estimate = ArtifactEstimate.of(plan, runs.count());
    // past the pod-log bound the tree needs a claim (collector pods bring it back); without one,
    // render refuses; validate's one run keeps the summary-only contract (the Job says
    // artifacts:too-large); several runs would lose every run's evidence: refused everywhere
    boolean operator = OperatorRender.chosen(plan);
    if (!operator
        && !estimate.fitsLogChannel()
        && !artifacts.isPvc()
        && (req.refusePastLogBound() || runs.count() > 1)) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/experiment"),
          source
              + " /experiment: the artifacts of "
              + runs.count()
              + " measured run(s) are estimated at "
              + estimate.mib()
              + " ("
              + estimate.basis()
              + "), more than the pod-log channel carries ("
              + new ArtifactEstimate(ArtifactEstimate.LOG_CHANNEL_MAX_BYTES).mib()
              + ": kubelets rotate"
              + " container logs at 10 MiB and the logs API serves only the current file): expected"
              + " --artifacts-pvc CLAIM (AIPerf writes to the claim, collector pods bring the tree back"
              + " verified), --load-point to measure one point per Job, or fewer requests");
    }
    byte[] configBytes =
        YamlDocuments.write(
            invocation.header(), invocations.stream().map(AiperfInvocation::document).toList());
    String configSha = Sha256.hex(configBytes);

    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE);
    labels.put(JobContract.NAME, JobContract.NAME_VALUE);
    labels.put(JobContract.SERIES, KubeNames.seriesLabel(plan.seriesId()));
    labels.put(
        JobContract.PLAN_SHA256,
        verified.sha256().substring(0, JobContract.PLAN_SHA256_LABEL_LENGTH));
    labels.put(JobContract.RUN_ID, runId.value());
    Map<String, String> annotations = new LinkedHashMap<>();
    // relative to DEPLOY_ROOT, as render-manifest.json records it: no checkout's location in the
    // file
    annotations.put(JobContract.PLAN_PATH, PlanPaths.relative(recordedRoot, verified.path()));
    annotations.put(JobContract.PLAN_SHA256, verified.sha256());
    annotations.put(JobContract.PLAN_ID, plan.planId());
    annotations.put(JobContract.SERIES, plan.seriesId());
    annotations.put(JobContract.ENDPOINT, verified.endpointUrl());
    annotations.put(JobContract.AIPERF_VERSION, release.toString());
    annotations.put(JobContract.AIPERF_MODE, invocation.mode().label());
    annotations.put(
        JobContract.DGD, plan.deployment().namespace() + "/" + plan.deployment().dgdName());
    annotations.put(JobContract.LEDGER, ledgerShown);
    annotations.put(JobContract.LEDGER_SHA256, candidate.ledgerSha256());
    annotations.put(JobContract.DGD_SHA256, plan.deployment().dgdSha256());
    annotations.put(JobContract.ARTIFACTS, artifacts.describe());
    if (trace != null) {
      annotations.put(JobContract.TRACE_SOURCE, trace.describe());
    }
    if (pointsShown != null) {
      annotations.put(JobContract.LOAD_POINT, pointsShown);
    }
    if (req.pair() != null) {
      annotations.put(JobContract.PAIR, req.pair().annotation());
    }
    annotations.put(JobContract.MEASURED_RUNS, runs.toJson());
    annotations.put(JobContract.ARTIFACT_ESTIMATE, Long.toString(estimate.bytes()));
    if (operator) {
      // the engine plan chose: one AIPerfJob per measured run, AIPerf's operator keeps the results
      return OperatorRender.render(
          new OperatorRender.Inputs(
              req,
              deployRoot,
              verified,
              candidate,
              release,
              image,
              namespace,
              points,
              runs,
              runId,
              jobName,
              req.jobName() != null,
              labels,
              annotations,
              invocations,
              configBytes,
              context,
              trace,
              hfTokenSecret(plan.deployment().secrets())));
    }
    JobBudget budget =
        new JobBudget(
            plan.experiment().measurementLimitS(),
            Objects.requireNonNull(settings).warmup() != null, // a plan has at least one load point
            req.modelWait(),
            runs.count());
    JobInputs inputs =
        new JobInputs(
            jobName,
            namespace,
            labels,
            annotations,
            new String(configBytes, StandardCharsets.UTF_8),
            configSha,
            trace == null ? null : trace.volume(),
            trace == null ? null : trace.sha256(),
            artifacts.claim(),
            artifacts.subPath(),
            image.reference(),
            invocation.profileArgs(),
            verified.endpointUrl(),
            plan.deployment().servedModel(),
            artifactDir,
            hfTokenSecret(plan.deployment().secrets()),
            plan.deployment().dgdName(),
            plan.deployment().namespace(),
            budget.activeDeadlineSeconds(),
            runConfigs(runs, invocations),
            ArtifactEstimate.LOG_CHANNEL_MAX_BYTES,
            resources(plan, points));
    List<ObjectNode> docs =
        PerfManifests.build(inputs, budget.modelWaitSeconds(), req.readyRequestTimeout());
    List<String> perfHeader =
        List.of(
            "benchplan render: the AIPerf Job of one run, and the ConfigMaps it mounts",
            context.get(0),
            context.get(1),
            context.get(2),
            "artifacts: estimated "
                + estimate.mib()
                + " ("
                + estimate.bytes()
                + " bytes), "
                + transport(estimate, artifacts),
            "Apply as is: kubectl apply -f perf.yaml (ConfigMaps first, then the Job).");
    byte[] perfBytes = YamlDocuments.write(perfHeader, docs);

    Path dir = deployRoot.resolve(BENCHMARK_DIR);
    Path configPath = dir.resolve(AIPERF_CONFIG);
    Path perfPath = dir.resolve(PERF_YAML);
    Map<Path, byte[]> files = new LinkedHashMap<>();
    files.put(configPath, configBytes);
    files.put(perfPath, perfBytes);
    files.put(
        dir.resolve(RenderManifest.FILE),
        RenderManifest.of(
            req,
            deployRoot,
            verified,
            runId.value(),
            jobName,
            namespace,
            AiperfJobContract.JOB_ENGINE,
            new LinkedHashMap<>(files),
            java.util.List.of()));
    AtomicFiles.writeAll(files);
    // AIPerfJobs rendered earlier into the same root would otherwise be run instead
    AtomicFiles.deleteQuietly(dir.resolve(AiperfJobContract.FILE));
    return new RenderResult(
        configPath,
        configSha,
        perfPath,
        Sha256.hex(perfBytes),
        jobName,
        namespace,
        invocation.mode().label(),
        runId.value(),
        pointsShown,
        candidate.dgd(),
        verified.endpointUrl(),
        candidate.ledgerPath(),
        candidate.ledgerSha256(),
        runs.mechanism(),
        runs.count(),
        estimate.bytes(),
        transport(estimate, artifacts),
        verified.plan().objectives().gates());
  }

  /** How the tree comes back, in one phrase (perf.yaml's header, render's output). */
  static String transport(ArtifactEstimate estimate, ArtifactTarget artifacts) {
    if (estimate.fitsLogChannel()) {
      return "shipped back through the pod log (verified)"
          + (artifacts.isPvc() ? "; kept on " + artifacts.describe() + " too" : "");
    }
    return artifacts.isPvc()
        ? "beyond the pod-log channel: written to "
            + artifacts.describe()
            + ", brought back by collector pods through the same verified channel"
        : "beyond the pod-log channel: only the summary comes back (no artifact claim)";
  }

  /**
   * The Job's size: the largest rendered point's sizing from the plan's load_generator (one Job
   * runs its points one after another), or the fixed size of a plan written before the rule.
   */
  static JobResources resources(BenchmarkPlan plan, List<LoadPoint> points) {
    return points.stream()
        .map(p -> AiperfSettingsFactory.sizingOf(plan, p))
        .flatMap(java.util.Optional::stream)
        .max(java.util.Comparator.comparingInt(BenchmarkPlan.PointSizing::workers))
        .map(s -> JobResources.of(s.cpuCores(), s.memoryMib()))
        .orElse(JobResources.UNSIZED);
  }

  private static ImageReference image(
      @Nullable String override, BenchmarkPlan plan, AiperfVersion release, String source) {
    String what = override != null ? "--image" : source + " /aiperf/image";
    ErrorLocation at =
        override != null
            ? ErrorLocation.option("--image")
            : ErrorLocation.pointer(source, "/aiperf/image");
    ImageReference image =
        ImageReference.parse(override != null ? override : plan.aiperf().image(), what, at);
    if (AiperfVersion.isPlanForm(image.tag())) {
      AiperfVersion tagged = AiperfVersion.parse(image.tag(), what, at);
      if (tagged.compareTo(release) != 0) {
        throw BenchplanException.invalid(
            at,
            what
                + ": image tag "
                + image.tag()
                + " differs from the plan's AIPerf pin "
                + release
                + " ("
                + source
                + " /aiperf/version): expected an image of the pinned"
                + " version");
      }
    }
    return image;
  }

  /**
   * The Secret that holds the Hugging Face token, by name only: the first secret named like one
   * (hf, hugging), else the only secret, else none.
   */
  static @Nullable String hfTokenSecret(List<String> secrets) {
    for (String s : secrets) {
      String lower = s.toLowerCase(Locale.ROOT);
      if (lower.contains("hf") || lower.contains("hugging")) {
        return s;
      }
    }
    return secrets.size() == 1 ? secrets.get(0) : null;
  }

  /**
   * Each run's folder -> its own AIPerf config (one ConfigMap key each), when runs are sequenced.
   */
  private static Map<String, String> runConfigs(
      MeasuredRuns runs, List<AiperfInvocation> invocations) {
    Map<String, String> configs = new LinkedHashMap<>();
    if (runs.sequence()) {
      for (int i = 0; i < invocations.size(); i++) {
        AiperfInvocation inv = invocations.get(i);
        configs.put(
            Objects.requireNonNull(runs.points().get(i).directory()),
            new String(
                YamlDocuments.write(inv.header(), List.of(inv.document())),
                StandardCharsets.UTF_8));
      }
    }
    return configs;
  }
}
