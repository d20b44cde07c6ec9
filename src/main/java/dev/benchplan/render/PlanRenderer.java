package dev.benchplan.render;

import dev.benchplan.aiperf.config.AiperfInvocation;
import dev.benchplan.aiperf.version.AiperfVersion;
import dev.benchplan.aiperf.config.AiperfSettings;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.manifest.JobInputs;
import dev.benchplan.render.manifest.PerfManifests;
import dev.benchplan.render.manifest.YamlDocuments;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    ArtifactTarget artifacts = ArtifactTarget.parse(req.artifacts());
    TraceSource traceSource = TraceSource.parse(req.traceSource());
    if (req.namespace() != null) {
      KubeNames.requireDns1123Label(req.namespace(), "--namespace");
    }
    if (req.jobName() != null) {
      KubeNames.requireDns1123Label(req.jobName(), "--job-name");
    }
    Path deployRoot = req.deployRoot().toAbsolutePath().normalize();
    if (!Files.isDirectory(deployRoot)) {
      throw BenchplanException.invalid(
          deployRoot + ": deploy root does not exist or is not a directory: expected an existing"
              + " DEPLOY_ROOT folder");
    }

    VerifiedPlan series = PlanFile.verify(req.plan(), req.planSha256());
    CandidateBinding candidate = CandidateBinding.bind(series, req.ledger());
    // the plan with /deployment bound to the candidate measured now; path and SHA-256 stay the plan's
    VerifiedPlan verified = candidate.plan();
    BenchmarkPlan plan = verified.plan();
    String source = verified.path().toString();
    AiperfVersion release = AiperfVersion.parse(plan.aiperf().version(), source + " /aiperf/version");
    ImageReference image = image(req.image(), plan, release, source);
    String namespace = req.namespace() != null ? req.namespace() : plan.deployment().namespace();
    KubeNames.requireDns1123Label(namespace, source + " /deployment/namespace");

    TracePlacement trace = null;
    if (AiperfSettingsFactory.usesTrace(plan)) {
      trace = TracePlacement.place(verified, traceSource);
    } else if (traceSource.kind() != TraceSource.Kind.AUTO) {
      throw BenchplanException.invalid(
          "--trace-source " + req.traceSource() + ": " + source + " /workload/source is "
              + plan.workload().source() + ", which replays no trace: expected no --trace-source");
    }
    LoadPoint point = LoadPoint.select(plan.experiment(), req.loadPoint(), source);

    RunId runId = RunId.generate(req.clock(), req.random());
    String jobName = req.jobName() != null ? req.jobName() : KubeNames.jobName(plan.seriesId(), runId);
    String artifactDir = PodPaths.artifactDir(runId);
    AiperfSettings settings =
        AiperfSettingsFactory.forRun(
            verified,
            point,
            trace == null ? null : PerfManifests.tracePathInPod(trace.volume()),
            artifactDir);
    List<String> context =
        List.of(
            "plan " + plan.planId() + " (series " + plan.seriesId() + "), sha256 "
                + verified.sha256(),
            "run " + runId + (point.describe() == null ? "" : ", load point " + point.describe()),
            "candidate " + candidate.dgd() + " at " + verified.endpointUrl() + ", ledger "
                + candidate.ledgerPath() + " (sha256 " + candidate.ledgerSha256() + ")");
    AiperfInvocation invocation =
        AiperfInvocation.of(
            settings, release, PerfManifests.configPathInPod(), context, source);
    byte[] configBytes = YamlDocuments.write(invocation.header(), List.of(invocation.document()));
    String configSha = Sha256.hex(configBytes);

    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE);
    labels.put(JobContract.NAME, JobContract.NAME_VALUE);
    labels.put(JobContract.SERIES, KubeNames.seriesLabel(plan.seriesId()));
    labels.put(JobContract.PLAN_SHA256,
        verified.sha256().substring(0, JobContract.PLAN_SHA256_LABEL_LENGTH));
    labels.put(JobContract.RUN_ID, runId.value());
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(JobContract.PLAN_PATH, verified.path().toString());
    annotations.put(JobContract.PLAN_SHA256, verified.sha256());
    annotations.put(JobContract.PLAN_ID, plan.planId());
    annotations.put(JobContract.SERIES, plan.seriesId());
    annotations.put(JobContract.ENDPOINT, verified.endpointUrl());
    annotations.put(JobContract.AIPERF_VERSION, release.toString());
    annotations.put(JobContract.AIPERF_MODE, invocation.mode().label());
    annotations.put(
        JobContract.DGD, plan.deployment().namespace() + "/" + plan.deployment().dgdName());
    annotations.put(JobContract.LEDGER, candidate.ledgerPath());
    annotations.put(JobContract.LEDGER_SHA256, candidate.ledgerSha256());
    annotations.put(JobContract.ARTIFACTS, artifacts.describe());
    if (trace != null) {
      annotations.put(JobContract.TRACE_SOURCE, trace.describe());
    }
    if (point.describe() != null) {
      annotations.put(JobContract.LOAD_POINT, point.describe());
    }
    JobBudget budget = new JobBudget(plan.experiment().measurementLimitS(), settings.warmup() != null,
        req.modelWait());
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
            budget.activeDeadlineSeconds());
    List<ObjectNode> docs = PerfManifests.build(inputs, budget.modelWaitSeconds());
    List<String> perfHeader =
        List.of(
            "benchplan render: the AIPerf Job of one run, and the ConfigMaps it mounts",
            context.get(0),
            context.get(1),
            context.get(2),
            "Apply as is: kubectl apply -f perf.yaml (ConfigMaps first, then the Job).");
    byte[] perfBytes = YamlDocuments.write(perfHeader, docs);

    Path dir = deployRoot.resolve(BENCHMARK_DIR);
    Path configPath = dir.resolve(AIPERF_CONFIG);
    Path perfPath = dir.resolve(PERF_YAML);
    Map<Path, byte[]> files = new LinkedHashMap<>();
    files.put(configPath, configBytes);
    files.put(perfPath, perfBytes);
    files.put(dir.resolve(RenderManifest.FILE), RenderManifest.of(req, deployRoot, verified,
        runId.value(), jobName, namespace, new LinkedHashMap<>(files)));
    AtomicFiles.writeAll(files);
    return new RenderResult(
        configPath,
        configSha,
        perfPath,
        Sha256.hex(perfBytes),
        jobName,
        namespace,
        invocation.mode().label(),
        runId.value(),
        point.describe(),
        candidate.dgd(),
        verified.endpointUrl(),
        candidate.ledgerPath(),
        candidate.ledgerSha256());
  }

  private static ImageReference image(
      String override, BenchmarkPlan plan, AiperfVersion release, String source) {
    String what = override != null ? "--image" : source + " /aiperf/image";
    ImageReference image =
        ImageReference.parse(override != null ? override : plan.aiperf().image(), what);
    if (AiperfVersion.isPlanForm(image.tag())) {
      AiperfVersion tagged = AiperfVersion.parse(image.tag(), what);
      if (tagged.compareTo(release) != 0) {
        throw BenchplanException.invalid(
            what + ": image tag " + image.tag() + " differs from the plan's AIPerf pin "
                + release + " (" + source + " /aiperf/version): expected an image of the pinned"
                + " version");
      }
    }
    return image;
  }

  /**
   * The Secret that holds the Hugging Face token, by name only: the first secret named like one
   * (hf, hugging), else the only secret, else none.
   */
  static String hfTokenSecret(List<String> secrets) {
    for (String s : secrets) {
      String lower = s.toLowerCase(Locale.ROOT);
      if (lower.contains("hf") || lower.contains("hugging")) {
        return s;
      }
    }
    return secrets.size() == 1 ? secrets.get(0) : null;
  }
}
