package dev.benchplan.kube.run;

import dev.benchplan.run.RunService;
import dev.benchplan.run.ShutdownHooks;
import java.time.Clock;

/** The {@link RunService} the CLI uses: the kubeconfig, real pod logs, JVM shutdown hooks. */
public final class RunServices {
  private RunServices() {}

  /** A run service that talks to the cluster of the kubeconfig context given in each request. */
  public static RunService kubernetes() {
    return new KubeRunService(
        KubeClients.kubeconfig(),
        Fabric8LogSource::new,
        ShutdownHooks.jvm(),
        Clock.systemUTC(),
        KubeRunService.Settings.CLI);
  }
}
