package dev.benchplan.kube.run;

import dev.benchplan.kube.KubeConnection;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;

/** Opens a Kubernetes client for a kubeconfig context. */
@FunctionalInterface
interface KubeClients {
  /** A client for {@code context} (null: the kubeconfig's current context). */
  KubernetesClient open(@Nullable String context);

  /** Gives a client back after the run (closes clients this factory opened). */
  default void release(KubernetesClient client) {
    dev.benchplan.kube.ClusterAccess.of(client).close();
  }

  /** Always {@code client}, whatever the context; never closed (its owner closes it). */
  static KubeClients shared(KubernetesClient client) {
    return new KubeClients() {
      @Override
      public KubernetesClient open(@Nullable String context) {
        return client;
      }

      @Override
      public void release(KubernetesClient c) {
        // owned by the caller
      }
    };
  }

  /**
   * Clients from the kubeconfig ($KUBECONFIG or ~/.kube/config) as kubectl resolves them, or the
   * in-cluster service account: {@link KubeConnection#open}.
   */
  static KubeClients kubeconfig() {
    return context -> KubeConnection.open(context).client();
  }
}
