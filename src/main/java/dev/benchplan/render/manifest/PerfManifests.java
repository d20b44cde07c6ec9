package dev.benchplan.render.manifest;

import dev.benchplan.artifacts.ArtifactChannel;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.JobContract;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the perf.yaml objects: the ConfigMap with aiperf-config.yaml, the trace ConfigMap when the
 * trace travels in one, then exactly one batch/v1 Job (always last).
 */
public final class PerfManifests {
  /** Requested CPU of an unsized AIPerf client (a plan without load_generator). */
  public static final String CPU_REQUEST = "4";

  /** Requested memory of an unsized AIPerf client. */
  public static final String MEMORY_REQUEST = "8Gi";

  /** Memory limit of an unsized AIPerf client (no CPU limit: throttling would distort latency). */
  public static final String MEMORY_LIMIT = "16Gi";

  /** Environment variable carrying the Hugging Face token for the tokenizer download. */
  public static final String HF_TOKEN_ENV = "HF_TOKEN";

  /** The key of the token inside the Secret (as Dynamo's hf-token-secret stores it). */
  public static final String HF_TOKEN_KEY = "HF_TOKEN";

  static final String CONFIG_DIR = "/benchplan/config";
  static final String CONFIG_KEY = "aiperf-config.yaml";
  static final String TRACE_DIR = "/benchplan/trace";
  static final String TRACE_KEY = "trace.jsonl";

  /** The artifact volume's mount point; each run writes to {@code /artifacts/<run-id>}. */
  public static final String ARTIFACTS_ROOT = "/artifacts";

  static final String HF_HOME = "/benchplan/hf-home";

  private PerfManifests() {}

  /** The in-pod path of the trace for a trace volume. */
  public static String tracePathInPod(TraceVolume trace) {
    if (trace instanceof TraceVolume.OnClaim claim) {
      return TRACE_DIR + "/" + claim.path();
    }
    return TRACE_DIR + "/" + TRACE_KEY;
  }

  /** The in-pod path of aiperf-config.yaml. */
  public static String configPathInPod() {
    return CONFIG_DIR + "/" + CONFIG_KEY;
  }

  /**
   * The SHA-256 of the Job program and the encoder it runs, as mounted (annotated on the config
   * ConfigMap and recorded in render-manifest.json: a DEPLOY_ROOT whose differs was rendered by
   * another benchplan).
   */
  public static String programSha256() {
    return Sha256.hex(
        (JobProgram.text() + ArtifactChannel.encoderScript()).getBytes(StandardCharsets.UTF_8));
  }

  /** The objects in apply order, with the default readiness-request timeout. */
  public static List<ObjectNode> build(JobInputs in, int modelWaitSeconds) {
    return build(in, modelWaitSeconds, dev.benchplan.render.JobBudget.READY_REQUEST_SECONDS);
  }

  /**
   * The objects in apply order: ConfigMap(s) first, the Job last.
   *
   * @param modelWaitSeconds the overall bound of the Job's readiness loop
   * @param readyRequestSeconds the bound of each readiness request inside it
   */
  public static List<ObjectNode> build(
      JobInputs in, int modelWaitSeconds, int readyRequestSeconds) {
    List<ObjectNode> docs = new ArrayList<>();
    ObjectNode config = configMap(in, in.configMapName());
    config
        .withObject("/metadata")
        .withObject("/annotations")
        .put(JobContract.AIPERF_CONFIG_SHA256, in.configSha256());
    config
        .withObject("/metadata")
        .withObject("/annotations")
        .put(JobContract.JOB_PROGRAM_SHA256, programSha256());
    ObjectNode data = config.putObject("data");
    data.put(JobProgram.FILE, JobProgram.text());
    data.put(JobProgram.ENCODER_FILE, ArtifactChannel.encoderScript());
    if (in.runConfigs().isEmpty()) {
      data.put(CONFIG_KEY, in.configYaml());
    }
    in.runConfigs().forEach((dir, yaml) -> data.put(JobProgram.runConfigKey(dir), yaml));
    docs.add(config);
    if (in.trace() instanceof TraceVolume.InConfigMap inMap) {
      ObjectNode trace = configMap(in, in.traceConfigMapName());
      trace
          .withObject("/metadata")
          .withObject("/annotations")
          .put(JobContract.TRACE_SHA256, in.traceSha256());
      trace.putObject("data").put(TRACE_KEY, inMap.content());
      docs.add(trace);
    }
    docs.add(job(in, modelWaitSeconds, readyRequestSeconds));
    return docs;
  }

