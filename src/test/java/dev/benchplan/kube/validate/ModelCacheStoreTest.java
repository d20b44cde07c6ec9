package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.validate.ModelCache;
import dev.benchplan.validate.NodeTaint;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 33: the model-cache PVC and populate Job are built with fabric8's typed builders; they are
 * the objects the hand-built trees (kept here as the reference) unmarshalled into.
 */
class ModelCacheStoreTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static ModelCache cache(String secret, List<NodeTaint> taints) {
    return new ModelCache(
        new ValidateRun("20261205T080000Z-0a1b2c3d"),
        "benchplan-validate-x",
        "Qwen/Qwen3-0.6B",
        "fast-nvme",
        "flag",
        "200Gi",
        "runtime:1",
        secret,
        "gpu-a",
        taints,
        900);
  }

  @Test
  @DisplayName(
      "the typed PVC and populate Job equal what the former JSON trees unmarshalled into (with and"
          + " without a token Secret and taints)")
  void typedEqualsTree() {
    for (ModelCache c :
        List.of(
            cache(null, List.of()),
            cache(
                "hf-token",
                List.of(
                    new NodeTaint("nvidia.com/gpu", "", "NoSchedule"),
                    new NodeTaint("dedicated", "bench", null))))) {
      PersistentVolumeClaim pvc = ModelCacheStore.claim(c);
      assertThat(pvc)
          .isEqualTo(
              SERIALIZATION.unmarshal(
                  Json.JSON.writeValueAsString(claimTree(c)), PersistentVolumeClaim.class));
      assertThat(pvc.getSpec().getStorageClassName()).isEqualTo("fast-nvme");
      Job job = ModelCacheStore.populateJob(c);
      assertThat(SERIALIZATION.asJson(job))
          .isEqualTo(
              SERIALIZATION.asJson(
                  SERIALIZATION.unmarshal(Json.JSON.writeValueAsString(jobTree(c)), Job.class)));
    }
  }

  /** The PVC as ModelCache built it as a tree before issue 33. */
  private static ObjectNode claimTree(ModelCache c) {
    ObjectNode pvc = object(c, "v1", "PersistentVolumeClaim", ModelCache.CLAIM);
    ObjectNode spec = pvc.putObject("spec");
    spec.putArray("accessModes").add("ReadWriteOnce");
    spec.put("storageClassName", c.storageClass());
    spec.putObject("resources").putObject("requests").put("storage", c.size());
    return pvc;
  }

  /** The populate Job as ModelCache built it as a tree before issue 33. */
  private static ObjectNode jobTree(ModelCache c) {
    ObjectNode job = object(c, "batch/v1", "Job", ModelCache.POPULATE_JOB);
    ObjectNode spec = job.putObject("spec");
    spec.put("backoffLimit", 2);
    spec.put("activeDeadlineSeconds", c.boundSeconds());
    ObjectNode template = spec.putObject("template");
    ObjectNode labels = template.putObject("metadata").putObject("labels");
    new TreeMap<>(c.run().labels()).forEach(labels::put);
    ObjectNode pod = template.putObject("spec");
    pod.put("restartPolicy", "Never");
    pod.put("automountServiceAccountToken", false);
    pod.putObject("nodeSelector").put("kubernetes.io/hostname", c.node());
    if (!c.taints().isEmpty()) {
      ArrayNode tol = pod.putArray("tolerations");
      for (NodeTaint t : c.taints()) {
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
    ObjectNode ct = pod.putArray("containers").addObject();
    ct.put("name", "populate");
    ct.put("image", c.image());
    ct.putArray("command").add("bash").add("-c").add(ModelCache.POPULATE_SCRIPT);
    ArrayNode env = ct.putArray("env");
    env.addObject().put("name", "BENCHPLAN_MODEL").put("value", c.model());
    env.addObject().put("name", "HF_HOME").put("value", ModelCache.MOUNT_PATH);
    env.addObject().put("name", "HF_HUB_ENABLE_HF_TRANSFER").put("value", "0");
    if (c.hfTokenSecret() != null) {
      ct.putArray("envFrom")
          .addObject()
          .putObject("secretRef")
          .put("name", c.hfTokenSecret())
          .put("optional", true);
    }
    ct.putArray("volumeMounts")
        .addObject()
        .put("name", ModelCache.VOLUME)
        .put("mountPath", ModelCache.MOUNT_PATH);
    pod.putArray("volumes")
        .addObject()
        .put("name", ModelCache.VOLUME)
        .putObject("persistentVolumeClaim")
        .put("claimName", ModelCache.CLAIM);
    return job;
  }

  private static ObjectNode object(ModelCache c, String apiVersion, String kind, String name) {
    ObjectNode o = Json.JSON.createObjectNode();
    o.put("apiVersion", apiVersion);
    o.put("kind", kind);
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    meta.put("namespace", c.namespace());
    ObjectNode labels = meta.putObject("labels");
    new TreeMap<>(c.run().labels()).forEach(labels::put);
    return o;
  }
}
