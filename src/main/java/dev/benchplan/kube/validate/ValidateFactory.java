package dev.benchplan.kube.validate;

import dev.benchplan.validate.BenchmarkRunner;
import dev.benchplan.validate.ValidateService;
import java.io.PrintWriter;
import java.time.Clock;

/**
 * Wires {@link ValidateService} to the real cluster. Kept apart from the command so that loading
 * the CLI never loads the Kubernetes client.
 */
public final class ValidateFactory {
  private ValidateFactory() {}

  /** The service with the fabric8 cluster, the benchmark runner and the JVM's shutdown hooks. */
  public static ValidateService service(PrintWriter err, String toolVersion) {
    BenchmarkRunner runner = (request, progress) -> {
      throw dev.benchplan.error.BenchplanException.runtime(
          "the benchmark step (plan + render + run) is not wired yet");
    };
    return new ValidateService(KubeValidateCluster::connect, runner, Clock.systemUTC(), err,
        ValidateService.AbortHooks.jvm(), toolVersion);
  }
}
