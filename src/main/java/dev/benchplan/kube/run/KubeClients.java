package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** Opens a Kubernetes client for a kubeconfig context. */
@FunctionalInterface
interface KubeClients {
  /** A client for {@code context} (null: the kubeconfig's current context). */
  KubernetesClient open(String context);

  /** Gives a client back after the run (closes clients this factory opened). */
  default void release(KubernetesClient client) {
    client.close();
  }

  /** Always {@code client}, whatever the context; never closed (its owner closes it). */
  static KubeClients shared(KubernetesClient client) {
    return new KubeClients() {
      @Override
      public KubernetesClient open(String context) {
        return client;
      }

      @Override
      public void release(KubernetesClient c) {
        // owned by the caller
      }
    };
  }

  /** Clients from the kubeconfig ($KUBECONFIG or ~/.kube/config), as kubectl resolves them. */
  static KubeClients kubeconfig() {
    return context -> {
      Config config = Config.autoConfigure(context);
      if (context != null
          && (config.getCurrentContext() == null || !context.equals(config.getCurrentContext().getName()))) {
        throw BenchplanException.invalid("--context: context '" + context + "' is not in the kubeconfig"
            + " ($KUBECONFIG or ~/.kube/config)");
      }
      return new KubernetesClientBuilder().withConfig(config).build();
    };
  }
}
