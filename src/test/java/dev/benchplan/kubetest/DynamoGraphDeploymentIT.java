package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The real v0.9.0 DynamoGraphDeployment CRD (installed by kube-test-env.sh) validates DGDs; the
 * operator stand-in drives a valid one to {@code successful} with the pods the kubelet stand-in
 * runs.
 */
@KubeTestEnv
class DynamoGraphDeploymentIT {
  private static final String AGG = "dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml";

  @BeforeAll
  static void standIns(KubeTestContext kube) {
    kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-gpu", 2));
    kube.startOperator(FakeDynamoOperator.Mode.AUTO);
  }

  /** The real vllm agg example from ../shared/data, renamed. */
  static GenericKubernetesResource agg(KubernetesClient client, String name) throws IOException {
    try (InputStream in = Files.newInputStream(SharedData.require(AGG))) {
      GenericKubernetesResource dgd =
          client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
      dgd.getMetadata().setName(name);
      return dgd;
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> spec(GenericKubernetesResource dgd) {
    return (Map<String, Object>) dgd.getAdditionalProperties().get("spec");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o, String... path) {
    Object cur = o;
    for (String p : path) {
      cur = ((Map<String, Object>) cur).get(p);
    }
    return (Map<String, Object>) cur;
  }

  @Test
  @DisplayName("the real CRD rejects an unknown backendFramework and a non-integer replicas")
  void invalidDgdIsRejected(KubernetesClient client) throws IOException {
    GenericKubernetesResource badEnum = agg(client, "bad-enum");
    spec(badEnum).put("backendFramework", "pytorch");
    assertThatThrownBy(
            () ->
                client
                    .genericKubernetesResources(FakeDynamoOperator.DGD)
                    .resource(badEnum)
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        // the API server's structured cause, whole: the field and its reason
        .satisfies(
            e ->
                assertThat(((KubernetesClientException) e).getStatus().getDetails().getCauses())
                    .extracting(c -> c.getField() + ": " + c.getReason())
                    .containsExactly("spec.backendFramework: FieldValueNotSupported"))
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422));

    GenericKubernetesResource badType = agg(client, "bad-type");
    map(spec(badType), "services", "Frontend").put("replicas", "two");
    assertThatThrownBy(
            () ->
                client
                    .genericKubernetesResources(FakeDynamoOperator.DGD)
                    .resource(badType)
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        // the API server's structured cause, whole: the field and its reason
        .satisfies(
            e ->
                assertThat(((KubernetesClientException) e).getStatus().getDetails().getCauses())
                    .extracting(c -> c.getField() + ": " + c.getReason())
                    .containsExactly("spec.services.Frontend.replicas: FieldValueInvalid"));

    assertThat(client.genericKubernetesResources(FakeDynamoOperator.DGD).list().getItems())
        .isEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  @DisplayName(
      "a valid DGD is accepted and driven to successful: frontend Service, labelled GPU worker pod, v1alpha1 status")
  void validDgdBecomesSuccessful(KubeTestContext kube, KubernetesClient client) throws IOException {
    GenericKubernetesResource dgd = agg(client, "vllm-agg");
    spec(dgd).put("backendFramework", "vllm");
    client.genericKubernetesResources(FakeDynamoOperator.DGD).resource(dgd).create();

    GenericKubernetesResource done =
        client
            .genericKubernetesResources(FakeDynamoOperator.DGD)
            .withName("vllm-agg")
            .waitUntilCondition(
                d ->
                    d.get("status") != null
                        && "successful"
                            .equals(map(d.getAdditionalProperties(), "status").get("state")),
                60,
                TimeUnit.SECONDS);

    Map<String, Object> status = map(done.getAdditionalProperties(), "status");
    List<Map<String, Object>> conditions = (List<Map<String, Object>>) status.get("conditions");
    assertThat(conditions)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c)
                  .containsEntry("type", "Ready")
                  .containsEntry("status", "True")
                  .containsKeys("reason", "message", "lastTransitionTime");
            });
    assertThat(map(status, "services", "VllmDecodeWorker"))
        .containsEntry("componentKind", "Deployment")
        .containsEntry("replicas", 1)
        .containsEntry("readyReplicas", 1);

    Service frontend = client.services().withName("vllm-agg-frontend").get();
    assertThat(frontend).as("Service vllm-agg-frontend").isNotNull();
    assertThat(frontend.getSpec().getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getName() + ":" + p.getPort()).isEqualTo("http:8000"));
    assertThat(frontend.getMetadata().getLabels())
        .containsEntry("nvidia.com/dynamo-graph-deployment-name", "vllm-agg")
        .containsEntry("nvidia.com/dynamo-component-type", "frontend");

