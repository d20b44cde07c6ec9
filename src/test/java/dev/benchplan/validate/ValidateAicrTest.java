package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.gate.Status;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * validate with today's AICR overlays, on the fake cluster: inputs, load, image, GPUs, floor, CRD.
 */
class ValidateAicrTest {
  static final SchemaValidator SCHEMA = SchemaValidator.bundled("validate-verdict.schema.json");

  @TempDir Path dir;
  final FakeValidateCluster cluster = new FakeValidateCluster();
  final StringWriter errText = new StringWriter();
  final List<ScriptedRunner> runners = new ArrayList<>();

  /** Every verdict.json written matches its schema: the real output, with the new fields. */
  @AfterEach
  void verdictMatchesSchema() throws Exception {
    Path written = dir.resolve("report/verdict.json");
    if (Files.exists(written)) {
      assertThat(SCHEMA.validate(Json.JSON.readTree(Files.readString(written)))).isEmpty();
    }
  }

  ValidateService service(double throughput, double ttft) {
    ScriptedRunner r = ScriptedRunner.gate(cluster, throughput, ttft);
    runners.add(r);
    return new ValidateService(
        o -> cluster, r, Clock.systemUTC(), new PrintWriter(errText, true), a -> () -> {}, "test");
  }

  BenchmarkRunner.BenchmarkRequest seen() {
    return runners.get(runners.size() - 1).request.get();
  }

  /** Options for an overlay newer than benchplan: GB200's inference-something-new is allowed. */
  ValidateOptions options(Path recipe, InputFlags flags) {
    return ValidateOptions.builder(dir.resolve("report"))
        .recipe(recipe)
        .aiperfVersion("0.4.0")
        .flags(flags)
        .allowUnknownConstraints(true)
        .build();
  }

  static InputFlags noFlags() {
    return new InputFlags(
        null, false, false, false, null, null, InputFlags.Defaults.BENCHPLAN, Map.of());
  }

  Path overlay(String platformVersion, String... constraints) throws Exception {
    Path p = dir.resolve("overlay.yaml");
    Files.writeString(
        p,
        "kind: RecipeMetadata\nspec:\n  componentRefs:\n    - name: dynamo-platform\n"
            + (platformVersion == null ? "" : "      version: \"" + platformVersion + "\"\n")
            + "  validation:\n    performance:\n      checks: [inference-perf]\n      constraints:\n"
            + String.join(
                "\n", java.util.Arrays.stream(constraints).map(c -> "        - " + c).toList())
            + "\n");
    return p;
  }

  static final String[] GB200 = {
    "{name: inference-model, value: Qwen/Qwen3-8B}",
    "{name: inference-concurrency-per-gpu, value: \"256\"}",
    "{name: inference-routing-mode, value: dynamo-router}",
    "{name: inference-model-cache-storage-class, value: fast-ssd}",
    "{name: inference-throughput, value: \">= 50000\"}",
    "{name: inference-ttft-p99, value: \"<= 2000\"}",
    "{name: inference-something-new, value: \"1\"}"
  };

