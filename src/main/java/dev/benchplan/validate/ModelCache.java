package dev.benchplan.validate;

import dev.benchplan.json.Json;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The default deployment's model-weights cache, as AICR keeps it: one ReadWriteOnce PVC in the
 * run's namespace, filled once by a populate Job (the model downloaded into it with the runtime
 * image's python and the deployment's Hugging Face token Secret), then mounted read-only by every
 * worker, which runs offline from it. The cache lives and dies with the run's namespace.
 *
 * @param run the validate run (labels)
 * @param namespace the run's namespace
 * @param model the model downloaded
 * @param storageClass the PVC's StorageClass (resolved: flag, recipe, cluster default)
 * @param storageClassSource where the class came from ({@code flag}, {@code recipe}, {@code
 *     cluster-default})
 * @param size the PVC's size, a Kubernetes quantity
 * @param image the image the populate Job runs (the deployment's runtime image)
 * @param hfTokenSecret the Secret with the Hugging Face token, or null
 * @param node the node the populate Job is pinned to (the workers' node: a ReadWriteOnce volume)
 * @param taints the node's taints, all tolerated
 * @param boundSeconds the populate Job's deadline
 */
public record ModelCache(
    ValidateRun run,
    String namespace,
    String model,
    String storageClass,
    String storageClassSource,
    @Nullable String size,
    String image,
    @Nullable String hfTokenSecret,
    String node,
    List<NodeTaint> taints,
    long boundSeconds) {
  /** The PVC's name (AICR's). */
  public static final String CLAIM = "benchplan-model-cache";

  /** The populate Job's name. */
  public static final String POPULATE_JOB = "benchplan-model-cache-populate";

  /** Where the cache is mounted, in the populate Job and the workers. */
  public static final String MOUNT_PATH = "/model-cache";

  /** The volume's name in pod specs. */
  public static final String VOLUME = "model-cache";

  /**
   * The populate Job's program: the model into HF_HOME on the cache with huggingface_hub (the
   * runtime image's python), falling back to the {@code huggingface-cli} on PATH.
   */
  static final String POPULATE_SCRIPT =
      String.join(
          "\n",
          "set -eu",
          "echo \"benchplan: downloading $BENCHPLAN_MODEL into $HF_HOME\"",
          "if python3 -c 'import huggingface_hub' 2>/dev/null; then",
          "  python3 -c 'import os; from huggingface_hub import snapshot_download; "
              + "print(snapshot_download(repo_id=os.environ[\"BENCHPLAN_MODEL\"]))'",
          "else",
          "  huggingface-cli download \"$BENCHPLAN_MODEL\"",
          "fi",
          "echo \"benchplan: $BENCHPLAN_MODEL cached\"",
          "");

  public ModelCache {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(storageClass, "storageClass");
    Objects.requireNonNull(storageClassSource, "storageClassSource");
    Objects.requireNonNull(size, "size");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(node, "node");
    taints = List.copyOf(taints);
    if (boundSeconds < 1) {
      throw new IllegalArgumentException("boundSeconds must be >= 1");
    }
  }

  /** What populating the cache does, as the step and its progress say it. */
  public String downloading() {
    return "downloading " + model + " into PVC " + CLAIM + " (" + storageClass + ", " + size + ")";
  }

  /** The PVC. */
  public ObjectNode claim() {
    ObjectNode pvc = object("v1", "PersistentVolumeClaim", CLAIM);
    ObjectNode spec = pvc.putObject("spec");
    spec.putArray("accessModes").add("ReadWriteOnce");
    spec.put("storageClassName", storageClass);
    spec.putObject("resources").putObject("requests").put("storage", size);
    return pvc;
  }

  /** The populate Job: the model downloaded once into the PVC, bounded by {@link #boundSeconds}. */
  public ObjectNode populateJob() {
    ObjectNode job = object("batch/v1", "Job", POPULATE_JOB);
    ObjectNode spec = job.putObject("spec");
    spec.put("backoffLimit", 2);
    spec.put("activeDeadlineSeconds", boundSeconds);
    ObjectNode template = spec.putObject("template");
    ObjectNode labels = template.putObject("metadata").putObject("labels");
    new TreeMap<>(run.labels()).forEach(labels::put);
    ObjectNode pod = template.putObject("spec");
    pod.put("restartPolicy", "Never");
    pod.put("automountServiceAccountToken", false);
    pod.putObject("nodeSelector").put(DefaultDeployment.HOSTNAME_LABEL, node);
    DefaultDeployment.tolerations(pod, taints);
    ObjectNode c = pod.putArray("containers").addObject();
    c.put("name", "populate");
    c.put("image", image);
    c.putArray("command").add("bash").add("-c").add(POPULATE_SCRIPT);
    ArrayNode env = c.putArray("env");
    env.addObject().put("name", "BENCHPLAN_MODEL").put("value", model);
    env.addObject().put("name", "HF_HOME").put("value", MOUNT_PATH);
    env.addObject().put("name", "HF_HUB_ENABLE_HF_TRANSFER").put("value", "0");
    if (hfTokenSecret != null) {
      // the same Secret the workers read (envFrom): a public model needs none, so it is optional
      c.putArray("envFrom")
          .addObject()
          .putObject("secretRef")
          .put("name", hfTokenSecret)
          .put("optional", true);
    }
    c.putArray("volumeMounts").addObject().put("name", VOLUME).put("mountPath", MOUNT_PATH);
    pod.putArray("volumes")
        .addObject()
        .put("name", VOLUME)
        .putObject("persistentVolumeClaim")
        .put("claimName", CLAIM);
    return job;
  }

  private ObjectNode object(String apiVersion, String kind, String name) {
    ObjectNode o = Json.JSON.createObjectNode();
    o.put("apiVersion", apiVersion);
    o.put("kind", kind);
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", namespace);
    ObjectNode labels = meta.putObject("labels");
    new TreeMap<>(run.labels()).forEach(labels::put);
    return o;
  }
}
