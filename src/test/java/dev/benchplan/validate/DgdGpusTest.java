package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class DgdGpusTest {
  static JsonNode yaml(String text) throws Exception {
    return Json.YAML.readTree(text);
  }

  @Test
  @DisplayName(
      "v1alpha1 disaggregated: prefill and decode workers alike, GPUs per replica x replicas; the frontend"
          + " counts nothing")
  void disaggregated() throws Exception {
    GpuCount c =
        DgdGpus.count(
            yaml(
                """
        apiVersion: nvidia.com/v1alpha1
        metadata: {name: d, namespace: n}
        spec:
          services:
            Frontend: {componentType: frontend, replicas: 1}
            VllmPrefillWorker:
              componentType: worker
              subComponentType: prefill
              replicas: 2
              resources: {limits: {gpu: "2"}}
            VllmDecodeWorker:
              componentType: worker
              subComponentType: decode
              replicas: 3
              resources: {requests: {gpu: "1"}, limits: {gpu: "1"}}
        """));
    assertThat(c.gpus()).isEqualTo(7);
    assertThat(c.source())
        .isEqualTo("dgd: VllmPrefillWorker 2 x 2 replica(s) + VllmDecodeWorker 1 x 3 replica(s)");
  }

  @Test
  @DisplayName(
      "v1beta1: nvidia.com/gpu on the containers; the default deployment's manifest counts 1 per worker")
  void v1beta1() throws Exception {
    DefaultDeployment d =
        new DefaultDeployment(
            ValidateRun.start(java.time.Instant.now()),
            "nvidia.com/v1beta1",
            "ns",
            "Qwen/Qwen3-8B",
            4,
            "node-a",
            java.util.List.of(),
            ValidateOptions.DEFAULT_RUNTIME_IMAGE,
            null,
            null);
    assertThat(DgdGpus.count(d.manifest()).gpus()).isEqualTo(4);
    DefaultDeployment a =
        new DefaultDeployment(
            ValidateRun.start(java.time.Instant.now()),
            "nvidia.com/v1alpha1",
            "ns",
            "Qwen/Qwen3-8B",
            8,
            "node-a",
            java.util.List.of(),
            ValidateOptions.DEFAULT_RUNTIME_IMAGE,
            null,
            null);
    assertThat(DgdGpus.count(a.manifest()).gpus()).isEqualTo(8);
    assertThat(DgdGpus.images(a.manifest())).containsExactly(ValidateOptions.DEFAULT_RUNTIME_IMAGE);
  }

  @Test
  @DisplayName("GPUs from DRA claims: no per-GPU figure, and the note says so")
  void dra() throws Exception {
    GpuCount c =
        DgdGpus.count(
            yaml(
                """
        apiVersion: nvidia.com/v1beta1
        metadata: {name: d, namespace: n}
        spec:
          components:
            - {name: Frontend, type: frontend}
            - name: VllmWorker
              type: worker
              replicas: 4
              podTemplate:
                spec:
                  resourceClaims: [{name: gpu, resourceClaimTemplateName: single-gpu}]
                  containers:
                    - name: main
                      image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.2
                      resources: {claims: [{name: gpu}]}
        """));
    assertThat(c.known()).isFalse();
    assertThat(c.note())
        .contains("VllmWorker")
        .contains("DRA resource claims")
        .contains("no per-GPU figure");
  }

  @Test
  @DisplayName("no GPU request at all: no per-GPU figure")
  void none() throws Exception {
    GpuCount c =
        DgdGpus.count(
            yaml(
                """
        apiVersion: nvidia.com/v1alpha1
        metadata: {name: d}
        spec: {services: {W: {componentType: worker, replicas: 2}}}
        """));
    assertThat(c.gpus()).isNull();
    assertThat(c.note()).contains("request no nvidia.com/gpu");
  }
}