  @Test
  @DisplayName(
      "today's GB200-style overlay, auto-deploy on a node with 6 of 8 GPUs free: Qwen3-8B at 256 x 6 ="
          + " 1536, 12,288 requests, runtime 1.2.1 from componentRefs, floor 50000 scaled to 37500, every input sourced")
  void overlayOnPartlyOccupiedNode() throws Exception {
    cluster.nodes.add(
        new GpuNode(
            "gpu-a", Map.of("kubernetes.io/hostname", "gpu-a"), 8, 2, false, true, List.of()));
    ValidateResult r = service(40_000, 900).execute(options(overlay("1.2.1", GB200), noFlags()));
    assertThat(r.exitCode())
        .as(errText.toString())
        .isZero(); // 40000 passes the scaled floor, fails the unscaled one
    BenchmarkRunner.BenchmarkRequest req = seen();
    assertThat(req.shape().concurrency()).isEqualTo(1536);
    assertThat(req.shape().requestCount()).isEqualTo(12_288);
    assertThat(req.shape().warmupRequests()).isEqualTo(1536);
    assertThat(req.constraints().throughputFloor().threshold()).isEqualByComparingTo("37500");
    assertThat(req.inputs().routingMode()).isEqualTo("dynamo-router");
    assertThat(req.inputs().modelCacheStorageClass()).isEqualTo("fast-ssd");
    JsonNode worker = cluster.lastManifest.path("spec").path("services").path("VllmDecodeWorker");
    assertThat(worker.path("extraPodSpec").path("mainContainer").path("args").toString())
        .contains("Qwen/Qwen3-8B");
    assertThat(worker.path("extraPodSpec").path("mainContainer").path("image").asString())
        .isEqualTo("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.2.1-cuda13");

    JsonNode v = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    JsonNode in = v.path("inputs");
    assertThat(in.path("model").path("source").asString()).isEqualTo("recipe");
    assertThat(in.path("concurrency_per_gpu").path("value").asInt()).isEqualTo(256);
    assertThat(in.path("concurrency_per_gpu").path("source").asString()).isEqualTo("recipe");
    assertThat(in.path("routing_mode").path("source").asString()).isEqualTo("recipe");
    assertThat(in.path("model_cache_storage_class").path("value").asString()).isEqualTo("fast-ssd");
    assertThat(in.path("runtime_image").path("source").asString()).isEqualTo("recipe");
    assertThat(in.path("dynamo_platform_version").path("value").asString()).isEqualTo("1.2.1");
    assertThat(in.path("request_count").path("value").asInt()).isEqualTo(12_288);
    assertThat(in.path("request_count").path("source").asString()).isEqualTo("aicr");
    assertThat(in.path("request_count").path("origin").asString()).isEqualTo("max(1000, 8 x 1536)");
    assertThat(in.path("warmup_requests").path("value").asInt()).isEqualTo(1536);
    assertThat(in.path("dataset_entries").path("value").asInt()).isEqualTo(100);
    assertThat(in.path("seed").path("value").asInt()).isEqualTo(100);
    assertThat(in.path("temperature").path("value").asInt()).isZero();
    assertThat(v.path("floor_scaling").path("scaled_floor").asInt()).isEqualTo(37_500);
    assertThat(v.path("floor_scaling").path("free_gpus").asInt()).isEqualTo(6);
    assertThat(v.path("floor_scaling").path("node_gpus").asInt()).isEqualTo(8);
    assertThat(v.path("constraints").get(0).path("threshold").asInt()).isEqualTo(37_500);
    assertThat(v.path("measured").path("gpu_count").asInt()).isEqualTo(6);
    assertThat(v.path("measured").path("output_token_throughput_per_gpu").asDouble())
        .isEqualTo(6666.67);
    assertThat(v.path("measured").path("gpu_count_source").asString())
        .contains("default deployment");
    assertThat(v.path("benchmark").path("concurrency_per_gpu").asInt()).isEqualTo(256);
    assertThat(v.path("benchmark").path("gpus").asInt()).isEqualTo(6);
    assertThat(v.path("warnings").toString()).contains("inference-something-new");
    assertThat(v.path("warnings").toString()).doesNotContain("calibrated");
    assertThat(cluster.calls).doesNotContain("platformVersion"); // the recipe named the version
  }

