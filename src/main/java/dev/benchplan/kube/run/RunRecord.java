package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfPodLog;
import dev.benchplan.gate.RunVerdicts;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.MeasuredRuns;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.run.PerfYaml;
import dev.benchplan.run.PlanReference;
import dev.benchplan.run.RunRequest;
import dev.benchplan.runrecord.RunRecordDocument;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * run.json (schemas/run-record.schema.json): what ran (plan, perf.yaml, Job, pod, node, image),
 * against what (endpoint, DGD, isolation preflight), with which instrument (AIPerf version in the
 * export vs the plan's pin), when, how it ended, and whether it may serve as evidence.
 */
final class RunRecord {
  static final String SCHEMA_VERSION = "1";

  /** volume_collection when the Job printed no artifact block: the summary alone came back. */
  static final String PVC_NOTE =
      "not collected: the Job printed no artifact block (a perf.yaml rendered before artifact"
          + " shipping); only the summary between the pod log markers was kept";

  /** volume_collection when the whole tree came back verified through the pod log. */
  static final String TREE_NOTE =
      "collected: every file AIPerf wrote, through the pod log's verified"
          + " artifact block, in aiperf/; artifacts.sha256 (sha256sum format) lists each file's SHA-256";

  private RunRecord() {}

  /** Everything the record is built from. */
  record Facts(
      RunRequest request,
      PerfYaml perf,
      PlanReference plan,
      @Nullable String context,
      @Nullable String server,
      String namespace,
      Job created,
      JobWatch.Result watched,
      Preflight.Result pre,
      @Nullable AiperfExport export,
      @Nullable AiperfPodLog log,
      Verdict verdict,
      String exitReason,
      int exitCode,
      Instant start,
      Instant applied,
      Instant collected,
      Map<String, byte[]> files,
      @Nullable MeasuredRuns measured,
      @Nullable RunVerdicts perRun,
      @Nullable String synthetic,
      RunRecordDocument.@Nullable SmokeAge smokeAge) {}

  static RunRecordDocument build(Facts f) {
    Job job = f.watched().job() != null ? f.watched().job() : f.created();
    RunRecordDocument.Job jobRec =
        new RunRecordDocument.Job(
            f.perf().jobName(),
            f.created().getMetadata().getUid(),
            f.perf().activeDeadlineSeconds() == null
                ? null
                : f.perf().activeDeadlineSeconds().longValue(),
            List.copyOf(KubeRunService.conditions(job)));

    Pod pod = f.watched().pod();
    RunRecordDocument.Pod podRec = null;
    if (pod != null) {
      ContainerStatus cs = KubeRunService.aiperfStatus(pod);
      var terminated = cs == null || cs.getState() == null ? null : cs.getState().getTerminated();
      podRec =
          new RunRecordDocument.Pod(
              pod.getMetadata().getName(),
              KubeRunService.podNode(pod),
              pod.getStatus() == null ? null : pod.getStatus().getPhase(),
              terminated == null ? null : terminated.getExitCode(),
              terminated == null ? null : terminated.getReason(),
              cs == null || cs.getRestartCount() == null ? 0 : cs.getRestartCount(),
              cs == null ? null : blankToNull(cs.getImageID()));
    }

    // a Job of several runs has no one export: the version every run's summary records (a grid on
    // the real engine recorded none before, so its pin went unchecked)
    RunRecordDocument.Aiperf aiperf =
        aiperf(
            f.plan(),
            f.perf().annotation(JobContract.AIPERF_VERSION),
            f.export() != null ? f.export().aiperfVersion() : runsVersion(f.perRun()),
            f.perf().image(),
            f.log() == null ? null : f.log().exitCode());

    Instant scheduled = KubeRunService.scheduledAt(pod);
    ContainerStatus cs = KubeRunService.aiperfStatus(pod);
    String startedAt = null;
    String finishedAt = null;
    if (cs != null && cs.getState() != null) {
      if (cs.getState().getTerminated() != null) {
        startedAt = cs.getState().getTerminated().getStartedAt();
        finishedAt = cs.getState().getTerminated().getFinishedAt();
      } else if (cs.getState().getRunning() != null) {
        startedAt = cs.getState().getRunning().getStartedAt();
      }
    }
    RunRecordDocument.Times times =
        new RunRecordDocument.Times(
            f.start().toString(),
            f.applied().toString(),
            scheduled == null ? null : scheduled.toString(),
            startedAt,
            finishedAt,
            f.watched().observedEnd().toString(),
            f.collected().toString());

    String node = KubeRunService.podNode(pod);
    List<String> problems = List.copyOf(f.pre().problems());
    List<String> warnings = new ArrayList<>();
    if (node != null && f.pre().servingNodes().contains(node)) {
      warnings.add(
          "the AIPerf client ran on serving node "
              + node
              + " (keep it off the serving nodes when possible)");
    }
    Preflight.Result pre = f.pre();
    RunRecordDocument.Isolation iso =
        new RunRecordDocument.Isolation(
            pre.endpoint(),
            pre.namespace(),
            pre.otherBenchmarks(),
            pre.dgd(),
            pre.nodes(),
            new RunRecordDocument.Client(
                node, node == null ? null : pre.servingNodes().contains(node)),
            problems,
            List.copyOf(warnings),
            problems.isEmpty());

    RunRecordDocument.Artifacts artifacts =
        new RunRecordDocument.Artifacts(
            f.perf().annotation(JobContract.ARTIFACTS),
            f.log() != null && f.log().summary() != null ? "pod-log-markers" : null,
            f.files().containsKey(dev.benchplan.artifacts.ArtifactManifest.FILE_NAME)
                ? TREE_NOTE
                : PVC_NOTE,
            fileShas(f.files()),
            f.synthetic());

    List<String> ineligible =
        ineligibleReasons(f.verdict(), aiperf, "the Job's image " + f.perf().image());
    if (f.export() != null && f.export().wasCancelled()) {
      ineligible.add(
          Preflight.finding(BlockerCode.RUN_CANCELLED, "AIPerf reports the run as cancelled"));
    }
    if (f.synthetic() != null) {
      ineligible.add(
          Preflight.finding(
              BlockerCode.RUN_SYNTHETIC,
              "the AIPerf tree was generated, not measured (its "
                  + dev.benchplan.artifacts.SyntheticMarker.NAME
                  + " marker): "
                  + f.synthetic()));
    }
    ineligible.addAll(problems); // each already carries its code

    return new RunRecordDocument(
        SCHEMA_VERSION,
        f.perf().runId(),
        f.plan().seriesId() == null ? f.perf().series() : f.plan().seriesId(),
        f.plan().planId(),
        // paths relative to DEPLOY_ROOT (the run directory's ../../..), as render-manifest.json has
        // them
        new RunRecordDocument.FileRef(
            PlanPaths.relative(f.perf().deployRoot(), f.plan().path()), f.plan().sha256()),
        new RunRecordDocument.FileRef(
            PlanPaths.relative(f.perf().deployRoot(), f.perf().file()), f.perf().sha256()),
        new RunRecordDocument.Cluster(f.context(), f.server(), f.namespace()),
        f.perf().annotation(JobContract.ENDPOINT),
        f.perf().annotation(JobContract.DGD),
        jobRec,
        podRec,
        f.perf().image(),
        aiperf,
        times,
        iso,
        artifacts,
        f.exitReason(),
        f.verdict().message(),
        f.verdict().verdict().json(),
        f.exitCode(),
        ineligible.isEmpty(),
        List.copyOf(ineligible),
        f.request().keep(),
        measuredRuns(f),
        RunRecordDocument.Pair.of(f.perf().optionalAnnotation(JobContract.PAIR)),
        null, // engine: the Job engine names none (its run.json as before the operator engine)
        null,
        f.smokeAge(),
        // optional: a perf.yaml rendered before the ledger annotations has no candidate ("unknown")
        RunRecordDocument.Candidate.of(
            f.perf().optionalAnnotation(JobContract.LEDGER_SHA256),
            f.perf().optionalAnnotation(JobContract.DGD),
            f.perf().optionalAnnotation(JobContract.DGD_SHA256),
            f.perf().optionalAnnotation(JobContract.ENDPOINT)));
  }

  /**
   * run.json's aiperf, for every engine: the version the series pins and the plan's image against
   * the version the summary records ({@code measured}, null when none) and the image that ran.
   */
  static RunRecordDocument.Aiperf aiperf(
      PlanReference plan,
      String rendered,
      @Nullable String measured,
      @Nullable String image,
      @Nullable Integer exitCode) {
    String planned = plan.aiperfVersion();
    return new RunRecordDocument.Aiperf(
        planned,
        plan.aiperfImage(),
        rendered,
        measured,
        (measured == null || planned == null) ? null : measured.equals(planned),
        plan.aiperfImage() == null || Objects.equals(plan.aiperfImage(), image),
        exitCode);
  }

  /** run.json's artifacts.files: each file beside it and its SHA-256, in order. */
  static Map<String, String> fileShas(Map<String, byte[]> files) {
    Map<String, String> out = new LinkedHashMap<>();
    files.forEach((name, bytes) -> out.put(name, Sha256.hex(bytes)));
    return out;
  }

  /**
   * Why a run may not serve as evidence, as far as every run record judges it (the Job's and the
   * operator's): no valid measurement, another AIPerf version than the series pins, another image
   * than the plan's. Each finding carries its blocker code; the list is the caller's to extend.
   *
   * @param ranImage what ran the image and which, e.g. {@code "the Job's image IMAGE"}
   */
  static List<String> ineligibleReasons(
      Verdict verdict, RunRecordDocument.Aiperf aiperf, String ranImage) {
    List<String> ineligible = new ArrayList<>();
    if (verdict.verdict() != Status.PASS && verdict.verdict() != Status.FAIL) {
      ineligible.add(
          Preflight.finding(
              BlockerCode.RUN_NOT_MEASURED,
              "the run has no valid measurement (verdict " + verdict.verdict().json() + ")"));
    }
    if (Boolean.FALSE.equals(aiperf.versionMatch())) {
      ineligible.add(
          Preflight.finding(
              BlockerCode.AIPERF_VERSION_MISMATCH,
              "AIPerf "
                  + aiperf.exportVersion()
                  + " ran, but the series pins "
                  + aiperf.plannedVersion()));
    }
    if (!aiperf.imageMatch()) {
      ineligible.add(
          Preflight.finding(
              BlockerCode.AIPERF_IMAGE_MISMATCH,
              ranImage + " is not the plan's " + aiperf.plannedImage()));
    }
    return ineligible;
  }

  /** run.json's measured_runs: the Job's plan of runs and every run found in AIPerf's tree. */
  static RunRecordDocument.@Nullable MeasuredRuns measuredRuns(Facts f) {
    MeasuredRuns m = f.measured();
    if (m == null) {
      return null;
    }
    List<RunRecordDocument.MeasuredRun> runs = new ArrayList<>();
    if (f.perRun() != null) {
      for (RunVerdicts.Entry e : f.perRun().runs()) {
        Verdict v = e.verdict();
        runs.add(
            new RunRecordDocument.MeasuredRun(
                e.loadPoint() != null
                    ? e.loadPoint()
                    : m.points().size() == 1 ? m.points().get(0).loadPoint() : null,
                e.repetition(),
                e.directory(),
                v.source().sha256(),
                v.requests().total(),
                v.requests().errors(),
                e.startTime(),
                e.endTime(),
                v.verdict().json(),
                m.pilot() ? "noise-floor-pilot" : "measurement"));
      }
    }
    return new RunRecordDocument.MeasuredRuns(
        m.mechanism(),
        m.repetitions(),
        m.pilot(),
        m.points().stream().map(MeasuredRuns.Point::loadPoint).toList(),
        runs);
  }

  /** run.json's canonical bytes, checked against the bundled schema (a mismatch is a bug here). */
  static byte[] bytes(RunRecordDocument record) {
    JsonNode tree = Json.JSON.valueToTree(record);
    List<SchemaValidator.Problem> problems =
        SchemaValidator.bundled("run-record.schema.json").validate(tree);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          "run record does not match run-record.schema.json: " + problems);
    }
    return CanonicalJson.bytes(tree);
  }

  /**
   * The AIPerf version of every measured run's summary, when they all record one; several differing
   * versions are joined (never equal to a pin), none or a missing one is null.
   */
  static @Nullable String runsVersion(@Nullable RunVerdicts perRun) {
    if (perRun == null || perRun.runs().isEmpty()) {
      return null;
    }
    java.util.TreeSet<String> versions = new java.util.TreeSet<>();
    for (RunVerdicts.Entry e : perRun.runs()) {
      String v = e.verdict().source().aiperfVersion();
      if (v == null) {
        return null;
      }
      versions.add(v);
    }
    return String.join(",", versions);
  }

  private static @Nullable String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
