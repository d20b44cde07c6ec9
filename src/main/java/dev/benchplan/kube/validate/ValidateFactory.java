package dev.benchplan.kube.validate;

import dev.benchplan.kube.run.KubeRunServices;
import dev.benchplan.run.ShutdownHooks;
import dev.benchplan.validate.AiperfBenchmarkRunner;
import dev.benchplan.validate.ValidateService;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Wires {@link ValidateService} to the real cluster and the project's plan, render and run. Kept
 * apart from the command so that loading the CLI never loads the Kubernetes client.
 */
public final class ValidateFactory {
  private ValidateFactory() {}

  /** The service with the fabric8 cluster, the AIPerf pipeline and the JVM's shutdown hooks. */
  public static ValidateService service(PrintWriter err, String toolVersion) {
    AtomicReference<KubeValidateCluster> connected = new AtomicReference<>();
    AiperfBenchmarkRunner runner =
        new AiperfBenchmarkRunner(
            // the runner runs only after the service has connected
            hooks ->
                KubeRunServices.using(
                    Objects.requireNonNull(connected.get(), "connected").client(), hooks),
            Clock.systemUTC(),
            System.getenv());
    return new ValidateService(
        options -> {
          KubeValidateCluster c = KubeValidateCluster.connect(options);
          connected.set(c);
          return c;
        },
        runner,
        Clock.systemUTC(),
        err,
        ShutdownHooks.jvm(),
        toolVersion);
  }
}
