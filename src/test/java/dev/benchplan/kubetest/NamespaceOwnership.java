package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which namespaces a cluster-wide stand-in may act in: every namespace except those another {@link
 * KubeTestContext} created (labelled {@link KubeTestContext#NAMESPACE_LABEL} with another owner).
 * Keeps a cluster-wide kubelet of one test run from running the pods of a concurrent run that
 * shares the environment.
 */
final class NamespaceOwnership implements Predicate<String> {
  private final KubernetesClient client;
  private final String owner;
  private final Map<String, Optional<String>> owners = new ConcurrentHashMap<>();

  NamespaceOwnership(KubernetesClient client, String owner) {
    this.client = client;
    this.owner = owner;
  }

  @Override
  public boolean test(String namespace) {
    Optional<String> o = owners.computeIfAbsent(namespace, this::lookup);
    return o.isEmpty() || o.get().equals(owner);
  }

  private Optional<String> lookup(String namespace) {
    Namespace ns = client.namespaces().withName(namespace).get();
    if (ns == null || ns.getMetadata().getLabels() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(ns.getMetadata().getLabels().get(KubeTestContext.NAMESPACE_LABEL));
  }
}
