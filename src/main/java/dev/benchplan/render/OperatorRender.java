package dev.benchplan.render;

import dev.benchplan.aiperf.config.AiperfInvocation;
import dev.benchplan.aiperf.config.InvocationMode;
import dev.benchplan.aiperf.version.AiperfVersion;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.manifest.AiperfJobs;
import dev.benchplan.render.manifest.YamlDocuments;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Render for the {@code aiperf-operator} engine: one AIPerfJob per measured run (every load point
 * times every repetition: the AIPerfJob refuses {@code sweep} and {@code multiRun.numRuns > 1}),
 * written to {@code DEPLOY_ROOT/benchmark/aiperfjobs.yaml} instead of perf.yaml, beside the same
 * aiperf-config.yaml the plain Job would mount (one document per load point) and a
 * render-manifest.json whose {@code engine} says which was rendered.
 */
final class OperatorRender {
  private OperatorRender() {}

  /** True when the plan's load generator is AIPerf's operator. */
  static boolean chosen(BenchmarkPlan plan) {
    return plan.loadGenerator() != null
        && AiperfJobContract.ENGINE.equals(plan.loadGenerator().engine());
  }

  /** Everything the plain render already decided, handed over at the fork. */
  // a hand-over of arguments, never compared or hashed, so the array component's identity equality
  // is moot
  @SuppressWarnings("ArrayRecordComponent")
  record Inputs(
      RenderRequest req,
      Path deployRoot,
      VerifiedPlan verified,
      CandidateBinding candidate,
      AiperfVersion release,
      ImageReference image,
      String namespace,
      List<LoadPoint> points,
      MeasuredRuns runs,
      RunId runId,
      String jobName,
      boolean jobNameGiven,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<AiperfInvocation> invocations,
      byte[] configBytes,
      List<String> context,
      @Nullable TracePlacement trace,
      @Nullable String hfTokenSecret) {}

