package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class DgdViewTest {
  static ObjectNode read(String rel) throws IOException {
    return (ObjectNode) Json.YAML.readTree(Files.readString(SharedData.require(rel)));
  }

  @Test
  @DisplayName("Dynamo 0.9 agg example (v1alpha1): Frontend + 1 worker serving Qwen/Qwen3-0.6B")
  void v1alpha1Agg() throws IOException {
    ObjectNode doc = read("dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml");
    ((ObjectNode) doc.get("metadata")).put("namespace", "ns-a");
    DgdView v = DgdView.of(doc);
    assertThat(v.name()).isEqualTo("vllm-agg");
    assertThat(v.withRole(DgdComponent.Role.FRONTEND))
        .extracting(DgdComponent::name)
        .containsExactly("Frontend");
    assertThat(v.workerReplicas()).isEqualTo(1);
    assertThat(v.servedModels()).containsExactly("Qwen/Qwen3-0.6B");
    assertThat(v.successful()).isFalse();
    assertThat(v.withRole(DgdComponent.Role.FRONTEND).get(0).serviceName(v.name()))
        .isEqualTo("vllm-agg-frontend");
  }

  @Test
  @DisplayName("Dynamo main agg example (v1beta1 components list) reads the same")
  void v1beta1Agg() throws IOException {
    DgdView v = DgdView.of(read("dynamo/main-2026-08-21/examples/backends/vllm/deploy/agg.yaml"));
    assertThat(v.apiVersion()).isEqualTo("nvidia.com/v1beta1");
    assertThat(v.workerReplicas()).isEqualTo(1);
    assertThat(v.servedModels()).containsExactly("Qwen/Qwen3-0.6B");
    assertThat(v.withRole(DgdComponent.Role.FRONTEND)).hasSize(1);
  }

  @Test
  @DisplayName("disagg: the prefill worker is not counted as a token-generating worker")
  void disagg() throws IOException {
    DgdView v = DgdView.of(read("dynamo/v0.9.0/examples/backends/vllm/deploy/disagg.yaml"));
    assertThat(v.withRole(DgdComponent.Role.PREFILL))
        .extracting(DgdComponent::name)
        .containsExactly("VllmPrefillWorker");
    assertThat(v.workerReplicas()).isEqualTo(1);
    assertThat(v.servedModels()).containsExactly("Qwen/Qwen3-0.6B");
  }

  @Test
  @DisplayName("a shell command line with $SERVED_MODEL_NAME is expanded from the container env")
  void recipeShellArgs() throws IOException {
    DgdView v = DgdView.of(read("dynamo/v0.9.0/recipes/llama-3-70b/vllm/agg/deploy.yaml"));
    assertThat(v.servedModels()).containsExactly("RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic");
  }

  @Test
  @DisplayName(
      "status: state and ready replicas per service (v1alpha1) and per component (v1beta1)")
  void status() throws IOException {
    ObjectNode a = read("dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml");
    ObjectNode st = a.putObject("status");
    st.put("state", "successful");
    st.putObject("services").putObject("VllmDecodeWorker").put("readyReplicas", 1);
    DgdView va = DgdView.of(a);
    assertThat(va.successful()).isTrue();
    assertThat(va.components())
        .filteredOn(c -> c.name().equals("VllmDecodeWorker"))
        .singleElement()
        .extracting(DgdComponent::readyReplicas)
        .isEqualTo(1);
    assertThat(va.components())
        .filteredOn(c -> c.name().equals("Frontend"))
        .singleElement()
        .extracting(DgdComponent::readyReplicas)
        .isEqualTo(-1);

    ObjectNode b = read("dynamo/main-2026-08-21/examples/backends/vllm/deploy/agg.yaml");
    b.putObject("status")
        .put("state", "pending")
        .putObject("components")
        .putObject("VllmDecodeWorker")
        .put("readyReplicas", 0);
    DgdView vb = DgdView.of(b);
    assertThat(vb.successful()).isFalse();
    assertThat(vb.components())
        .filteredOn(c -> c.name().equals("VllmDecodeWorker"))
        .singleElement()
        .extracting(DgdComponent::readyReplicas)
        .isEqualTo(0);
  }

  @Test
  @DisplayName(
      "an undefined variable in --model leaves the model unknown (recorded), never guessed")
  void unresolved() {
    ObjectNode doc =
        (ObjectNode)
            Json.YAML.readTree(
                """
        apiVersion: nvidia.com/v1alpha1
        kind: DynamoGraphDeployment
        metadata: {name: x, namespace: n}
        spec:
          services:
            W:
              componentType: worker
              replicas: 3
              extraPodSpec:
                mainContainer:
                  command: [/bin/sh, -c]
                  args: ["python3 -m dynamo.vllm --model $NOPE"]
        """);
    DgdView v = DgdView.of(doc);
    assertThat(v.servedModels()).isEmpty();
    assertThat(v.components().get(0).unresolvedModel()).isEqualTo("$NOPE");
    assertThat(v.workerReplicas()).isEqualTo(3);
  }
}
