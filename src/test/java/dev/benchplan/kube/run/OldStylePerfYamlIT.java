package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.TestFiles;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code run} of a DEPLOY_ROOT rendered by an earlier benchplan, whose perf.yaml carries the Job
 * program inline ({@code bash -c} the old entrypoint): the Job runs it as rendered, and the run is
 * collected like any other.
 */
@KubeTestEnv
class OldStylePerfYamlIT {
  @TempDir Path work;

  @Test
  @DisplayName("a perf.yaml with the inline bash entrypoint still runs, end to end, to a verdict")
  void runsOldStylePerfYaml(KubeTestContext kube, KubernetesClient client) throws Exception {
    Path root = work.resolve("checkout");
    TestFiles.copyTree(Path.of("src/test/resources/dev/benchplan/verify/old-job-script"), root);
    Path deployRoot = root.resolve("experiments/deploy/synthetic-grid-20261130-9039ab9f");
    String perf = Files.readString(deployRoot.resolve("benchmark/perf.yaml"));
    assertThat(perf).contains("        - bash\n        - -c\n").doesNotContain("benchplan-job.py");
    FakeKubelet kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-old", 0));
    kubelet.when(
        FakeKubelet.labelled(
            "job-name", "bp-synthetic-grid-20261130-9039ab9f-20261202t061314z-331c"),
        PodScript.execute(PodExecution.synthetic(work.resolve("ws"))));
    RunOutcome o =
        KubeRunServices.using(client, action -> () -> {})
            .run(
                RunRequest.builder(deployRoot)
                    .namespace(kube.namespace())
                    .timeout(Duration.ofMinutes(3))
                    .scheduleTimeout(Duration.ofSeconds(60))
                    .build(),
                (phase, elapsed, detail) -> {});
    JsonNode run = Json.JSON.readTree(Files.readAllBytes(o.runDir().resolve("run.json")));
    assertThat(run.at("/exit_reason").asString()).as(o.verdict().message()).isEqualTo("completed");
    assertThat(o.runDir().resolve("aiperf/concurrency_4/profile_export_aiperf.json"))
        .isRegularFile();
  }
}
