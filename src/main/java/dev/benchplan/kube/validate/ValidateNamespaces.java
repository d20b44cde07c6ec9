package dev.benchplan.kube.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.CreatedObject;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The run's namespace: waiting for earlier ones to go, and creating a fresh one. */
final class ValidateNamespaces {
  private ValidateNamespaces() {}

  static boolean terminating(Namespace ns) {
    return ns != null
        && (ns.getMetadata().getDeletionTimestamp() != null
            || (ns.getStatus() != null && "Terminating".equals(ns.getStatus().getPhase())));
  }

  /** Waits until no namespace labelled as a validate namespace is terminating. */
  static void awaitOldGone(ClusterAccess client, Duration bound, ProgressSink progress) {
    Instant deadline = Instant.now().plus(bound);
    List<Namespace> old;
    try {
      old =
          client
              .listNamespaces(
                  KubeCall.DEPLOY_NAMESPACES_WATCH,
                  Map.of(ValidateRun.MANAGED_BY, "benchplan", ValidateRun.COMPONENT, "validate"))
              .stream()
              .filter(ValidateNamespaces::terminating)
              .toList();
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("listing earlier validate namespaces", e);
    }
    for (Namespace ns : old) {
      awaitGone(
          client,
          ns.getMetadata().getName(),
          deadline,
          bound,
          progress,
          "an earlier validate namespace");
    }
  }

  /** Waits for a terminating namespace to disappear before {@code deadline}. */
  static void awaitGone(
      ClusterAccess client,
      String name,
      Instant deadline,
      Duration bound,
      ProgressSink progress,
      String what) {
    progress.update("waiting for " + what + " " + name + " (Terminating) to be gone");
    long remaining = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
    boolean gone;
    try {
      gone = client.awaitNamespaceGone(KubeCall.DEPLOY_NAMESPACES_WATCH, name, remaining);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("waiting for namespace " + name + " to be gone", e);
    }
    if (!gone) {
      throw BenchplanException.runtime(
          what
              + " "
              + name
              + " is still terminating after "
              + ProgressRenderer.format(bound)
              + "; its pods may still hold GPUs. Try again later");
    }
  }

  /**
   * Creates the run's namespace, recording it first; an active namespace of that name is refused.
   */
  static void create(
      ClusterAccess client,
      ValidateRun run,
      String name,
      CreatedObjects ledger,
      Duration bound,
      ProgressSink progress) {
    Instant deadline = Instant.now().plus(bound);
    Namespace existing;
    try {
      existing = client.getNamespace(KubeCall.DEPLOY_NAMESPACE_GET, name);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("reading namespace " + name, e);
    }
    if (existing != null) {
      if (!terminating(existing)) {
        throw BenchplanException.runtime(
            "namespace "
                + name
                + " already exists and is active;"
                + " validate never reuses a namespace");
      }
      awaitGone(client, name, deadline, bound, progress, "the namespace");
    }
    CreatedObject obj =
        new CreatedObject("v1", "Namespace", null, name, ValidateRun.RUN_LABEL, run.runId());
    if (!ledger.record(obj)) {
      throw BenchplanException.runtime("interrupted before creating namespace " + name);
    }
    Namespace ns =
        new NamespaceBuilder()
            .withNewMetadata()
            .withName(name)
            .withLabels(run.labels())
            .endMetadata()
            .build();
    try {
      client.createNamespace(KubeCall.DEPLOY_NAMESPACE_CREATE, ns);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("creating namespace " + name, e);
    }
    if (ledger.closed()) {
      // cleanup ran while the create was in flight: undo it here
      client.deleteNamespace(KubeCall.DEPLOY_NAMESPACE_CLEANUP, name);
      throw BenchplanException.runtime("interrupted while creating namespace " + name);
    }
  }
}