  static RenderResult render(Inputs in) {
    BenchmarkPlan plan = in.verified().plan();
    String source = in.verified().path().toString();
    AiperfVersion first = AiperfVersion.parse(AiperfJobContract.FIRST_RELEASE);
    if (in.release().compareTo(first) < 0
        || in.invocations().get(0).mode() != InvocationMode.CONFIG) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, "/aiperf/version"),
          source
              + " /aiperf/version: AIPerf "
              + in.release()
              + " has no"
              + " Kubernetes operator, and "
              + source
              + " /load_generator/engine is "
              + AiperfJobContract.ENGINE
              + ": expected a plan pinned to AIPerf "
              + first
              + " or later, or the engine job");
    }
    int modelWait = in.req().modelWait();
    boolean warmup = in.invocations().get(0).document().at("/benchmark/phases").size() > 1;
    long timeout =
        new JobBudget(plan.experiment().measurementLimitS(), warmup, modelWait)
            .activeDeadlineSeconds();
    BenchmarkPlan.LoadGenerator generator =
        Objects.requireNonNull(plan.loadGenerator()); // chosen(plan)
    List<BenchmarkPlan.PointSizing> sizing =
        generator.points() == null ? List.of() : generator.points();
    List<LoadPoint> all = LoadPoint.all(plan.experiment());

    String base =
        in.jobNameGiven() ? in.jobName() : "bp-" + in.runId().value().toLowerCase(Locale.ROOT);
    List<ObjectNode> jobs = new ArrayList<>();
    // a replayed trace reaches every pod of every AIPerfJob as the plain Job gets it: a ConfigMap
    // (applied first, from this file) or the named PVC, checked against the plan's SHA-256 in each
    // pod
    TracePlacement trace = in.trace();
    AiperfJobs.Trace podTrace = null;
    ObjectNode traceMap = null;
    if (trace != null) {
      String mapName =
          base.substring(0, Math.min(base.length(), KubeNames.MAX_LABEL - 6)).replaceAll("-+$", "")
              + "-trace";
      podTrace = new AiperfJobs.Trace(trace.volume(), trace.sha256(), mapName);
      if (trace.volume() instanceof dev.benchplan.render.manifest.TraceVolume.InConfigMap inMap) {
        traceMap =
            AiperfJobs.traceConfigMap(
                mapName, in.namespace(), in.labels(), trace.sha256(), inMap.content());
        jobs.add(traceMap);
      }
    }
    List<String> names = new ArrayList<>();
    List<OperatorSizing> splits = new ArrayList<>();
    int reps = in.runs().repetitions();
    for (int i = 0; i < in.points().size(); i++) {
      LoadPoint point = in.points().get(i);
      int index = all.indexOf(point);
      BenchmarkPlan.PointSizing size =
          index >= 0 && index < sizing.size() ? sizing.get(index) : null;
      // the plan's figures are the load's totals; the AIPerfJob is sized per worker pod
      OperatorSizing split = OperatorSizing.split(size, point);
      splits.add(split);
      String pointDir = in.runs().points().get(i).directory();
      for (int r = 1; r <= reps; r++) {
        String suffix = (in.points().size() > 1 ? "-p" + (i + 1) : "") + (reps > 1 ? "-r" + r : "");
        String name =
            base.substring(0, Math.min(base.length(), KubeNames.MAX_LABEL - suffix.length()))
                    .replaceAll("-+$", "")
                + suffix;
        KubeNames.requireDns1123Label(name, "AIPerfJob name");
        String dir = pointDir == null ? "" : pointDir;
        if (reps > 1) {
          dir = (dir.isEmpty() ? "" : dir + "/") + "repetition_" + r;
        }
        Map<String, String> annotations = new LinkedHashMap<>(in.annotations());
        if (point.describe() != null) {
          annotations.put(AiperfJobContract.RUN_LOAD_POINT, point.describe());
        }
        annotations.put(AiperfJobContract.RUN_REPETITION, Integer.toString(r));
        annotations.put(AiperfJobContract.RUN_DIRECTORY, dir);
        annotations.put(
            AiperfJobContract.RESULTS_SERVICE, AiperfJobContract.DEFAULT_RESULTS_SERVICE);
        annotations.put(AiperfJobContract.SIZING, split.describe());
        jobs.add(
            AiperfJobs.build(
                new AiperfJobs.Inputs(
                    name,
                    in.namespace(),
                    in.labels(),
                    annotations,
                    in.invocations().get(i).document(),
                    in.image().reference(),
                    split,
                    timeout,
                    modelWait,
                    plan.deployment().dgdName(),
                    plan.deployment().namespace(),
                    in.hfTokenSecret(),
                    podTrace)));
        names.add(name);
      }
    }
    List<String> header =
        List.of(
            "benchplan render: engine "
                + AiperfJobContract.ENGINE
                + ", one AIPerfJob per measured run ("
                + names.size()
                + "), for AIPerf's own operator ("
                + AiperfJobContract.CRD
                + ")"
                + (traceMap != null ? "; the trace's ConfigMap first" : ""),
            in.context().get(0),
            in.context().get(1),
            in.context().get(2),
            "results: the operator's results API, each file checked against its listed size and hashed"
                + " on arrival by benchplan run",
            "benchplan run applies them one after another; kubectl apply -f works too (one at a time:"
                + " they share the endpoint).");
    byte[] jobsBytes = YamlDocuments.write(header, jobs);

    Path dir = in.deployRoot().resolve(PlanRenderer.BENCHMARK_DIR);
    Path configPath = dir.resolve(PlanRenderer.AIPERF_CONFIG);
    Path jobsPath = dir.resolve(AiperfJobContract.FILE);
    Map<Path, byte[]> files = new LinkedHashMap<>();
    files.put(configPath, in.configBytes());
    files.put(jobsPath, jobsBytes);
    files.put(
        dir.resolve(RenderManifest.FILE),
        RenderManifest.of(
            in.req(),
            in.deployRoot(),
            in.verified(),
            in.runId().value(),
            names.get(0),
            in.namespace(),
            AiperfJobContract.ENGINE,
            new LinkedHashMap<>(files),
            splits));
    AtomicFiles.writeAll(files);
    // a plain Job rendered earlier into the same root would otherwise be run instead
    AtomicFiles.deleteQuietly(dir.resolve(PlanRenderer.PERF_YAML));
    String pointsShown =
        in.points().size() == 1
            ? in.points().get(0).describe()
            : in.points().stream().map(LoadPoint::describe).toList().toString();
    return new RenderResult(
        configPath,
        Sha256.hex(in.configBytes()),
        jobsPath,
        Sha256.hex(jobsBytes),
        names.get(0),
        in.namespace(),
        in.invocations().get(0).mode().label(),
        in.runId().value(),
        pointsShown,
        in.candidate().dgd(),
        in.verified().endpointUrl(),
        in.candidate().ledgerPath(),
        in.candidate().ledgerSha256(),
        "aiperfjob-per-run",
        names.size(),
        0L,
        "AIPerf's operator keeps the results; fetched through its results API",
        in.verified().plan().objectives().gates());
  }
}
