package dev.benchplan.kube.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.DefaultDeployment;
import dev.benchplan.validate.ModelCache;
import dev.benchplan.validate.NodeTaint;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The model cache on the cluster: which StorageClass it gets (named, else the cluster's default),
 * then its PVC and the populate Job, waited for. Both live in the run's namespace and go with it.
 */
final class ModelCacheStore {
  /** The annotation marking the cluster's default StorageClass. */
  static final String DEFAULT_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";

  /** The annotation older clusters used. */
  static final String BETA_DEFAULT_CLASS_ANNOTATION =
      "storageclass.beta.kubernetes.io/is-default-class";

  private ModelCacheStore() {}

  /**
   * The class to use: {@code named} when it exists, else (named null) the default class. A named
   * class that does not exist, or no default and none named, is invalid input (exit 2) with the
   * fix.
   */
  static String storageClass(ClusterAccess client, @Nullable String named) {
    if (named != null) {
      StorageClass sc;
      try {
        sc = client.getStorageClass(KubeCall.DEPLOY_STORAGECLASS_GET, named);
      } catch (KubernetesClientException e) {
        throw ApiErrors.map("reading StorageClass " + named, e);
      }
      if (sc == null) {
        throw BenchplanException.invalid(
            "model cache: StorageClass '"
                + named
                + "' does not exist in the"
                + " cluster; name an existing one (kubectl get storageclass) with --model-cache-storage-class or the"
                + " recipe's inference-model-cache-storage-class, or turn the cache off with --no-model-cache");
      }
      return named;
    }
    List<StorageClass> all;
    try {
      all = client.listStorageClasses(KubeCall.DEPLOY_STORAGECLASSES_LIST);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("listing StorageClasses", e);
    }
    List<String> defaults =
        all.stream()
            .filter(ModelCacheStore::isDefault)
            .map(sc -> sc.getMetadata().getName())
            .sorted()
            .toList();
    if (defaults.isEmpty()) {
      throw BenchplanException.invalid(
          "model cache: the cluster has no default StorageClass (annotation "
              + DEFAULT_CLASS_ANNOTATION
              + "=true) and none was named; name one with --model-cache-storage-class"
              + " (or the recipe's inference-model-cache-storage-class), or turn the cache off with --no-model-cache");
    }
    // several defaults: Kubernetes itself uses the newest; the first by name is stable and recorded
    return defaults.get(0);
  }

  private static boolean isDefault(StorageClass sc) {
    Map<String, String> a = sc.getMetadata().getAnnotations();
    return a != null
        && ("true".equals(a.get(DEFAULT_CLASS_ANNOTATION))
            || "true".equals(a.get(BETA_DEFAULT_CLASS_ANNOTATION)));
  }

  /**
   * Creates the PVC and the populate Job, and waits until the Job completed within the cache's
   * bound.
   */
  static void populate(ClusterAccess client, ModelCache cache, ProgressSink progress) {
    String ns = cache.namespace();
    try {
      client.createPersistentVolumeClaim(KubeCall.DEPLOY_PVC_CREATE, ns, claim(cache));
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("creating the model-cache PVC " + ns + "/" + ModelCache.CLAIM, e);
    }
    try {
      client.createJob(KubeCall.DEPLOY_CACHE_JOB_CREATE, ns, populateJob(cache));
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("creating the model-cache Job " + ns + "/" + ModelCache.POPULATE_JOB, e);
    }
    progress.update(cache.downloading());
    Duration bound = Duration.ofSeconds(cache.boundSeconds());
    AtomicReference<Job> last = new AtomicReference<>();
    boolean done;
    try {
      done =
          client.awaitJob(
              KubeCall.DEPLOY_CACHE_JOB_WATCH,
              ns,
              ModelCache.POPULATE_JOB,
              j -> {
                last.set(j);
                return j == null || finished(j) != null;
              },
              bound.toMillis() + 5_000);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("watching the model-cache Job " + ns + "/" + ModelCache.POPULATE_JOB, e);
    }
    Job j = last.get();
    if (!done) {
      throw BenchplanException.runtime(
          "the model-cache Job "
              + ns
              + "/"
              + ModelCache.POPULATE_JOB
              + " did not finish within "
              + ProgressRenderer.format(bound)
              + " (--timeout-model-cache)");
    }
    if (j == null) {
      throw BenchplanException.runtime(
          "the model-cache Job "
              + ns
              + "/"
              + ModelCache.POPULATE_JOB
              + " was deleted while validate waited for it");
    }
    JobCondition c =
        Objects.requireNonNull(finished(j)); // done: the Job has its finishing condition
    if (!"Complete".equals(c.getType())) {
      throw BenchplanException.runtime(
          "the model-cache Job "
              + ns
              + "/"
              + ModelCache.POPULATE_JOB
              + " failed: "
              + c.getReason()
              + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")")
              + "; see kubectl logs -n "
              + ns
              + " job/"
              + ModelCache.POPULATE_JOB
              + ", or --no-model-cache");
    }
  }

  /** The PVC: ReadWriteOnce, of the cache's class and size. */
  static PersistentVolumeClaim claim(ModelCache cache) {
    return new PersistentVolumeClaimBuilder()
        .withMetadata(meta(cache, ModelCache.CLAIM))
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(cache.storageClass())
        .withNewResources()
        .addToRequests("storage", new Quantity(cache.size()))
        .endResources()
        .endSpec()
        .build();
  }

  /** The populate Job: the model downloaded once into the PVC, bounded by the cache's bound. */
  static Job populateJob(ModelCache cache) {
    ContainerBuilder c =
        new ContainerBuilder()
            .withName("populate")
            .withImage(cache.image())
            .withCommand("bash", "-c", ModelCache.POPULATE_SCRIPT)
            .addNewEnv()
            .withName("BENCHPLAN_MODEL")
            .withValue(cache.model())
            .endEnv()
            .addNewEnv()
            .withName("HF_HOME")
            .withValue(ModelCache.MOUNT_PATH)
            .endEnv()
            .addNewEnv()
            .withName("HF_HUB_ENABLE_HF_TRANSFER")
            .withValue("0")
            .endEnv()
            .addNewVolumeMount()
            .withName(ModelCache.VOLUME)
            .withMountPath(ModelCache.MOUNT_PATH)
            .endVolumeMount();
    if (cache.hfTokenSecret() != null) {
      // the same Secret the workers read (envFrom): a public model needs none, so it is optional
      c.addNewEnvFrom().withNewSecretRef(cache.hfTokenSecret(), true).endEnvFrom();
    }
    return new JobBuilder()
        .withMetadata(meta(cache, ModelCache.POPULATE_JOB))
        .withNewSpec()
        .withBackoffLimit(2)
        .withActiveDeadlineSeconds(cache.boundSeconds())
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(new TreeMap<>(cache.run().labels()))
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .addToNodeSelector(DefaultDeployment.HOSTNAME_LABEL, cache.node())
        .withTolerations(cache.taints().stream().map(ModelCacheStore::toleration).toList())
        .withContainers(c.build())
        .addNewVolume()
        .withName(ModelCache.VOLUME)
        .withNewPersistentVolumeClaim(ModelCache.CLAIM, null)
        .endVolume()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static ObjectMeta meta(ModelCache cache, String name) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(cache.namespace())
        .withLabels(new TreeMap<>(cache.run().labels()))
        .build();
  }

  /** A toleration of a node taint: Exists without a value, Equal with one. */
  private static Toleration toleration(NodeTaint t) {
    boolean any = t.value() == null || t.value().isEmpty();
    return new TolerationBuilder()
        .withKey(t.key())
        .withOperator(any ? "Exists" : "Equal")
        .withValue(any ? null : t.value())
        .withEffect(t.effect() == null || t.effect().isEmpty() ? null : t.effect())
        .build();
  }

  /** The Job's Complete or Failed condition when true, else null. */
  private static @Nullable JobCondition finished(Job j) {
    if (j.getStatus() == null || j.getStatus().getConditions() == null) {
      return null;
    }
    return j.getStatus().getConditions().stream()
        .filter(
            c ->
                "True".equals(c.getStatus())
                    && ("Complete".equals(c.getType()) || "Failed".equals(c.getType())))
        .findFirst()
        .orElse(null);
  }
}
