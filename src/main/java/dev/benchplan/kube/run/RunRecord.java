package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfPodLog;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.JobContract;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * run.json (schemas/run-record.schema.json): what ran (plan, perf.yaml, Job, pod, node, image),
 * against what (endpoint, DGD, isolation preflight), with which instrument (AIPerf version in the
 * export vs the plan's pin), when, how it ended, and whether it may serve as evidence.
 */
final class RunRecord {
  static final String SCHEMA_VERSION = "1";
  /** Why artifact-volume collection is not done (the summary comes from the log markers). */
  static final String PVC_NOTE = "not collected: benchplan takes the summary from the pod log markers;"
      + " copying the artifact volume (PVC) is not implemented";

  private RunRecord() {}

  /** Everything the record is built from. */
  record Facts(RunRequest request, PerfYaml perf, PlanReference plan, String context, String server,
      String namespace, Job created, JobWatch.Result watched, Preflight.Result pre, AiperfExport export,
      AiperfPodLog log, Verdict verdict, String exitReason, int exitCode, Instant start, Instant applied,
      Instant collected, Map<String, byte[]> files) {}

  static ObjectNode build(Facts f) {
    JsonNodeFactory n = JsonNodeFactory.instance;
    ObjectNode r = n.objectNode();
    r.put("schema_version", SCHEMA_VERSION);
    r.put("run_id", f.perf().runId());
    r.put("series_id", f.plan().seriesId() == null ? f.perf().series() : f.plan().seriesId());
    r.put("plan_id", f.plan().planId());
    ObjectNode plan = r.putObject("plan");
    plan.put("path", f.plan().path().toString());
    plan.put("sha256", f.plan().sha256());
    ObjectNode perf = r.putObject("perf_yaml");
    perf.put("path", f.perf().file().toAbsolutePath().toString());
    perf.put("sha256", f.perf().sha256());
    ObjectNode cluster = r.putObject("cluster");
    cluster.put("context", f.context());
    cluster.put("server", f.server());
    cluster.put("namespace", f.namespace());
    r.put("endpoint", f.perf().annotation(JobContract.ENDPOINT));
    r.put("dgd", f.perf().annotation(JobContract.DGD));

    Job job = f.watched().job() != null ? f.watched().job() : f.created();
    ObjectNode jobRec = r.putObject("job");
    jobRec.put("name", f.perf().jobName());
    jobRec.put("uid", f.created().getMetadata().getUid());
    if (f.perf().activeDeadlineSeconds() == null) {
      jobRec.putNull("active_deadline_seconds");
    } else {
      jobRec.put("active_deadline_seconds", f.perf().activeDeadlineSeconds());
    }
    KubeRunService.strings(jobRec, "conditions", KubeRunService.conditions(job));

    Pod pod = f.watched().pod();
    if (pod == null) {
      r.putNull("pod");
    } else {
      ObjectNode p = r.putObject("pod");
      p.put("name", pod.getMetadata().getName());
      p.put("node", KubeRunService.podNode(pod));
      p.put("phase", pod.getStatus() == null ? null : pod.getStatus().getPhase());
      ContainerStatus cs = KubeRunService.aiperfStatus(pod);
      var terminated = cs == null || cs.getState() == null ? null : cs.getState().getTerminated();
      if (terminated == null || terminated.getExitCode() == null) {
        p.putNull("exit_code");
      } else {
        p.put("exit_code", terminated.getExitCode());
      }
      p.put("container_reason", terminated == null ? null : terminated.getReason());
      p.put("restarts", cs == null || cs.getRestartCount() == null ? 0 : cs.getRestartCount());
      p.put("image_id", cs == null ? null : blankToNull(cs.getImageID()));
    }
    r.put("image", f.perf().image());

    ObjectNode aiperf = r.putObject("aiperf");
    String planned = f.plan().aiperfVersion();
    String measured = f.export() == null ? null : f.export().aiperfVersion();
    aiperf.put("planned_version", planned);
    aiperf.put("planned_image", f.plan().aiperfImage());
    aiperf.put("manifest_version", f.perf().annotation(JobContract.AIPERF_VERSION));
    aiperf.put("export_version", measured);
    Boolean versionMatch = measured == null || planned == null ? null : measured.equals(planned);
    if (versionMatch == null) {
      aiperf.putNull("version_match");
    } else {
      aiperf.put("version_match", versionMatch);
    }
    boolean imageMatch = f.plan().aiperfImage() == null || Objects.equals(f.plan().aiperfImage(), f.perf().image());
    aiperf.put("image_match", imageMatch);
    aiperf.put("exit_code", f.log() == null ? null : f.log().exitCode());

    ObjectNode times = r.putObject("times");
    times.put("started_at", f.start().toString());
    times.put("applied_at", f.applied().toString());
    Instant scheduled = KubeRunService.scheduledAt(pod);
    times.put("pod_scheduled_at", scheduled == null ? null : scheduled.toString());
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
    times.put("container_started_at", startedAt);
    times.put("container_finished_at", finishedAt);
    times.put("observed_end_at", f.watched().observedEnd().toString());
    times.put("collected_at", f.collected().toString());

    ObjectNode iso = f.pre().isolation().deepCopy();
    ObjectNode client = iso.putObject("client");
    String node = KubeRunService.podNode(pod);
    client.put("node", node);
    if (node == null) {
      client.putNull("on_serving_node");
    } else {
      client.put("on_serving_node", f.pre().servingNodes().contains(node));
    }
    List<String> problems = new ArrayList<>(f.pre().problems());
    KubeRunService.strings(iso, "problems", problems);
    iso.put("verified", problems.isEmpty());
    List<String> warnings = new ArrayList<>();
    if (node != null && f.pre().servingNodes().contains(node)) {
      warnings.add("the AIPerf client ran on serving node " + node + " (keep it off the serving nodes when possible)");
    }
    KubeRunService.strings(iso, "warnings", warnings);
    r.set("isolation", iso);

    ObjectNode artifacts = r.putObject("artifacts");
    artifacts.put("volume", f.perf().annotation(JobContract.ARTIFACTS));
    artifacts.put("summary_source", f.log() != null && f.log().summary() != null ? "pod-log-markers" : null);
    artifacts.put("volume_collection", PVC_NOTE);
    ObjectNode files = artifacts.putObject("files");
    for (Map.Entry<String, byte[]> e : f.files().entrySet()) {
      files.put(e.getKey(), Sha256.hex(e.getValue()));
    }

    r.put("exit_reason", f.exitReason());
    r.put("message", f.verdict().message());
    r.put("verdict", f.verdict().verdict().json());
    r.put("exit_code", f.exitCode());

    List<String> ineligible = new ArrayList<>();
    if (f.verdict().verdict() != Status.PASS && f.verdict().verdict() != Status.FAIL) {
      ineligible.add("the run has no valid measurement (verdict " + f.verdict().verdict().json() + ")");
    }
    if (Boolean.FALSE.equals(versionMatch)) {
      ineligible.add("AIPerf " + measured + " ran, but the series pins " + planned);
    }
    if (!imageMatch) {
      ineligible.add("the Job's image " + f.perf().image() + " is not the plan's " + f.plan().aiperfImage());
    }
    if (f.export() != null && f.export().wasCancelled()) {
      ineligible.add("AIPerf reports the run as cancelled");
    }
    problems.forEach(p -> ineligible.add("isolation: " + p));
    r.put("eligible", ineligible.isEmpty());
    KubeRunService.strings(r, "ineligible_reasons", ineligible);
    r.put("keep", f.request().keep());
    return r;
  }

  /** run.json's canonical bytes, checked against the bundled schema (a mismatch is a bug here). */
  static byte[] bytes(ObjectNode record) {
    List<SchemaValidator.Problem> problems = SchemaValidator.bundled("run-record.schema.json").validate(record);
    if (!problems.isEmpty()) {
      throw new IllegalStateException("run record does not match run-record.schema.json: " + problems);
    }
    return CanonicalJson.bytes(record);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

}