    List<Pod> workers =
        client
            .pods()
            .withLabel("nvidia.com/dynamo-component-type", "worker")
            .withLabel("nvidia.com/dynamo-graph-deployment-name", "vllm-agg")
            .list()
            .getItems();
    assertThat(workers)
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.getMetadata().getLabels())
                  .containsEntry("nvidia.com/dynamo-component", "VllmDecodeWorker")
                  .containsEntry("nvidia.com/dynamo-namespace", kube.namespace() + "-vllm-agg");
              assertThat(w.getSpec().getContainers().get(0).getResources().getLimits())
                  .containsEntry("nvidia.com/gpu", new Quantity("1"));
              assertThat(
                      w.getSpec()
                          .getContainers()
                          .get(0)
                          .getEnvFrom()
                          .get(0)
                          .getSecretRef()
                          .getName())
                  .isEqualTo("hf-token-secret");
              assertThat(w.getStatus().getPhase()).isEqualTo("Running");
              assertThat(w.getSpec().getNodeName()).isEqualTo(kube.namespace() + "-gpu");
            });

    // the real garbage collector removes what the DGD owns; the kubelet stand-in finishes the pods
    client.genericKubernetesResources(FakeDynamoOperator.DGD).withName("vllm-agg").delete();
    client
        .pods()
        .withLabel(FakeDynamoOperator.DGD_LABEL, "vllm-agg")
        .informOnCondition(List::isEmpty)
        .orTimeout(60, TimeUnit.SECONDS)
        .join();
    assertThat(client.services().withName("vllm-agg-frontend").get()).isNull();
  }

  @Test
  @DisplayName("on cue: a manual operator marks a DGD failed, then successful")
  void manualCues(KubeTestContext kube, KubernetesClient client) throws IOException {
    String ns = kube.createNamespace("dgd-manual");
    try (FakeDynamoOperator manual =
        FakeDynamoOperator.start(client, ns, FakeDynamoOperator.Mode.MANUAL)) {
      GenericKubernetesResource dgd = agg(client, "cue");
      dgd.getMetadata().setNamespace(ns);
      client
          .genericKubernetesResources(FakeDynamoOperator.DGD)
          .inNamespace(ns)
          .resource(dgd)
          .create();

      manual.makeFailed(ns, "cue", "worker VllmDecodeWorker crashed");
      GenericKubernetesResource failed =
          client
              .genericKubernetesResources(FakeDynamoOperator.DGD)
              .inNamespace(ns)
              .withName("cue")
              .get();
      assertThat(map(failed.getAdditionalProperties(), "status")).containsEntry("state", "failed");
      assertThat(client.services().inNamespace(ns).withName("cue-frontend").get())
          .as("no children before makeSuccessful")
          .isNull();

      manual.makeSuccessful(ns, "cue");
      GenericKubernetesResource ok =
          client
              .genericKubernetesResources(FakeDynamoOperator.DGD)
              .inNamespace(ns)
              .withName("cue")
              .get();
      assertThat(map(ok.getAdditionalProperties(), "status")).containsEntry("state", "successful");
      assertThat(client.services().inNamespace(ns).withName("cue-frontend").get()).isNotNull();
    }
  }
}
