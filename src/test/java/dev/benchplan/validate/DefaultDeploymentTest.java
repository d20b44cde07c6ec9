package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class DefaultDeploymentTest {
  @TempDir static Path tmp;

  static final ValidateRun RUN = new ValidateRun("20261130T120000Z-0a1b2c3d");
  static final List<NodeTaint> TAINTS =
      List.of(
          new NodeTaint("nvidia.com/gpu", null, "NoSchedule"),
          new NodeTaint("dedicated", "inference: \"yes\" # not a comment", "NoExecute"));

  static DefaultDeployment deployment(String version, int workers) {
    return new DefaultDeployment(
        RUN,
        "nvidia.com/" + version,
        RUN.namespace(),
        "Qwen/Qwen3-0.6B",
        workers,
        "gpu-node-1",
        TAINTS,
        ValidateOptions.DEFAULT_RUNTIME_IMAGE,
        "hf-token-secret",
        null);
  }

  @Test
  @DisplayName(
      "v1alpha1 DGD passes the real Dynamo 0.9 CRD schema (strict: nothing would be pruned)")
  void v1alpha1MatchesCrd() throws Exception {
    ObjectNode m = deployment("v1alpha1", 4).manifest();
    assertThat(CrdSchemas.strict(CrdSchemas.V090, "v1alpha1", tmp).validate(m)).isEmpty();
  }

  @Test
  @DisplayName("v1beta1 DGD passes the real Dynamo main CRD's v1beta1 schema (strict)")
  void v1beta1MatchesCrd() throws Exception {
    ObjectNode m = deployment("v1beta1", 4).manifest();
    assertThat(CrdSchemas.strict(CrdSchemas.MAIN, "v1beta1", tmp).validate(m)).isEmpty();
  }

  @Test
  @DisplayName("the strict CRD check does catch a field the API server would prune")
  void strictCheckBites() throws Exception {
    ObjectNode m = deployment("v1alpha1", 1).manifest();
    ((ObjectNode) m.get("spec")).put("gpuCount", 1);
    assertThat(CrdSchemas.strict(CrdSchemas.V090, "v1alpha1", tmp).validate(m))
        .anyMatch(p -> p.pointer().equals("/spec"));
  }

  @Test
  @DisplayName(
      "AICR's shape: Frontend + VllmDecodeWorker (replicas = workers, 1 GPU each, --model), pinned and tolerating")
  void shape() {
    ObjectNode m = deployment("v1alpha1", 4).manifest();
    JsonNode w = m.path("spec").path("services").path("VllmDecodeWorker");
    assertThat(w.path("componentType").asString()).isEqualTo("worker");
    assertThat(w.path("replicas").asInt()).isEqualTo(4);
    assertThat(w.path("resources").path("limits").path("gpu").asString()).isEqualTo("1");
    assertThat(w.path("envFromSecret").asString()).isEqualTo("hf-token-secret");
    assertThat(w.path("extraPodSpec").path("mainContainer").path("args").toString())
        .isEqualTo("[\"--model\",\"Qwen/Qwen3-0.6B\"]");
    for (String svc : List.of("Frontend", "VllmDecodeWorker")) {
      JsonNode pod = m.path("spec").path("services").path(svc).path("extraPodSpec");
      assertThat(pod.path("nodeSelector").path("kubernetes.io/hostname").asString())
          .isEqualTo("gpu-node-1");
      assertThat(pod.path("tolerations")).hasSize(2);
      assertThat(pod.path("tolerations").get(0).path("operator").asString()).isEqualTo("Exists");
      assertThat(pod.path("tolerations").get(1).path("value").asString())
          .isEqualTo("inference: \"yes\" # not a comment");
    }
    assertThat(m.path("metadata").path("labels").path("benchplan.dev/validate-run").asString())
        .isEqualTo(RUN.runId());
    // sent as JSON: a round trip keeps the odd taint value and the string "1" as they are
    JsonNode back = Json.JSON.readTree(Json.JSON.writeValueAsString(m));
    assertThat(back).isEqualTo(m);
  }

  @Test
  @DisplayName("validate reads its own DGD back: model, workers, roles (both forms)")
  void readsBack() {
    for (String v : List.of("v1alpha1", "v1beta1")) {
      DgdView view = DgdView.of(deployment(v, 8).manifest());
      assertThat(view.workerReplicas()).isEqualTo(8);
      assertThat(view.servedModels()).containsExactly("Qwen/Qwen3-0.6B");
      assertThat(view.withRole(DgdComponent.Role.FRONTEND))
          .extracting(c -> c.serviceName(view.name()))
          .containsExactly("benchplan-validate-frontend");
    }
  }

  @Test
  @DisplayName(
      "the apiVersion the cluster serves: v1alpha1 while served, v1beta1 when only that is")
  void apiVersionChoice() {
    assertThat(new DgdApi("nvidia.com", List.of("v1alpha1")).apiVersion())
        .isEqualTo("nvidia.com/v1alpha1");
    assertThat(new DgdApi("nvidia.com", List.of("v1beta1", "v1alpha1")).apiVersion())
        .isEqualTo("nvidia.com/v1alpha1");
    assertThat(new DgdApi("nvidia.com", List.of("v1beta1")).apiVersion())
        .isEqualTo("nvidia.com/v1beta1");
    assertThat(new DgdApi("nvidia.com", List.of()).installed()).isFalse();
  }
}
