package dev.benchplan.render.manifest;

import dev.benchplan.render.AiperfJobContract;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds one AIPerfJob (AIPerf's operator, {@code aiperf.nvidia.com/v1alpha1}) for one measured
 * run. Its {@code spec} is the plain Job's aiperf-config.yaml document (the v2 envelope and
 * {@code benchmark} body, as {@code AiperfInvocation} rendered it) plus the operator's deployment
 * fields. Two changes to the body, both for the operator: the endpoint URL is written as
 * {@code urls: [URL]} (the CRD's structural schema lists only {@code urls}, so the API server would
 * prune the {@code url} shorthand and then refuse the missing {@code urls}); and the artifact
 * folder is {@code /results}, which the operator forces anyway. AIPerf waits for the model itself
 * ({@code waitForModelTimeout}, mode {@code models}, as the plain Job's script does with
 * {@code /v1/models}).
 */
public final class AiperfJobs {
  /** Where the operator's controller writes the run's artifacts. */
  public static final String RESULTS_DIR = "/results";

  private AiperfJobs() {}

  /**
   * What one AIPerfJob carries.
   *
   * @param config the aiperf-config.yaml document of its load point (left unchanged)
   * @param connectionsPerWorker the plan's sizing for the point
   * @param timeoutSeconds the run's bound (measurement limit plus readiness and setup)
   * @param modelWaitSeconds how long AIPerf waits for the frontend to list the model
   * @param hfTokenSecret the Secret holding the Hugging Face token, or null
   */
  public record Inputs(String name, String namespace, Map<String, String> labels,
      Map<String, String> annotations, JsonNode config, String image, int connectionsPerWorker,
      long timeoutSeconds, int modelWaitSeconds, String dgdName, String dgdNamespace,
      @Nullable String hfTokenSecret) {}

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
    spec.setAll(body);

    spec.put("image", in.image());
    spec.put("imagePullPolicy", "IfNotPresent");
    spec.put("connectionsPerWorker", in.connectionsPerWorker());
    spec.put("timeoutSeconds", in.timeoutSeconds());
    spec.put("ttlSecondsAfterFinished", AiperfJobContract.TTL_SECONDS_AFTER_FINISHED);
    ObjectNode pod = spec.putObject("podTemplate");
    pod.set("affinity", PerfManifests.antiAffinity(in.dgdName(), in.dgdNamespace()));
    in.labels().forEach(pod.putObject("labels")::put);
    if (in.hfTokenSecret() != null) {
      ArrayNode env = pod.putArray("env");
      ObjectNode ref = env.addObject().put("name", PerfManifests.HF_TOKEN_ENV)
          .putObject("valueFrom").putObject("secretKeyRef");
      ref.put("name", in.hfTokenSecret());
      ref.put("key", PerfManifests.HF_TOKEN_KEY);
      // public tokenizers need no token: a missing Secret must not block the pods
      ref.put("optional", true);
    }
    return o;
  }
}
