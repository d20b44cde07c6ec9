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
    BenchmarkRunner runner = new BenchmarkRunner() {
      @Override
      public PlannedBenchmark plan(BenchmarkRequest request) {
        throw dev.benchplan.error.BenchplanException.runtime("plan is not wired into validate yet");
      }

      @Override
      public RenderedBenchmark render(BenchmarkRequest request, PlannedBenchmark plan) {
        throw dev.benchplan.error.BenchplanException.runtime("render is not wired into validate yet");
      }

      @Override
      public dev.benchplan.validate.BenchmarkOutcome run(BenchmarkRequest request, PlannedBenchmark plan,
          RenderedBenchmark rendered, dev.benchplan.validate.ProgressSink progress) {
        throw dev.benchplan.error.BenchplanException.runtime("run is not wired into validate yet");
      }
    };
    return new ValidateService(KubeValidateCluster::connect, runner, Clock.systemUTC(), err,
        ValidateService.AbortHooks.jvm(), toolVersion);
  }
}
