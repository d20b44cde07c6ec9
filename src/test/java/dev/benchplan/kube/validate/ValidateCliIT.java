package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.kubetest.AiperfPodLog;
import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.testing.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The packaged launcher ({@code bin/benchplan validate}) against the real control plane, exactly as
 * a CI pipeline calls it. The transcripts are kept under {@code target/validate-cli/} (the README
 * section quotes them).
 */
@KubeTestEnv
class ValidateCliIT {
  static final Path TRANSCRIPTS = Path.of("target", "validate-cli");
  static String tag;
  @TempDir Path dir;

  record Run(int exit, String out, String err) {}

  @BeforeAll
  static void setUp(KubeTestContext kube) throws Exception {
    Assumptions.assumeTrue(
        Files.isRegularFile(Path.of("target", "benchplan.jar")),
        "needs the packaged jar (mvn verify builds it first)");
    tag = kube.namespace();
    if (Files.exists(TRANSCRIPTS)) {
      try (var files = Files.walk(TRANSCRIPTS)) {
        for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
    }
    Files.createDirectories(TRANSCRIPTS);
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
  }

  Run validate(KubeTestContext kube, String name, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(Path.of("bin", "benchplan").toAbsolutePath().toString(), "validate"));
    // the test control plane has no StorageClass: these runs test discovery, deployment and gating,
    // so the model-weights cache is off (its refusal without a class is ValidateServiceTest's)
    cmd.add("--no-model-cache");
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("KUBECONFIG", kube.cluster().kubeconfig().toString());
    pb.environment().remove("BENCHPLAN_AIPERF_INDEX_URL");
    Path out = dir.resolve(name + ".out");
    Path err = dir.resolve(name + ".err");
    pb.redirectOutput(out.toFile());
    pb.redirectError(err.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    Run r = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    Files.writeString(
        TRANSCRIPTS.resolve(name + ".txt"),
        "$ benchplan validate "
            + String.join(" ", args)
            + "\n--- exit "
            + r.exit()
            + " ---\n--- stdout ---\n"
            + r.out()
            + "--- stderr ---\n"
            + r.err(),
        StandardCharsets.UTF_8);
    return r;
  }

  static String export(double throughput, double ttftP99) throws Exception {
    ObjectNode e =
        (ObjectNode)
            Json.JSON.readTree(
                Files.readString(SharedData.require("aiperf/profile_export_aiperf.json")));
    ((ObjectNode) e.get("output_token_throughput")).put("avg", throughput);
    ((ObjectNode) e.get("time_to_first_token")).put("p99", ttftP99);
    return Json.JSON.writeValueAsString(e);
  }

  @Test
  @DisplayName(
      "auto-deploy through the launcher: text summary on stdout, progress on stderr, exit 0; JSON too")
  void autoDeploy(KubeTestContext kube) throws Exception {
    try (FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(
                dev.benchplan.kubetest.FakeNode.withGpus(tag + "-h100", 4)
                    .withLabel("benchplan.dev/validate-it", tag + "-h100")
                    .withLabel("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")))) {
      k.when(
          ValidatePipelineIT.aiperfPods(""),
          PodScript.replayLog(AiperfPodLog.withSummary(export(38367.2, 128.4), 0), 0));
      Path report = TRANSCRIPTS.resolve("auto-deploy");
      Path overlay =
          SharedData.require("aicr/pr641/recipes/overlays/h100-eks-ubuntu-inference-dynamo.yaml");
      Run r =
          validate(
              kube,
              "auto-deploy",
              "--recipe",
              overlay.toString(),
              "--namespace",
              kube.namespace(),
              "--node-selector",
              "benchplan.dev/validate-it=" + tag + "-h100",
              "--aiperf-version",
              "0.4.0",
              "--report-dir",
              report.toString());
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out())
          .contains("verdict: pass (exit 0)")
          .contains("concurrency 64 (16 per worker x 4 worker(s))")
          .contains("inference-throughput: 38367.2 tokens/sec (>= 5000, effective 4500): pass")
          .contains("inference-ttft-p99: 128.4 ms (<= 200, effective 220): pass");
      assertThat(r.err())
          .contains("validate [node-selection]")
          .contains("validate [readiness]")
          .contains("validate [cleanup]");
      // every JSON file validate wrote (its verdict, CTRF, and the run folder's plan, render
      // manifest, run record, verdict and DGD) against its schema
      assertThat(
              dev.benchplan.testing.JsonDocuments.assertFiles(
                  List.of("validate", "plan", "render", "run"), report))
          .isGreaterThanOrEqualTo(8);
      JsonNode ctrf = Json.JSON.readTree(Files.readString(report.resolve("ctrf-report.json")));
      // the gate's CTRF: one test per constraint and one for the error rate, all passed
      assertThat(ctrf.path("results").path("summary").path("failed").asInt()).isZero();
      assertThat(ctrf.path("results").path("summary").path("passed").asInt())
          .isEqualTo(ctrf.path("results").path("summary").path("tests").asInt())
          .isGreaterThanOrEqualTo(2);

      Run json =
          validate(
              kube,
              "auto-deploy-json",
              "--namespace",
              kube.namespace(),
              "--node-selector",
              "benchplan.dev/validate-it=" + tag + "-h100",
              "--aiperf-version",
              "0.4.0",
              "--report-dir",
              TRANSCRIPTS.resolve("auto-deploy-json").toString(),
              "--format",
              "json");
      assertThat(json.exit()).as(json.err()).isZero();
      JsonNode doc = dev.benchplan.testing.JsonDocuments.assertStdout("validate", json.out());
      assertThat(doc.path("verdict").asString()).isEqualTo("pass");
      assertThat(doc.path("deployment").path("workers").asInt()).isEqualTo(4);
      assertThat(doc.path("benchmark").path("concurrency").asInt()).isEqualTo(64);
    }
  }

  @Test
  @DisplayName(
      "two DGDs: exit 2 listing both; --dgd picks one, measured with the real export: fail, exit 1")
  void discovered(KubeTestContext kube) throws Exception {
    String ns = kube.createNamespace("two-dgds");
    // frontends and the AIPerf pod land on the first node (no GPU), each worker on its own GPU
    // node:
    // run's isolation preflight wants the measured DGD's nodes free of other GPU work
    try (FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(
                dev.benchplan.kubetest.FakeNode.withGpus(tag + "-cpu", 0),
                dev.benchplan.kubetest.FakeNode.withGpus(tag + "-gpu-a", 1),
                dev.benchplan.kubetest.FakeNode.withGpus(tag + "-gpu-b", 1)))) {
      k.when(
          ValidatePipelineIT.aiperfPods(ns),
          PodScript.replayLog(
              AiperfPodLog.withSummary(
                  Files.readString(SharedData.require("aiperf/profile_export_aiperf.json")), 0),
              0));
      for (String name : List.of("vllm-agg", "vllm-agg-b")) {
        ObjectNode doc =
            (ObjectNode)
                Json.YAML.readTree(
                    Files.readString(
                        SharedData.require(
                            "dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml")));
        ((ObjectNode) doc.get("metadata")).put("name", name).put("namespace", ns);
        kube.client()
            .genericKubernetesResources(FakeDynamoOperator.DGD)
            .inNamespace(ns)
            .resource(KubeDocuments.generic(kube.client(), doc))
            .create();
        kube.client()
            .genericKubernetesResources(FakeDynamoOperator.DGD)
            .inNamespace(ns)
            .withName(name)
            .waitUntilCondition(
                d ->
                    d != null
                        && d.getAdditionalProperties().get("status")
                            instanceof java.util.Map<?, ?> st
                        && "successful".equals(st.get("state")),
                60,
                TimeUnit.SECONDS);
      }
      Run ambiguous =
          validate(
              kube,
              "ambiguous",
              "--namespace",
              ns,
              "--aiperf-version",
              "0.4.0",
              "--report-dir",
              TRANSCRIPTS.resolve("ambiguous").toString());
      assertThat(ambiguous.exit()).as(ambiguous.err()).isEqualTo(2);
      assertThat(ambiguous.err())
          .contains(ns + "/vllm-agg/vllm-agg-frontend:8000/Qwen/Qwen3-0.6B")
          .contains(ns + "/vllm-agg-b/vllm-agg-b-frontend:8000/Qwen/Qwen3-0.6B");
      assertThat(TRANSCRIPTS.resolve("ambiguous").resolve("verdict.json")).doesNotExist();

      Run picked =
          validate(
              kube,
              "discovered-fail",
              "--namespace",
              ns,
              "--dgd",
              "vllm-agg-b",
              "--aiperf-version",
              "0.4.0",
              "--report-dir",
              TRANSCRIPTS.resolve("discovered-fail").toString());
      assertThat(picked.exit()).as(picked.err()).isEqualTo(1);
      assertThat(picked.out())
          .contains("verdict: fail (exit 1)")
          .contains("target: discovered DGD " + ns + "/vllm-agg-b")
          .contains("inference-throughput: 50.1 tokens/sec");
      assertThat(Files.readString(TRANSCRIPTS.resolve("discovered-fail").resolve("junit.xml")))
          .contains("<failure");
      var dgds = kube.client().genericKubernetesResources(FakeDynamoOperator.DGD).inNamespace(ns);
      assertThat(dgds.list().getItems()).hasSize(2);
      // gone before this test's nodes go, so the operator stand-in makes no pods for other tests'
      // nodes
      for (String name : List.of("vllm-agg", "vllm-agg-b")) {
        dgds.withName(name).delete();
        dgds.withName(name).waitUntilCondition(java.util.Objects::isNull, 60, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  @DisplayName("no AIPerf pin and no index: exit 2 before anything is created")
  void unresolvedVersion(KubeTestContext kube) throws Exception {
    try (FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(
                dev.benchplan.kubetest.FakeNode.withGpus(tag + "-nov", 1)
                    .withLabel("benchplan.dev/validate-it", tag + "-nov")))) {
      assertThat(k.nodes()).hasSize(1);
      Run r =
          validate(
              kube,
              "no-aiperf-version",
              "--namespace",
              kube.namespace(),
              "--node-selector",
              "benchplan.dev/validate-it=" + tag + "-nov",
              "--report-dir",
              dir.resolve("r").toString());
      assertThat(r.exit()).as(r.err()).isEqualTo(2);
      assertThat(r.err()).contains("AIPERF_VERSION_UNRESOLVED");
      assertThat(dir.resolve("r").resolve("verdict.json")).doesNotExist();
      assertThat(
              kube
                  .client()
                  .namespaces()
                  .withLabel("app.kubernetes.io/component", "validate")
                  .list()
                  .getItems()
                  .stream()
                  .filter(n -> n.getMetadata().getDeletionTimestamp() == null))
          .isEmpty();
    }
  }

  @Test
  @DisplayName(
      "an overlay that does not list the check: skip (exit 0) without touching the cluster")
  void skip(KubeTestContext kube) throws Exception {
    Path overlay = dir.resolve("overlay.yaml");
    Files.writeString(
        overlay,
        """
        kind: RecipeMetadata
        apiVersion: aicr.nvidia.com/v1alpha1
        metadata: {name: training-only}
        spec:
          validation:
            performance:
              checks: [nccl-all-reduce-bw]
        """);
    Run r =
        validate(
            kube,
            "skip",
            "--recipe",
            overlay.toString(),
            "--report-dir",
            dir.resolve("r").toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("verdict: skip (exit 0)");
  }
}
