package dev.benchplan.render.manifest;

import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.OperatorSizing;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds one AIPerfJob (AIPerf's operator, {@code aiperf.nvidia.com/v1alpha1}) for one measured
 * run. Its {@code spec} is the plain Job's aiperf-config.yaml document (the v2 envelope and {@code
 * benchmark} body, as {@code AiperfInvocation} rendered it) plus the operator's deployment fields.
 * Two changes to the body, both for the operator: the endpoint URL is written as {@code urls:
 * [URL]} (the CRD's structural schema lists only {@code urls}, so the API server would prune the
 * {@code url} shorthand and then refuse the missing {@code urls}); and the artifact folder is
 * {@code /results}, which the operator forces anyway. AIPerf waits for the model itself ({@code
 * waitForModelTimeout}, mode {@code models}, as the plain Job's script does with {@code
 * /v1/models}).
 */
public final class AiperfJobs {
  /** Where the operator's controller writes the run's artifacts. */
  public static final String RESULTS_DIR = "/results";

  private AiperfJobs() {}

  /**
   * What one AIPerfJob carries.
   *
   * @param config the aiperf-config.yaml document of its load point (left unchanged)
   * @param sizing the point's sizing split per worker pod (workers in total and per pod,
   *     connections per worker)
   * @param timeoutSeconds the run's bound (measurement limit plus readiness and setup)
   * @param modelWaitSeconds how long AIPerf waits for the frontend to list the model
   * @param hfTokenSecret the Secret holding the Hugging Face token, or null
   */
  public record Inputs(
      String name,
      String namespace,
      Map<String, String> labels,
      Map<String, String> annotations,
      JsonNode config,
      String image,
      OperatorSizing sizing,
      long timeoutSeconds,
      int modelWaitSeconds,
      String dgdName,
      String dgdNamespace,
      @Nullable String hfTokenSecret,
      @Nullable Trace trace) {}

  /**
   * A replayed trace for every pod of the AIPerfJob: its volume (the ConfigMap {@code configMap} or
   * a PVC), mounted read-only where the config's dataset path points, and the plan's SHA-256, which
   * an init container checks before AIPerf starts (the plain Job's script does the same).
   */
  public record Trace(TraceVolume volume, String sha256, String configMap) {}

  /** The init container that checks the trace: the plain Job's check, as its own step. */
  public static final String TRACE_CHECK_CONTAINER = "benchplan-trace-sha256";

  private static final String TRACE_CHECK =
      String.join(
          "\n",
          "import hashlib, sys",
          "path, expected = sys.argv[1], sys.argv[2]",
          "digest = hashlib.sha256()",
          "try:",
          "    with open(path, 'rb') as f:",
          "        for block in iter(lambda: f.read(1 << 20), b''):",
          "            digest.update(block)",
          "except OSError as e:",
          "    print('benchplan: cannot read trace %s: %s' % (path, e), file=sys.stderr)",
          "    sys.exit(65)",
          "if digest.hexdigest() != expected:",
          "    print('benchplan: trace %s has SHA-256 %s, the plan recorded %s' % (path, digest.hexdigest(), expected),"
              + " file=sys.stderr)",
          "    sys.exit(65)",
          "print('benchplan: trace %s matches the plan (SHA-256 %s)' % (path, expected), file=sys.stderr)");

  /** The ConfigMap carrying a trace small enough for one (applied before the AIPerfJobs). */
  public static ObjectNode traceConfigMap(
      String name, String namespace, Map<String, String> labels, String sha256, String content) {
    ObjectNode o = YamlDocuments.object();
    o.put("apiVersion", "v1");
    o.put("kind", "ConfigMap");
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    labels.forEach(meta.putObject("labels")::put);
    meta.putObject("annotations").put(dev.benchplan.render.JobContract.TRACE_SHA256, sha256);
    o.putObject("data").put(PerfManifests.TRACE_KEY, content);
    return o;
  }

  /** The AIPerfJob. */
  public static ObjectNode build(Inputs in) {
    ObjectNode o = YamlDocuments.object();
    o.put("apiVersion", AiperfJobContract.API_VERSION);
    o.put("kind", AiperfJobContract.KIND);
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", in.name());
    meta.put("namespace", in.namespace());
    in.labels().forEach(meta.putObject("labels")::put);
    in.annotations().forEach(meta.putObject("annotations")::put);

    ObjectNode spec = o.putObject("spec");
    ObjectNode body = (ObjectNode) in.config().deepCopy();
    // one run per AIPerfJob: the CRD refuses multiRun.numRuns > 1 and sweep
    body.remove("multiRun");
    body.remove("sweep");
    ObjectNode endpoint = body.withObject("/benchmark/endpoint");
    JsonNode url = endpoint.remove("url");
    if (url != null && !endpoint.has("urls")) {
      endpoint.putArray("urls").add(url.asString());
    }
    endpoint.put("waitForModelTimeout", in.modelWaitSeconds());
    endpoint.put("waitForModelMode", "models");
    body.withObject("/benchmark/artifacts").put("dir", RESULTS_DIR);
    // the plan's workers are the load's total; the operator spreads them over pods of this many
    body.withObject("/benchmark/runtime")
        .put("workers", in.sizing().totalWorkers())
        .put("workersPerPod", in.sizing().workersPerPod());
    spec.setAll(body);

    spec.put("image", in.image());
    spec.put("imagePullPolicy", "IfNotPresent");
    spec.put("connectionsPerWorker", in.sizing().connectionsPerWorker());
    spec.put("timeoutSeconds", in.timeoutSeconds());
    spec.put("ttlSecondsAfterFinished", AiperfJobContract.TTL_SECONDS_AFTER_FINISHED);
    ObjectNode pod = spec.putObject("podTemplate");
    pod.set("affinity", PerfManifests.antiAffinity(in.dgdName(), in.dgdNamespace()));
    in.labels().forEach(pod.putObject("labels")::put);
    Trace trace = in.trace();
    if (trace != null) {
      ObjectNode volume = pod.putArray("volumes").addObject().put("name", "trace");
      if (trace.volume() instanceof TraceVolume.OnClaim claim) {
        volume
            .putObject("persistentVolumeClaim")
            .put("claimName", claim.claim())
            .put("readOnly", true);
      } else {
        volume.putObject("configMap").put("name", trace.configMap());
      }
      ObjectNode mount =
          pod.putArray("volumeMounts")
              .addObject()
              .put("name", "trace")
              .put("mountPath", PerfManifests.TRACE_DIR)
              .put("readOnly", true);
      ObjectNode check = pod.putArray("initContainers").addObject();
      check.put("name", TRACE_CHECK_CONTAINER);
      check.put("image", in.image());
      check.put("imagePullPolicy", "IfNotPresent");
      check
          .putArray("command")
          .add("python3")
          .add("-c")
          .add(TRACE_CHECK)
          .add(PerfManifests.tracePathInPod(trace.volume()))
          .add(trace.sha256());
      check.putArray("volumeMounts").add(mount.deepCopy());
    }
    if (in.hfTokenSecret() != null) {
      ArrayNode env = pod.putArray("env");
      ObjectNode ref =
          env.addObject()
              .put("name", PerfManifests.HF_TOKEN_ENV)
              .putObject("valueFrom")
              .putObject("secretKeyRef");
      ref.put("name", in.hfTokenSecret());
      ref.put("key", PerfManifests.HF_TOKEN_KEY);
      // public tokenizers need no token: a missing Secret must not block the pods
      ref.put("optional", true);
    }
    return o;
  }
}