  @Test
  @DisplayName(
      "thresholds without their inputs: benchplan's model and load are used, and the verdict says AICR"
          + " would use others; the image follows the cluster's operator version")
  void calibrationWarning() throws Exception {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 4, 0, false, true, List.of()));
    cluster.platform =
        new RuntimeImage.PlatformVersion("1.0.2", "operator Deployment dynamo-system/op");
    ValidateResult r =
        service(60_000, 900)
            .execute(
                options(
                    overlay(null, "{name: inference-throughput, value: \">= 50000\"}"), noFlags()));
    assertThat(r.exitCode()).isZero();
    ValidateVerdict v = r.verdictDocument();
    assertThat(v.warnings().toString())
        .contains(
            "this run used Qwen/Qwen3-0.6B (default) at 16 per worker"
                + " (default): AICR would use the others");
    assertThat(v.inputs().get("runtime_image").value())
        .isEqualTo("nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.0.2-cuda13");
    assertThat(v.inputs().get("runtime_image").source()).isEqualTo("cluster");
    assertThat(seen().shape().concurrency()).isEqualTo(64);
    assertThat(v.floorScaling()).isNull();
  }

  @Test
  @DisplayName(
      "the recipe names dynamo-platform but the DGD CRD is absent: exit 3 at crd-check, not a skip")
  void crdAbsentWithDynamo() throws Exception {
    cluster.api = new DgdApi("nvidia.com", List.of());
    ValidateResult r = service(1, 1).execute(options(overlay("1.2.1", GB200), noFlags()));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdict()).isEqualTo(Status.ERROR);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("crd-check");
    assertThat(r.verdictDocument().reason())
        .isEqualTo(
            dir.resolve("overlay.yaml")
                + " lists dynamo-platform in spec.componentRefs, but the DynamoGraphDeployment CRD"
                + " (dynamographdeployments.nvidia.com) is not installed in the cluster: the platform"
                + " is missing or broken");
  }

  @Test
  @DisplayName("componentRefs without dynamo-platform: skip, the cluster never contacted")
  void noDynamoInRecipe() throws Exception {
    Path p = dir.resolve("o.yaml");
    Files.writeString(
        p,
        "kind: RecipeMetadata\nspec:\n  componentRefs: [{name: gpu-operator}]\n  validation:\n"
            + "    performance: {checks: [inference-perf], constraints: [{name: inference-throughput, value: \">= 1\"}]}\n");
    ValidateService s =
        new ValidateService(
            o -> {
              throw new AssertionError("must not connect");
            },
            ScriptedRunner.gate(cluster, 1, 1),
            Clock.systemUTC(),
            new PrintWriter(errText),
            a -> () -> {},
            "t");
    ValidateResult r = s.execute(options(p, noFlags()));
    assertThat(r.verdict()).isEqualTo(Status.SKIP);
    assertThat(r.verdictDocument().reason())
        .isEqualTo(
            p
                + ": spec.componentRefs does not include dynamo-platform: no Dynamo platform to"
                + " validate");
  }

  @Test
  @DisplayName(
      "an existing DGD on DRA claims: no per-GPU figure in the verdict, and a per-GPU input is exit 2")
  void draDgd() throws Exception {
    cluster.dgds.add(ValidateServiceTest.existing("team-a", "vllm-agg", 2));
    cluster.documents.put(
        "team-a/vllm-agg",
        (tools.jackson.databind.node.ObjectNode)
            Json.YAML.readTree(
                """
        apiVersion: nvidia.com/v1alpha1
        metadata: {name: vllm-agg, namespace: team-a}
        spec:
          services:
            Frontend: {componentType: frontend}
            VllmDecodeWorker:
              componentType: worker
              replicas: 2
              extraPodSpec:
                resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
                mainContainer: {image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"}
        """));
    // per worker: runs, the verdict says why there is no per-GPU figure
    ValidateResult ok = service(6000, 100).execute(options(null, noFlags()));
    assertThat(ok.exitCode()).isZero();
    assertThat(ok.verdictDocument().gpus().count()).isNull();
    assertThat(ok.verdictDocument().gpus().note())
        .isEqualTo("the GPUs of VllmDecodeWorker come from DRA resource claims: no per-GPU figure");
    assertThat(ok.verdictDocument().measured().outputTokenThroughputPerGpu()).isNull();

    // per GPU: exit 2 before anything is created, nothing written
    Path report = dir.resolve("report");
    try (var walk = Files.walk(report)) {
      for (Path x : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    }
    InputFlags perGpu = new InputFlags(8, false, false, false, null, null, null, Map.of());
    assertThatThrownBy(() -> service(6000, 100).execute(options(null, perGpu)))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "--concurrency-per-gpu: a per-GPU concurrency (8) needs a GPU count, but"
                + " team-a/vllm-agg: the GPUs of VllmDecodeWorker come from DRA resource claims: no"
                + " per-GPU figure; give --concurrency-per-worker instead")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    assertThat(report).doesNotExist();
  }

  @Test
  @DisplayName(
      "an existing DGD with GPUs: per-GPU throughput from its workers; a runtime older than the cluster's"
          + " platform is a warning")
  void existingWithGpus() throws Exception {
    cluster.dgds.add(ValidateServiceTest.existing("team-a", "vllm-agg", 2));
    cluster.platform =
        new RuntimeImage.PlatformVersion("1.0.2", "operator Deployment dynamo-system/op");
    cluster.documents.put(
        "team-a/vllm-agg",
        (tools.jackson.databind.node.ObjectNode)
            Json.YAML.readTree(
                """
        apiVersion: nvidia.com/v1alpha1
        metadata: {name: vllm-agg, namespace: team-a}
        spec:
          services:
            Frontend: {componentType: frontend}
            VllmDecodeWorker:
              componentType: worker
              replicas: 2
              resources: {limits: {gpu: "2"}}
              extraPodSpec: {mainContainer: {image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.9.0"}}
        """));
    ValidateResult r =
        service(8000, 100)
            .execute(
                options(null, new InputFlags(4, false, false, false, null, null, null, Map.of())));
    assertThat(r.exitCode()).isZero();
    assertThat(seen().shape().concurrency()).isEqualTo(16); // 4 per GPU x 4 GPUs
    ValidateVerdict v = r.verdictDocument();
    assertThat(v.measured().gpuCount()).isEqualTo(4);
    assertThat(v.measured().outputTokenThroughputPerGpu()).isEqualByComparingTo("2000");
    assertThat(v.measured().gpuCountSource()).isEqualTo("dgd: VllmDecodeWorker 2 x 2 replica(s)");
    assertThat(v.warnings().toString())
        .contains("vllm-runtime:0.9.0, older than the Dynamo platform 1.0.2");
  }

  @Test
  @DisplayName("with an existing DGD, a recipe model it does not serve is exit 2 naming both")
  void modelMismatch() throws Exception {
    cluster.dgds.add(ValidateServiceTest.existing("team-a", "vllm-agg", 1));
    assertThatThrownBy(() -> service(1, 1).execute(options(overlay("1.2.1", GB200), noFlags())))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            dir.resolve("overlay.yaml")
                + ": /spec/validation/performance/constraints/0 (inference-model):"
                + " DynamoGraphDeployment team-a/vllm-agg serves Qwen/Qwen3-0.6B, not"
                + " Qwen/Qwen3-8B")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    assertThat(dir.resolve("report")).doesNotExist();
  }

  @Test
  @DisplayName("gateway-epp: exit 2, not supported yet, the cluster never contacted")
  void gatewayEpp() throws Exception {
    ValidateService s =
        new ValidateService(
            o -> {
              throw new AssertionError("must not connect");
            },
            ScriptedRunner.gate(cluster, 1, 1),
            Clock.systemUTC(),
            new PrintWriter(errText),
            a -> () -> {},
            "t");
    assertThatThrownBy(
            () ->
                s.execute(
                    options(
                        overlay(
                            "1.2.1",
                            "{name: inference-routing-mode, value: gateway-epp}",
                            "{name: inference-throughput, value: \">= 1\"}"),
                        noFlags())))
        .hasMessage(
            dir.resolve("overlay.yaml")
                + ": /spec/validation/performance/constraints/0 (inference-routing-mode):"
                + " routing-mode gateway-epp is not supported yet: use dynamo-router")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    assertThat(dir.resolve("report")).doesNotExist();
  }

  @Test
  @DisplayName(
      "issue 36 item 6: without --allow-unknown-constraints an unknown inference-* name is exit 2 before"
          + " anything is deployed, naming the known names")
  void unknownInferenceNameRefused() throws Exception {
    cluster.nodes.add(
        new GpuNode(
            "gpu-a", Map.of("kubernetes.io/hostname", "gpu-a"), 8, 0, false, true, List.of()));
    ValidateOptions strict =
        ValidateOptions.builder(dir.resolve("report"))
            .recipe(overlay("1.2.1", GB200))
            .aiperfVersion("0.4.0")
            .flags(noFlags())
            .build();
    assertThatThrownBy(() -> service(40_000, 900).execute(strict))
        .isInstanceOfSatisfying(
            ValidateStepException.class, e -> assertThat(e.exitCode()).isEqualTo(2))
        .hasMessage(
            dir.resolve("overlay.yaml")
                + ": /spec/validation/performance/constraints/6/name: unknown inference constraint"
                + " name 'inference-something-new': expected one of inference-throughput,"
                + " inference-ttft-p99, inference-throughput-per-gpu, inference-model,"
                + " inference-concurrency-per-gpu, inference-routing-mode,"
                + " inference-model-cache-storage-class, or <metric>-<stat> (e.g."
                + " time_to_first_token-p95); an overlay newer than benchplan:"
                + " --allow-unknown-constraints");
    assertThat(cluster.lastManifest).isNull();
  }
}
