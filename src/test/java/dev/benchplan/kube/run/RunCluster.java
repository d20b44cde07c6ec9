package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.render.JobContract;
import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The cluster the run ITs (RunClusterIT, RbacRunIT) run against on the real control plane: a
 * kubelet stand-in with a GPU and a CPU node, the operator stand-in, and Dynamo's own vllm agg DGD
 * (from ../shared/data) running as {@link RunFixture#DGD}, whose pods the isolation preflight
 * inspects.
 */
final class RunCluster {
  private static final String AGG = "dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml";

  private RunCluster() {}

  /** Starts the stand-ins, creates the DGD and waits for its pod to run; returns the kubelet. */
  static FakeKubelet start(KubeTestContext kube, KubernetesClient client) throws IOException {
    FakeKubelet kubelet =
        kube.startKubelet(
            FakeNode.withGpus(kube.namespace() + "-gpu", 2),
            FakeNode.withGpus(kube.namespace() + "-cpu", 0));
    kube.startOperator(FakeDynamoOperator.Mode.AUTO);
    GenericKubernetesResource dgd;
    try (InputStream in = Files.newInputStream(SharedData.require(AGG))) {
      dgd = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
    }
    dgd.getMetadata().setName(RunFixture.DGD);
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) dgd.getAdditionalProperties().get("spec");
    spec.put("backendFramework", "vllm");
    client.genericKubernetesResources(FakeDynamoOperator.DGD).resource(dgd).create();
    client
        .pods()
        .withLabel(FakeDynamoOperator.DGD_LABEL, RunFixture.DGD)
        .waitUntilCondition(
            p -> p != null && p.getStatus() != null && "Running".equals(p.getStatus().getPhase()),
            60,
            TimeUnit.SECONDS);
    return kubelet;
  }

  /**
   * Nothing benchplan created in {@code ns} is left: no Job, ConfigMap or pod of {@code jobName}.
   */
  static void assertClean(KubernetesClient client, String ns, String jobName) {
    assertThat(
            client
                .batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withLabel(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE)
                .list()
                .getItems())
        .as("benchplan Jobs left")
        .isEmpty();
    assertThat(
            client
                .configMaps()
                .inNamespace(ns)
                .withLabel(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE)
                .list()
                .getItems())
        .as("benchplan ConfigMaps left")
        .isEmpty();
    assertThat(client.pods().inNamespace(ns).withLabel("job-name", jobName).list().getItems())
        .as("pods of the Job left")
        .isEmpty();
  }
}
