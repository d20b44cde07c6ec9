package dev.benchplan.kube.validate;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.validate.CleanupReport;
import dev.benchplan.validate.CreatedObject;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.ProgressSink;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Deletes what a validate run created, in reverse creation order (Job, ConfigMaps, DGD,
 * namespace). Each object is deleted only if it still carries the run's label (so a same-named
 * object someone else made is left alone), NotFound counts as done, and each deletion is waited
 * for. Running it again finds everything gone and changes nothing.
 */
final class ValidateCleaner {
  private ValidateCleaner() {}

  static CleanupReport cleanup(KubernetesClient client, CreatedObjects ledger, Duration boundEach,
      ProgressSink progress) {
    List<String> deleted = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (CreatedObject o : ledger.closeForCleanup()) {
      Resource<? extends HasMetadata> r;
      try {
        r = resource(client, o);
      } catch (IllegalArgumentException e) {
        problems.add(o.describe() + ": " + e.getMessage());
        continue;
      }
      try {
        HasMetadata current = r.get();
        if (current == null) {
          gone.add(o.describe());
          continue;
        }
        Map<String, String> labels = current.getMetadata().getLabels();
        if (labels == null || !o.labelValue().equals(labels.get(o.labelKey()))) {
          skipped.add(o.describe() + " (no label " + o.labelKey() + "=" + o.labelValue() + ": not ours)");
          continue;
        }
        progress.update("deleting " + o.describe());
        List<?> result = r.withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
        if (result.isEmpty()) {
          gone.add(o.describe());
          continue;
        }
        try {
          r.waitUntilCondition(x -> x == null, boundEach.toMillis(), TimeUnit.MILLISECONDS);
          deleted.add(o.describe());
        } catch (KubernetesClientTimeoutException e) {
          problems.add(o.describe() + " still present after " + ProgressRenderer.format(boundEach));
        }
      } catch (KubernetesClientException e) {
        if (ApiErrors.notFound(e)) {
          gone.add(o.describe());
        } else {
          problems.add("deleting " + o.describe() + ": " + ApiErrors.describe(e));
        }
      }
    }
    return new CleanupReport(deleted, gone, skipped, problems);
  }

  private static Resource<? extends HasMetadata> resource(KubernetesClient client, CreatedObject o) {
    return switch (o.kind()) {
      case "Namespace" -> client.namespaces().withName(o.name());
      case "ConfigMap" -> client.configMaps().inNamespace(o.namespace()).withName(o.name());
      case "Job" -> client.batch().v1().jobs().inNamespace(o.namespace()).withName(o.name());
      default -> {
        if (!o.apiVersion().contains("/")) {
          throw new IllegalArgumentException("validate does not delete " + o.kind() + " objects");
        }
        String group = o.apiVersion().substring(0, o.apiVersion().indexOf('/'));
        String version = o.apiVersion().substring(o.apiVersion().indexOf('/') + 1);
        if (!o.kind().equals(dev.benchplan.validate.DgdApi.KIND)) {
          throw new IllegalArgumentException("validate does not delete " + o.kind() + " objects");
        }
        yield client.genericKubernetesResources(KubeDocuments.dgdContext(group, version))
            .inNamespace(o.namespace()).withName(o.name());
      }
    };
  }
}
