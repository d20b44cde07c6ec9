package dev.benchplan.kube.run;

import dev.benchplan.run.RunService;
import dev.benchplan.run.ShutdownHooks;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;

/**
 * Run services on a Kubernetes client the caller already holds (for {@code validate} and the
 * cluster tests). Kept apart from {@link RunServices} so that the class the CLI loads names no
 * fabric8 type.
 */
public final class KubeRunServices {
  private KubeRunServices() {}

  /**
   * A run service that uses {@code client} for every request (its {@code --context} is ignored and
   * the client is not closed), reads pod logs through it and registers {@code hooks} for
   * interrupts.
   */
  public static RunService using(KubernetesClient client, ShutdownHooks hooks) {
    return new KubeRunService(
        KubeClients.shared(client),
        Fabric8LogSource::new,
        hooks,
        Clock.systemUTC(),
        KubeRunService.Settings.CLI);
  }
}
