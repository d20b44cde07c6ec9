package dev.benchplan.kube.run;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Deletes what a run created: the Job (foreground propagation, so its pods go first) and its
 * ConfigMaps. Idempotent: objects already gone are fine, and a second call does nothing more.
 */
final class Cleanup {
  private final ClusterAccess client;
  private final String namespace;
  private final String jobName;
  private final List<String> configMaps;
  private final Duration wait;
  private @Nullable List<String> done;
  private final List<java.util.function.Supplier<List<String>>> after =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  Cleanup(
      ClusterAccess client,
      String namespace,
      String jobName,
      List<String> configMaps,
      Duration wait) {
    this.client = client;
    this.namespace = namespace;
    this.jobName = jobName;
    this.configMaps = List.copyOf(configMaps);
    this.wait = wait;
  }

  /** Deletes the Job and ConfigMaps once; returns what happened to each. */
  synchronized List<String> run() {
    if (done == null) {
      done = delete();
    }
    return done;
  }

  /**
   * Also runs {@code more} (e.g. the artifact collector's own cleanup) after the Job and
   * ConfigMaps.
   */
  void andThen(java.util.function.Supplier<List<String>> more) {
    after.add(more);
  }

  /**
   * Deletes objects left by an earlier run of the same names (--replace), waiting until the Job is
   * gone.
   */
  List<String> deleteExisting() {
    return delete();
  }

  private List<String> delete() {
    List<String> out = new ArrayList<>();
    String job = "Job " + namespace + "/" + jobName;
    try {
      if (!client.deleteJob(KubeCall.RUN_JOB_DELETE, namespace, jobName)) {
        out.add(job + ": already gone");
      } else if (client.awaitJobGone(
          KubeCall.RUN_JOBS_WATCH, namespace, jobName, wait.toMillis())) {
        out.add(job + ": deleted");
      } else {
        out.add(job + ": deletion requested, still terminating after " + JobWatch.human(wait));
      }
    } catch (KubernetesClientException e) {
      out.add(job + ": NOT deleted: " + ApiErrors.map("delete " + job, e).getMessage());
    }
    for (String cm : configMaps) {
      String what = "ConfigMap " + namespace + "/" + cm;
      try {
        out.add(
            what
                + (client.deleteConfigMap(KubeCall.RUN_CONFIGMAP_DELETE, namespace, cm)
                    ? ": deleted"
                    : ": already gone"));
      } catch (KubernetesClientException e) {
        out.add(what + ": NOT deleted: " + ApiErrors.map("delete " + what, e).getMessage());
      }
    }
    for (java.util.function.Supplier<List<String>> more : after) {
      out.addAll(more.get());
    }
    return out;
  }

  /** True when every object is gone (nothing failed to delete). */
  static boolean clean(List<String> results) {
    return results.stream().noneMatch(s -> s.contains("NOT deleted"));
  }
}