  private static ObjectNode configMap(JobInputs in, String name) {
    return object("v1", "ConfigMap", name, in);
  }

  /** An object's header: apiVersion, kind, name, namespace and the run's labels. */
  private static ObjectNode object(String apiVersion, String kind, String name, JobInputs in) {
    ObjectNode o = YamlDocuments.object();
    o.put("apiVersion", apiVersion);
    o.put("kind", kind);
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", in.namespace());
    putAll(meta.putObject("labels"), in.labels());
    return o;
  }

  private static ObjectNode job(JobInputs in, int modelWaitSeconds, int readyRequestSeconds) {
    ObjectNode job = object("batch/v1", "Job", in.jobName(), in);
    putAll(job.withObject("/metadata").putObject("annotations"), in.jobAnnotations());

    ObjectNode spec = job.putObject("spec");
    // a benchmark is never retried: a second attempt would measure a different system state
    spec.put("backoffLimit", 0);
    spec.put("activeDeadlineSeconds", in.activeDeadlineSeconds());
    ObjectNode template = spec.putObject("template");
    putAll(template.putObject("metadata").putObject("labels"), in.labels());
    ObjectNode pod = template.putObject("spec");
    pod.put("restartPolicy", "Never");
    pod.put("automountServiceAccountToken", false);
    pod.put("enableServiceLinks", false);
    pod.set("affinity", antiAffinity(in));

    ObjectNode c = pod.putArray("containers").addObject();
    c.put("name", JobContract.CONTAINER);
    c.put("image", in.image());
    c.put("imagePullPolicy", "IfNotPresent");
    ArrayNode command = c.putArray("command");
    JobProgram.command(CONFIG_DIR).forEach(command::add);
    ArrayNode args = c.putArray("args");
    in.profileArgs().forEach(args::add);
    c.set("env", env(in, modelWaitSeconds, readyRequestSeconds));
    ObjectNode resources = c.putObject("resources");
    JobResources size = in.resources();
    resources
        .putObject("requests")
        .put("cpu", size.cpuRequest())
        .put("memory", size.memoryRequest());
    resources.putObject("limits").put("memory", size.memoryLimit());
    c.putObject("securityContext").put("allowPrivilegeEscalation", false).put("privileged", false);

    ArrayNode mounts = c.putArray("volumeMounts");
    ArrayNode volumes = pod.putArray("volumes");
    mounts.addObject().put("name", "config").put("mountPath", CONFIG_DIR).put("readOnly", true);
    volumes
        .addObject()
        .put("name", "config")
        .putObject("configMap")
        .put("name", in.configMapName());
    // the trace on the artifact claim: one volume for the claim, mounted twice (some storage
    // drivers never finish mounting two volumes of one claim in a pod)
    boolean traceOnArtifactClaim =
        in.trace() instanceof TraceVolume.OnClaim onClaim
            && onClaim.claim().equals(in.artifactClaim());
    if (in.trace() != null && !traceOnArtifactClaim) {
      mounts.addObject().put("name", "trace").put("mountPath", TRACE_DIR).put("readOnly", true);
      ObjectNode v = volumes.addObject().put("name", "trace");
      if (in.trace() instanceof TraceVolume.OnClaim claim) {
        v.putObject("persistentVolumeClaim").put("claimName", claim.claim()).put("readOnly", true);
      } else {
        v.putObject("configMap").put("name", in.traceConfigMapName());
      }
    }
    ObjectNode artifactMount =
        mounts
            .addObject()
            .put("name", JobContract.ARTIFACTS_VOLUME)
            .put("mountPath", ARTIFACTS_ROOT);
    ObjectNode artifactVolume = volumes.addObject().put("name", JobContract.ARTIFACTS_VOLUME);
    if (in.artifactClaim() != null) {
      artifactVolume.putObject("persistentVolumeClaim").put("claimName", in.artifactClaim());
      if (in.artifactSubPath() != null) {
        artifactMount.put("subPath", in.artifactSubPath());
      }
    } else {
      artifactVolume.putObject("emptyDir");
    }
    if (traceOnArtifactClaim) {
      // after the artifact mount: readers take the first mount of the artifacts volume as it
      mounts
          .addObject()
          .put("name", JobContract.ARTIFACTS_VOLUME)
          .put("mountPath", TRACE_DIR)
          .put("readOnly", true);
    }
    mounts.addObject().put("name", "hf-home").put("mountPath", HF_HOME);
    volumes.addObject().put("name", "hf-home").putObject("emptyDir");
    return job;
  }

