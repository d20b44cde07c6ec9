package dev.benchplan.validate;

import dev.benchplan.json.Json;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DGD validate deploys when no endpoint exists: a Frontend and a vLLM worker service with one
 * GPU per replica, every pod pinned to the chosen node and tolerating its taints. Built as a tree
 * (never a string template), in the form of the apiVersion the cluster serves.
 *
 * @param run the validate run (labels)
 * @param apiVersion {@code nvidia.com/v1alpha1} or {@code nvidia.com/v1beta1}
 * @param namespace the fresh namespace
 * @param model the model to serve
 * @param workers worker replicas (the node's free GPUs)
 * @param node the node every pod is pinned to
 * @param taints the node's taints, all tolerated
 * @param image the Dynamo vLLM runtime image (frontend and workers)
 * @param hfTokenSecret a Secret with a Hugging Face token for the workers, or null
 * @param modelCache the model-weights cache the workers mount read-only and run offline from, or
 *     null (they download the model themselves)
 */
public record DefaultDeployment(
    ValidateRun run,
    String apiVersion,
    String namespace,
    String model,
    int workers,
    String node,
    List<NodeTaint> taints,
    String image,
    @Nullable String hfTokenSecret,
    @Nullable ModelCache modelCache) {

  /** The frontend component's name. */
  public static final String FRONTEND = "Frontend";

  /** The worker component's name. */
  public static final String WORKER = "VllmDecodeWorker";

  /**
   * The frontend's router mode ({@code DYN_ROUTER_MODE}, the env form of the Dynamo frontend's
   * {@code --router-mode}: round-robin, random, kv, least-loaded, ...): least-loaded, AICR's fix
   * for one worker stalling at its sequence cap while the others idle at 2048 in flight
   * (round-robin keeps feeding the stalled one; kv concentrates low-diversity synthetic prompts).
   */
  public static final String ROUTER_MODE = "least-loaded";

  /** The frontend's environment variable for the router mode. */
  public static final String ROUTER_MODE_ENV = "DYN_ROUTER_MODE";

  /** The node label every pod is pinned with. */
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  public DefaultDeployment {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(image, "image");
    taints = List.copyOf(taints);
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1, got " + workers);
    }
    if (!apiVersion.equals(DgdApi.GROUP + "/" + DgdApi.V1ALPHA1)
        && !apiVersion.equals(DgdApi.GROUP + "/" + DgdApi.V1BETA1)) {
      throw new IllegalArgumentException(
          "validate deploys only nvidia.com/v1alpha1 or v1beta1, not " + apiVersion);
    }
  }

  /** The DGD's name. */
  public String name() {
    return ValidateRun.DGD_NAME;
  }

  /** The DGD document. */
  public ObjectNode manifest() {
    ObjectNode dgd = Json.JSON.createObjectNode();
    dgd.put("apiVersion", apiVersion);
    dgd.put("kind", DgdApi.KIND);
    ObjectNode meta = dgd.putObject("metadata");
    meta.put("name", name());
    meta.put("namespace", namespace);
    ObjectNode labels = meta.putObject("labels");
    new TreeMap<>(run.labels()).forEach(labels::put);
    ObjectNode spec = dgd.putObject("spec");
    spec.put("backendFramework", "vllm");
    if (apiVersion.endsWith("/" + DgdApi.V1ALPHA1)) {
      v1alpha1(spec.putObject("services"));
    } else {
      v1beta1(spec.putArray("components"));
    }
    return dgd;
  }

  private void v1alpha1(ObjectNode services) {
    ObjectNode fe = services.putObject(FRONTEND);
    fe.put("componentType", "frontend");
    fe.put("replicas", 1);
    ArrayNode feEnv = fe.putArray("envs");
    env(feEnv, "SERVED_MODEL_NAME", model);
    env(feEnv, ROUTER_MODE_ENV, ROUTER_MODE);
    runtimeEnv(feEnv);
    ObjectNode fePod = fe.putObject("extraPodSpec");
    placement(fePod);
    fePod.putObject("mainContainer").put("image", image);

    ObjectNode w = services.putObject(WORKER);
    w.put("componentType", "worker");
    w.put("replicas", workers);
    if (hfTokenSecret != null) {
      w.put("envFromSecret", hfTokenSecret);
    }
    ArrayNode wEnv = w.putArray("envs");
    runtimeEnv(wEnv);
    cacheEnv(wEnv);
    ObjectNode res = w.putObject("resources");
    res.putObject("requests").put("gpu", "1");
    res.putObject("limits").put("gpu", "1");
    ObjectNode wPod = w.putObject("extraPodSpec");
    placement(wPod);
    ObjectNode main = wPod.putObject("mainContainer");
    workerContainer(main);
    cacheVolume(wPod, main);
  }

  private void v1beta1(ArrayNode components) {
    ObjectNode fe = components.addObject();
    fe.put("name", FRONTEND);
    fe.put("type", "frontend");
    fe.put("replicas", 1);
    ObjectNode fePod = fe.putObject("podTemplate").putObject("spec");
    placement(fePod);
    ObjectNode feMain = fePod.putArray("containers").addObject();
    feMain.put("name", "main");
    feMain.put("image", image);
    ArrayNode feEnv = feMain.putArray("env");
    env(feEnv, "SERVED_MODEL_NAME", model);
    env(feEnv, ROUTER_MODE_ENV, ROUTER_MODE);
    runtimeEnv(feEnv);

    ObjectNode w = components.addObject();
    w.put("name", WORKER);
    w.put("type", "worker");
    w.put("replicas", workers);
    ObjectNode wPod = w.putObject("podTemplate").putObject("spec");
    placement(wPod);
    ObjectNode main = wPod.putArray("containers").addObject();
    main.put("name", "main");
    workerContainer(main);
    ArrayNode wEnv = main.putArray("env");
    runtimeEnv(wEnv);
    cacheEnv(wEnv);
    cacheVolume(wPod, main);
    if (hfTokenSecret != null) {
      main.putArray("envFrom").addObject().putObject("secretRef").put("name", hfTokenSecret);
    }
    ObjectNode res = main.putObject("resources");
    res.putObject("requests").put(GpuNode.GPU_RESOURCE, "1");
    res.putObject("limits").put(GpuNode.GPU_RESOURCE, "1");
  }

  private void workerContainer(ObjectNode c) {
    c.put("image", image);
    c.put("workingDir", "/workspace/examples/backends/vllm");
    ArrayNode cmd = c.putArray("command");
    cmd.add("python3").add("-m").add("dynamo.vllm");
    c.putArray("args").add("--model").add(model);
  }

  /** Workers read the weights from the cache and never reach the Hub (AICR: read-only, offline). */
  private void cacheEnv(ArrayNode env) {
    if (modelCache != null) {
      env(env, "HF_HOME", ModelCache.MOUNT_PATH);
      env(env, "HF_HUB_OFFLINE", "1");
    }
  }

  private void cacheVolume(ObjectNode podSpec, ObjectNode container) {
    if (modelCache == null) {
      return;
    }
    podSpec
        .putArray("volumes")
        .addObject()
        .put("name", ModelCache.VOLUME)
        .putObject("persistentVolumeClaim")
        .put("claimName", ModelCache.CLAIM)
        .put("readOnly", true);
    container
        .putArray("volumeMounts")
        .addObject()
        .put("name", ModelCache.VOLUME)
        .put("mountPath", ModelCache.MOUNT_PATH)
        .put("readOnly", true);
  }

  private static void runtimeEnv(ArrayNode env) {
    // as AICR's template: in-memory KV store and ZMQ events, so no etcd/NATS are needed
    env(env, "DYN_STORE_KV", "mem");
    env(env, "DYN_EVENT_PLANE", "zmq");
  }

  private static void env(ArrayNode env, String name, String value) {
    ObjectNode e = env.addObject();
    e.put("name", name);
    e.put("value", value);
  }

  private void placement(ObjectNode podSpec) {
    podSpec.putObject("nodeSelector").put(HOSTNAME_LABEL, node);
    tolerations(podSpec, taints);
  }

  /** Tolerates every taint of the node (AICR copies the node's taints). */
  static void tolerations(ObjectNode podSpec, List<NodeTaint> taints) {
    if (!taints.isEmpty()) {
      ArrayNode tol = podSpec.putArray("tolerations");
      for (NodeTaint t : taints) {
        ObjectNode o = tol.addObject();
        o.put("key", t.key());
        if (t.value() == null || t.value().isEmpty()) {
          o.put("operator", "Exists");
        } else {
          o.put("operator", "Equal");
          o.put("value", t.value());
        }
        if (t.effect() != null && !t.effect().isEmpty()) {
          o.put("effect", t.effect());
        }
      }
    }
  }

  /** The worker component's desired replicas per component name (for readiness checks). */
  public Map<String, Integer> desiredWorkers() {
    return Map.of(WORKER, workers);
  }
}
