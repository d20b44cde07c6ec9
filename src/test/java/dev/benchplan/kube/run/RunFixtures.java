package dev.benchplan.kube.run;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;

/** Public access to the run fixtures for tests in other packages (the CLI tests). */
public final class RunFixtures {
  public static final String RUN_ID = RunFixture.RUN_ID;
  public static final String JOB = RunFixture.JOB;

  private RunFixtures() {}

  /** A DEPLOY_ROOT under {@code root}/deploy with a plan gating throughput and TTFT p99. */
  public static void create(Path root, String namespace, double minThroughput, double maxTtft) {
    RunFixture.create(root, namespace, minThroughput, maxTtft);
  }

  /** The pod log of a successful AIPerf run carrying the real export. */
  public static String realLog() {
    return RunFixture.logWithRealSummary(0);
  }

  /**
   * A fake Job controller that runs pod {@code pod} to a successful end once the Job exists; run
   * the result to stop it.
   */
  public static Runnable completingController(
      KubernetesClient client, String namespace, String pod) {
    FakeJobController c =
        new FakeJobController(
            client,
            namespace,
            RunFixture.JOB,
            s ->
                s.createPod(pod)
                    .schedule("cpu-node-1")
                    .running()
                    .terminate(0)
                    .jobCondition("Complete", null, null));
    return c::close;
  }
}