  private static ObjectNode antiAffinity(JobInputs in) {
    return antiAffinity(in.dgdName(), in.dgdNamespace());
  }

  /**
   * The client's preferred anti-affinity to the DGD's pods (benchmark-isolation.md): the plain
   * Job's, and the operator engine's podTemplate ({@link AiperfJobs}).
   */
  static ObjectNode antiAffinity(String dgdName, String dgdNamespace) {
    ObjectNode affinity = YamlDocuments.object();
    // preferred, not required: benchmark-isolation.md keeps the client off the serving nodes "when
    // possible"; a required term leaves the Job Pending forever on a single-node cluster
    ObjectNode weighted =
        affinity
            .putObject("podAntiAffinity")
            .putArray("preferredDuringSchedulingIgnoredDuringExecution")
            .addObject();
    weighted.put("weight", 100);
    ObjectNode term = weighted.putObject("podAffinityTerm");
    term.putObject("labelSelector")
        .putArray("matchExpressions")
        .addObject()
        .put("key", JobContract.DGD_POD_LABEL)
        .put("operator", "In")
        .putArray("values")
        .add(dgdName);
    // the DGD may live in another namespace than the Job
    term.putArray("namespaces").add(dgdNamespace);
    term.put("topologyKey", "kubernetes.io/hostname");
    return affinity;
  }

  private static ArrayNode env(JobInputs in, int modelWaitSeconds, int readyRequestSeconds) {
    ArrayNode env = YamlDocuments.object().arrayNode();
    addEnv(env, "BENCHPLAN_ENDPOINT", in.endpointUrl());
    addEnv(env, "BENCHPLAN_MODEL", in.model());
    addEnv(env, "BENCHPLAN_MODEL_WAIT_SECONDS", Integer.toString(modelWaitSeconds));
    addEnv(env, "BENCHPLAN_READY_REQUEST_TIMEOUT_SECONDS", Integer.toString(readyRequestSeconds));
    addEnv(env, "BENCHPLAN_ARTIFACT_DIR", in.artifactDir());
    addEnv(env, "BENCHPLAN_ARTIFACT_LOG_MAX_BYTES", Long.toString(in.artifactLogMaxBytes()));
    if (!in.runDirs().isEmpty()) {
      addEnv(env, "BENCHPLAN_CONFIG_DIR", CONFIG_DIR);
      addEnv(env, "BENCHPLAN_RUN_DIRS", String.join(" ", in.runDirs()));
    }
    if (in.trace() != null) {
      addEnv(env, "BENCHPLAN_TRACE_PATH", tracePathInPod(in.trace()));
      addEnv(env, "BENCHPLAN_TRACE_SHA256", in.traceSha256());
    }
    addEnv(env, "HF_HOME", HF_HOME);
    addEnv(env, "PYTHONUNBUFFERED", "1");
    if (in.hfTokenSecret() != null) {
      ObjectNode ref =
          env.addObject()
              .put("name", HF_TOKEN_ENV)
              .putObject("valueFrom")
              .putObject("secretKeyRef");
      ref.put("name", in.hfTokenSecret());
      ref.put("key", HF_TOKEN_KEY);
      // public tokenizers need no token: a missing Secret must not block the pod
      ref.put("optional", true);
    }
    return env;
  }

  private static void addEnv(ArrayNode env, String name, @Nullable String value) {
    env.addObject().put("name", name).put("value", value);
  }

  private static void putAll(ObjectNode target, Map<String, String> values) {
    values.forEach(target::put);
  }
}
