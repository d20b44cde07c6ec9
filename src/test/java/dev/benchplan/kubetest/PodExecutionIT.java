package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.artifacts.ArtifactChannel;
import dev.benchplan.artifacts.ArtifactManifest;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The kubelet stand-in executes the rendered Job's own container command (python3 running the Job
 * program mounted from the config ConfigMap) with a stand-in aiperf on PATH: the pod log carries
 * the real sweep's files through the verified artifact channel, exit codes decide the phase, PVCs
 * are local folders shared by pods.
 */
@KubeTestEnv
class PodExecutionIT {
  private static FakeKubelet kubelet;
  @TempDir static Path work;

  @BeforeAll
  static void start(KubeTestContext kube) {
    kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-exec", 0));
  }

  /** plan + render (no --load-point) of the example workload with concurrency [1, 2, 4]. */
  private static Path renderGrid(String namespace, String jobName) throws Exception {
    Path examples = work.resolve("examples-" + jobName);
    try (Stream<Path> s = Files.walk(Path.of("examples"))) {
      for (Path p : s.toList()) {
        Path to = examples.resolve(Path.of("examples").relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
    Path workload = examples.resolve("workload-static.yaml");
    Files.writeString(
        workload,
        Files.readString(workload)
            .replace("concurrency: [16]", "concurrency: [1, 2, 4]")
            .replace("request_count: 1000", "request_count: 200"));
    var plan =
        CommandHarness.run(
                "plan",
                "--workload",
                workload.toString(),
                "--ledger",
                examples.resolve("deployment-ledger.yaml").toString(),
                "--question",
                "Up to which concurrency does vllm-agg meet the support SLOs?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                work.resolve("exp-" + jobName).toString(),
                "--format",
                "json")
            .expectOk();
    JsonNode p = Json.JSON.readTree(plan.out());
    Path deployRoot = Files.createDirectories(work.resolve("deploy-" + jobName));
    CommandHarness.run(
            "render",
            "--plan",
            p.get("plan_path").asString(),
            "--plan-sha256",
            p.get("sha256").asString(),
            "--deploy-root",
            deployRoot.toString(),
            "--namespace",
            namespace,
            "--job-name",
            jobName,
            "--format",
            "json")
        .expectOk();
    return deployRoot.resolve("benchmark").resolve("perf.yaml");
  }

  private static Pod finished(KubernetesClient client, String jobName) {
    client
        .batch()
        .v1()
        .jobs()
        .withName(jobName)
        .waitUntilCondition(
            j ->
                j != null
                    && j.getStatus() != null
                    && j.getStatus().getConditions() != null
                    && !j.getStatus().getConditions().isEmpty(),
            120,
            TimeUnit.SECONDS);
    return client.pods().withLabel("job-name", jobName).list().getItems().get(0);
  }

  private static void apply(KubernetesClient client, Path perf) throws Exception {
    try (InputStream in = Files.newInputStream(perf)) {
      for (HasMetadata o : client.load(in).items()) {
        client.resource(o).create();
      }
    }
  }

  @Test
  @DisplayName(
      "a rendered 3-point Job runs its own script: the log ships the real files of every point, verified; exit 0 -> Succeeded")
  void renderedGrid(KubeTestContext kube, KubernetesClient client) throws Exception {
    String job = "exec-grid";
    Path perf = renderGrid(kube.namespace(), job);
    kubelet.when(
        FakeKubelet.labelled("job-name", job),
        PodScript.execute(PodExecution.in(work.resolve("ws"))));
    apply(client, perf);
    Pod pod = finished(client, job);
    String log = client.pods().withName(pod.getMetadata().getName()).getLog();
    assertThat(pod.getStatus().getPhase()).as(log).isEqualTo("Succeeded");
    assertThat(log)
        .contains("Starting AIPerf System", "==== benchplan:aiperf-run:end concurrency_4 0 ")
        .endsWith("==== benchplan:aiperf-exit:0 ====\n");
    Path restored = work.resolve("restored");
    ArtifactManifest m =
        ArtifactChannel.decode(new BufferedReader(new StringReader(log)), restored, "pod log");
    Path sweep = SharedData.require(PodExecution.REAL_SWEEP);
    for (int c : List.of(1, 2, 4)) {
      for (String f :
          List.of(
              "profile_export_aiperf.json", "profile_export.jsonl", "gpu_telemetry_export.jsonl")) {
        assertThat(m.paths()).contains("concurrency_" + c + "/" + f);
        assertThat(Sha256.ofFile(restored.resolve("concurrency_" + c).resolve(f)))
            .isEqualTo(Sha256.ofFile(sweep.resolve("concurrency" + c).resolve(f)));
      }
    }
    client
        .batch()
        .v1()
        .jobs()
        .withName(job)
        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.FOREGROUND)
        .delete();
  }

  @Test
  @DisplayName(
      "aiperf exits 3: the pod fails with exit code 3 and the log still ends with the exit line")
  void aiperfFails(KubeTestContext kube, KubernetesClient client) throws Exception {
    String job = "exec-fail";
    Path perf = renderGrid(kube.namespace(), job);
    kubelet.when(
        FakeKubelet.labelled("job-name", job),
        PodScript.execute(PodExecution.in(work.resolve("ws")).aiperfExit(3)));
    apply(client, perf);
    Pod pod = finished(client, job);
    String log = client.pods().withName(pod.getMetadata().getName()).getLog();
    assertThat(pod.getStatus().getPhase()).as(log).isEqualTo("Failed");
    assertThat(
            pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode())
        .isEqualTo(3);
    assertThat(log).endsWith("==== benchplan:aiperf-exit:3 ====\n");
  }

  @Test
  @DisplayName(
      "a PVC is a local folder shared by pods: what one pod writes the next one reads; a log cut short is served cut")
  void claimsAndCutLogs(KubeTestContext kube, KubernetesClient client) throws Exception {
    PodExecution exec = PodExecution.in(work.resolve("ws"));
    kubelet.when(FakeKubelet.namePrefix("writer"), PodScript.execute(exec));
    kubelet.when(FakeKubelet.namePrefix("reader"), PodScript.execute(exec.cutLogAt(10)));
    client
        .pods()
        .resource(
            pod(
                "writer",
                "mkdir -p \"$1\" && echo hello > \"$1/out.txt\" && echo written to \"$1\"",
                "/data/sub"))
        .create();
    Pod writer =
        client
            .pods()
            .withName("writer")
            .waitUntilCondition(PodExecutionIT::done, 60, TimeUnit.SECONDS);
    assertThat(writer.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(client.pods().withName("writer").getLog())
        .isEqualTo("written to " + exec.claimDir(kube.namespace(), "results") + "/sub\n");
    assertThat(Files.readString(exec.claimDir(kube.namespace(), "results").resolve("sub/out.txt")))
        .isEqualTo("hello\n");
    client
        .pods()
        .resource(pod("reader", "cat \"$1\"; echo 0123456789; exit 7", "/data/sub/out.txt"))
        .create();
    Pod reader =
        client
            .pods()
            .withName("reader")
            .waitUntilCondition(PodExecutionIT::done, 60, TimeUnit.SECONDS);
    assertThat(reader.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(client.pods().withName("reader").getLog()).isEqualTo("hello\n0123");
  }

  private static boolean done(Pod p) {
    return p != null
        && p.getStatus() != null
        && ("Succeeded".equals(p.getStatus().getPhase())
            || "Failed".equals(p.getStatus().getPhase()));
  }

  /**
   * A pod running {@code bash -c script sh path}: paths reach the script as arguments, which are
   * remapped.
   */
  private static Pod pod(String name, String script, String path) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("main")
        .withImage("stand-in")
        .withCommand("bash", "-c")
        .withArgs(script, "sh", path)
        .addNewVolumeMount()
        .withName("data")
        .withMountPath("/data")
        .endVolumeMount()
        .endContainer()
        .addNewVolume()
        .withName("data")
        .withNewPersistentVolumeClaim()
        .withClaimName("results")
        .endPersistentVolumeClaim()
        .endVolume()
        .endSpec()
        .build();
  }
}
