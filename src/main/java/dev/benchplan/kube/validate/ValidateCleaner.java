package dev.benchplan.kube.validate;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.CleanupReport;
import dev.benchplan.validate.CreatedObject;
import dev.benchplan.validate.CreatedObjects;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Deletes what a validate run created, in reverse creation order (Job, ConfigMaps, DGD, namespace).
 * Each object is deleted only if it still carries the run's label (so a same-named object someone
 * else made is left alone), NotFound counts as done, and each deletion is waited for. Running it
 * again finds everything gone and changes nothing.
 */
final class ValidateCleaner {
  private ValidateCleaner() {}

  static CleanupReport cleanup(
      ClusterAccess client, CreatedObjects ledger, Duration boundEach, ProgressSink progress) {
    List<String> deleted = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (CreatedObject o : ledger.closeForCleanup()) {
      ClusterAccess.Created r;
      KubeCall row;
      try {
        r = created(o);
        row = row(o);
      } catch (IllegalArgumentException e) {
        problems.add(o.describe() + ": " + e.getMessage());
        continue;
      }
      try {
        HasMetadata current = client.getCreated(row, r);
        if (current == null) {
          gone.add(o.describe());
          continue;
        }
        Map<String, String> labels = current.getMetadata().getLabels();
        if (labels == null
            || o.labelValue() == null
            || !o.labelValue().equals(labels.get(o.labelKey()))) {
          skipped.add(
              o.describe() + " (no label " + o.labelKey() + "=" + o.labelValue() + ": not ours)");
          continue;
        }
        progress.update("deleting " + o.describe());
        if (!client.deleteCreated(row, r)) {
          gone.add(o.describe());
          continue;
        }
        if (client.awaitCreatedGone(row, r, boundEach.toMillis())) {
          deleted.add(o.describe());
        } else {
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

  /** The object as the cluster access names it; only the kinds validate creates. */
  private static ClusterAccess.Created created(CreatedObject o) {
    return switch (o.kind()) {
      case "Namespace", "ConfigMap", "Job" ->
          new ClusterAccess.Created(o.apiVersion(), o.kind(), null, o.namespace(), o.name());
      default -> {
        if (!o.apiVersion().contains("/") || !o.kind().equals(dev.benchplan.validate.DgdApi.KIND)) {
          throw new IllegalArgumentException("validate does not delete " + o.kind() + " objects");
        }
        yield new ClusterAccess.Created(
            o.apiVersion(),
            o.kind(),
            dev.benchplan.validate.DgdApi.PLURAL,
            o.namespace(),
            o.name());
      }
    };
  }

  /** The table row of cleaning up an object of this kind. */
  private static KubeCall row(CreatedObject o) {
    return switch (o.kind()) {
      case "Namespace" -> KubeCall.DEPLOY_NAMESPACE_CLEANUP;
      case "ConfigMap" -> KubeCall.VALIDATE_CONFIGMAP_CLEANUP;
      case "Job" -> KubeCall.VALIDATE_JOB_CLEANUP;
      default -> KubeCall.DEPLOY_DGD_CLEANUP;
    };
  }
}
