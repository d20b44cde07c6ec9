package dev.benchplan.kube.validate;

import dev.benchplan.json.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.util.Map;

/** DGDs and Services for mock-server tests, shaped like the operator's. */
final class MockDgds {
  static final CustomResourceDefinitionContext V1ALPHA1 =
      new CustomResourceDefinitionContext.Builder()
          .withGroup("nvidia.com")
          .withVersion("v1alpha1")
          .withPlural("dynamographdeployments")
          .withKind("DynamoGraphDeployment")
          .withScope("Namespaced")
          .build();

  private MockDgds() {}

  static GenericKubernetesResource dgd(
      KubernetesClient client, String ns, String name, String state, int workers) {
    String yaml =
        """
        apiVersion: nvidia.com/v1alpha1
        kind: DynamoGraphDeployment
        metadata: {name: %s, namespace: %s}
        spec:
          services:
            Frontend: {componentType: frontend, replicas: 1}
            VllmDecodeWorker:
              componentType: worker
              replicas: %d
              extraPodSpec:
                mainContainer:
                  command: [python3, -m, dynamo.vllm]
                  args: [--model, Qwen/Qwen3-0.6B]
        """
            .formatted(name, ns, workers);
    var node = (tools.jackson.databind.node.ObjectNode) Json.YAML.readTree(yaml);
    if (state != null) {
      var st = node.putObject("status");
      st.put("state", state);
      st.putObject("services")
          .putObject("VllmDecodeWorker")
          .put("readyReplicas", workers)
          .put("replicas", workers);
    }
    GenericKubernetesResource r =
        client
            .getKubernetesSerialization()
            .unmarshal(Json.JSON.writeValueAsString(node), GenericKubernetesResource.class);
    return client.genericKubernetesResources(V1ALPHA1).inNamespace(ns).resource(r).create();
  }

  static Service frontend(
      KubernetesClient client, String ns, String name, Map<String, String> labels) {
    Service s =
        new ServiceBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(ns)
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .addNewPort()
            .withName("http")
            .withPort(8000)
            .endPort()
            .endSpec()
            .build();
    return client.services().inNamespace(ns).resource(s).create();
  }
}
