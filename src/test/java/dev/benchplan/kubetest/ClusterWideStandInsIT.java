package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Cluster-wide stand-ins ({@link KubeTestContext.Scope#ALL_NAMESPACES}) serve a namespace the tool
 * under test creates itself (as {@code validate} does) and leave other test contexts' namespaces
 * alone.
 */
@KubeTestEnv
class ClusterWideStandInsIT {

  private static String namespace(
      KubernetesClient client, KubeTestContext kube, String name, Map<String, String> labels) {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .build())
        .create();
    kube.deleteAfterAll(name);
    return name;
  }

  @Test
  @DisplayName(
      "a tool-made namespace gets its pods run and its DGD reconciled; another context's namespace is left alone")
  void servesToolNamespacesOnly(KubeTestContext kube, KubernetesClient client) throws IOException {
    String toolNs = namespace(client, kube, KubeTestContext.uniqueName("tool-made"), Map.of());
    String othersNs =
        namespace(
            client,
            kube,
            KubeTestContext.uniqueName("other-context"),
            Map.of(KubeTestContext.NAMESPACE_LABEL, "some-other-test-namespace"));
    FakeKubelet kubelet =
        kube.startKubelet(
            KubeTestContext.Scope.ALL_NAMESPACES, FakeNode.withGpus(kube.namespace() + "-gpu", 1));
    kubelet.when(FakeKubelet.namePrefix("job-"), PodScript.succeed());
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);

    client.pods().inNamespace(othersNs).resource(PodLogsIT.pod("job-theirs")).create();
    client.pods().inNamespace(toolNs).resource(PodLogsIT.pod("job-tools")).create();
    Pod tools =
        client
            .pods()
            .inNamespace(toolNs)
            .withName("job-tools")
            .waitUntilCondition(
                p -> "Succeeded".equals(p.getStatus().getPhase()), 30, TimeUnit.SECONDS);
    assertThat(tools.getSpec().getNodeName()).isEqualTo(kube.namespace() + "-gpu");

    GenericKubernetesResource dgd = DynamoGraphDeploymentIT.agg(client, "tool-dgd");
    dgd.getMetadata().setNamespace(toolNs);
    client
        .genericKubernetesResources(FakeDynamoOperator.DGD)
        .inNamespace(toolNs)
        .resource(dgd)
        .create();
    client
        .genericKubernetesResources(FakeDynamoOperator.DGD)
        .inNamespace(toolNs)
        .withName("tool-dgd")
        .waitUntilCondition(
            d ->
                d.get("status") != null
                    && "successful"
                        .equals(
                            DynamoGraphDeploymentIT.map(d.getAdditionalProperties(), "status")
                                .get("state")),
            60,
            TimeUnit.SECONDS);

    // the stand-ins handled everything above after job-theirs was created: had they wanted it, it
    // would be bound
    Pod theirs = client.pods().inNamespace(othersNs).withName("job-theirs").get();
    assertThat(theirs.getSpec().getNodeName()).isNull();
    assertThat(theirs.getStatus().getConditions()).isNullOrEmpty();
  }
}
