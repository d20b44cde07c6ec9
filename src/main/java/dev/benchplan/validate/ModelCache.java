package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The default deployment's model-weights cache, as AICR keeps it: one ReadWriteOnce PVC in the
 * run's namespace, filled once by a populate Job (the model downloaded into it with the runtime
 * image's python and the deployment's Hugging Face token Secret), then mounted read-only by every
 * worker, which runs offline from it. The cache lives and dies with the run's namespace. The PVC
 * and the Job are built typed where they are created (kube/validate/ModelCacheStore).
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
  public static final String POPULATE_SCRIPT =
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
}
