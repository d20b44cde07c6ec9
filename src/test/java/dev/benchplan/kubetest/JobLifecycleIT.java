package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The real Job controller of kube-controller-manager drives Jobs whose pods the kubelet stand-in
 * runs: Complete after exit 0, Failed (BackoffLimitExceeded) after exit 1.
 */
@KubeTestEnv
class JobLifecycleIT {
  private static FakeKubelet kubelet;

  @BeforeAll
  static void startKubelet(KubeTestContext kube) {
    kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-node", 8));
  }

  static Job job(String name) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withBackoffLimit(0)
        .withNewTemplate()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("aiperf")
        .withImage("aiperf:stand-in")
        .withCommand("aiperf", "profile")
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  private static boolean hasCondition(Job job, String type) {
    List<JobCondition> conditions =
        job == null || job.getStatus() == null ? null : job.getStatus().getConditions();
    return conditions != null
        && conditions.stream()
            .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Test
  @DisplayName("a Job whose pod exits 0 becomes Complete through the real Job controller")
  void jobCompletes(KubernetesClient client) {
    kubelet.when(FakeKubelet.labelled("job-name", "ok-job"), PodScript.succeed());
    client.batch().v1().jobs().resource(job("ok-job")).create();

    Job done =
        client
            .batch()
            .v1()
            .jobs()
            .withName("ok-job")
            .waitUntilCondition(
                j -> hasCondition(j, "Complete") || hasCondition(j, "Failed"),
                60,
                TimeUnit.SECONDS);

    assertThat(hasCondition(done, "Complete")).as("Job conditions: %s", done.getStatus()).isTrue();
    assertThat(done.getStatus().getSucceeded()).isEqualTo(1);
    Pod pod = client.pods().withLabel("job-name", "ok-job").list().getItems().get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
    assertThat(pod.getSpec().getNodeName()).isEqualTo(kubelet.nodes().get(0).name());
    assertThat(
            pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode())
        .isZero();
  }

  @Test
  @DisplayName("a Job whose pod exits 1 after 2 s becomes Failed with reason BackoffLimitExceeded")
  void jobFails(KubernetesClient client) {
    kubelet.when(
        FakeKubelet.labelled("job-name", "bad-job"),
        PodScript.exit(1).after(Duration.ofSeconds(2)));
    long t0 = System.nanoTime();
    client.batch().v1().jobs().resource(job("bad-job")).create();

    Pod running =
        client
            .pods()
            .withLabel("job-name", "bad-job")
            .waitUntilCondition(
                p ->
                    p != null
                        && p.getStatus() != null
                        && "Running".equals(p.getStatus().getPhase()),
                30,
                TimeUnit.SECONDS);
    assertThat(running.getStatus().getContainerStatuses().get(0).getReady()).isTrue();
    Job done =
        client
            .batch()
            .v1()
            .jobs()
            .withName("bad-job")
            .waitUntilCondition(
                j -> hasCondition(j, "Complete") || hasCondition(j, "Failed"),
                60,
                TimeUnit.SECONDS);
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    JobCondition failed =
        done.getStatus().getConditions().stream()
            .filter(c -> "Failed".equals(c.getType()))
            .findFirst()
            .orElseThrow();
    assertThat(failed.getReason()).isEqualTo("BackoffLimitExceeded");
    assertThat(failed.getMessage()).contains("backoff limit");
    assertThat(elapsedMs).as("the pod ran for its scripted 2 s").isGreaterThanOrEqualTo(2000);
    Pod pod = client.pods().withLabel("job-name", "bad-job").list().getItems().get(0);
    assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
    assertThat(
            pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode())
        .isEqualTo(1);
  }
}
