package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.kubetest.RealEngine;
import dev.benchplan.kubetest.ServiceProxy;
import dev.benchplan.testing.Coreutils;
import dev.benchplan.testing.Launcher;
import dev.benchplan.validate.ValidateRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code validate} auto-deploy on the real engine, through the packaged CLI: validate deploys its
 * default DGD (the operator stand-in makes it successful and creates its frontend Service, port
 * 8000), plans, renders and runs the benchmark Job, whose container the kubelet stand-in executes
 * with AIPerf 0.11.0 in its chroot; the frontend Service's port reaches the tier's llama-server
 * through a {@link ServiceProxy} (kube-proxy's part). The model is the tier's tiny model, named by
 * {@code --model} (validate names the served model and the tokenizer after it: the chroot's hub
 * cache holds that tokenizer), the load sized by validate's own options. Real numbers vary: the
 * exit code agrees with the verdict document, the run directory holds AIPerf 0.11's real files and
 * verifies with {@code sha256sum -c}, and validate removed its namespace and DGD.
 *
 * <p>The verdict is "fail" on any machine of this tier (validate's default constraints are an
 * H100's), and part of its 1,000 requests fail: at temperature 0 (validate's) the random tiny
 * model's continuation of some prompts is only byte tokens of an unfinished UTF-8 sequence, which
 * llama-server's stream never sends as content, and AIPerf rightly counts those responses as errors
 * (8 of 30 sample prompts streamed no content at 4 output tokens, none at 32, which costs the
 * server eight times the tokens).
 */
@KubeTestEnv
@Tag("real-engine")
class RealEngineValidateIT {
  /** A loopback address of the frontend Service's own (kube-proxy's ClusterIP). */
  private static final String FRONTEND_ADDRESS = "127.0.37.1";

  private static final String FRONTEND_SERVICE = ValidateRun.DGD_NAME + "-frontend";

  // kept when the test fails: the pods' work folders hold AIPerf's own log and artifacts
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path work;

  @Test
  @DisplayName(
      "validate auto-deploy: the default DGD's frontend is the real llama-server, the Job real AIPerf"
          + " 0.11; verdict, verified run directory, namespace and DGD removed")
  void autoDeploy(KubeTestContext kube) throws Exception {
    RealEngine engine = RealEngine.require();
    Instant t0 = Instant.now();
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
    String tag = kube.namespace();
    PodExecution exec =
        PodExecution.realEngine(work.resolve("pods"), engine)
            .withServiceAddress(FRONTEND_SERVICE, FRONTEND_ADDRESS)
            // the Job would fetch the tokenizer validate names (the model's id) from the hub into
            // its HF_HOME; the stand-in node has no hub: the image's hub cache stands in for it
            .withEnv("HF_HUB_CACHE", "/root/.cache/huggingface/hub")
            // and offline, as an air-gapped image is: the chroot's huggingface_hub, its connection
            // refused, fails with "the client has been closed" before it looks in the cache (and
            // AIPerf's offline path refuses RealEngineIT's tokenizer directory: not set there)
            .withEnv("HF_HUB_OFFLINE", "1");
    Path report = work.resolve("report");
    Launcher.Run r;
    ServiceProxy proxy = ServiceProxy.start(FRONTEND_ADDRESS, 8000, engine.endpointUrl());
    try (FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(
                FakeNode.withGpus(tag + "-h100", 1)
                    .withLabel("benchplan.dev/real-engine-validate", tag)
                    .withLabel("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")))) {
      k.when(
          p ->
              p.getMetadata().getLabels() != null
                  && p.getMetadata().getLabels().containsKey("job-name"),
          PodScript.execute(exec));
      r =
          Launcher.run(
              Path.of("bin", "benchplan").toAbsolutePath(),
              Files.createDirectories(work.resolve("scratch")),
              Map.of("KUBECONFIG", kube.cluster().kubeconfig().toString()),
              Duration.ofMinutes(20),
              List.of("SOURCE_DATE_EPOCH", "BENCHPLAN_AIPERF_INDEX_URL"),
              "validate",
              // the test control plane has no StorageClass
              "--no-model-cache",
              "--model",
              engine.model(),
              "--node-selector",
              "benchplan.dev/real-engine-validate=" + tag,
              // one worker (one GPU) at 4 (llama-server's slots): validate's floor of 1,000
              // requests, each 16 tokens in and 4 out, is the tier's largest run but short
              "--concurrency-per-worker",
              "4",
              "--isl",
              "16",
              "--osl",
              "4",
              "--aiperf-version",
              engine.aiperfVersion(),
              "--report-dir",
              report.toString(),
              "--format",
              "json");
    } finally {
      proxy.close();
    }
    Duration wall = Duration.between(t0, Instant.now());
    JsonNode doc = Json.JSON.readTree(r.out());
    String verdict = doc.path("verdict").asString();
    System.err.println(
        "RealEngineValidateIT: "
            + wall.toSeconds()
            + " s, verdict "
            + verdict
            + ", exit "
            + r.exit()
            + "\n"
            + r.out());
    // one JSON document on stdout; the exit code is the verdict's
    assertThat(r.exit())
        .as(r.err() + r.out())
        .isEqualTo("pass".equals(verdict) ? 0 : "fail".equals(verdict) ? 1 : 3);
    if (!"pass".equals(verdict) && !"fail".equals(verdict)) {
      // a real run on a shared machine may be judged client bound, and nothing else
      assertThat(verdict).as(r.err() + r.out()).isEqualTo("error");
      assertThat(r.out()).as(r.err()).contains("client_bound");
    }
    assertThat(doc.path("deployment").path("workers").asInt()).isEqualTo(1);
    assertThat(doc.path("benchmark").path("concurrency").asInt()).isEqualTo(4);
    JsonNode written = Json.JSON.readTree(Files.readAllBytes(report.resolve("verdict.json")));
    assertThat(written.path("verdict").asString()).isEqualTo(verdict);

    // the run directory: AIPerf 0.11's own files from the real engine, verified by coreutils
    List<Path> manifests;
    try (Stream<Path> s = Files.walk(report)) {
      manifests = s.filter(f -> f.getFileName().toString().equals("artifacts.sha256")).toList();
    }
    assertThat(manifests).as("run directories under " + report).hasSize(1);
    Path runDir = manifests.get(0).getParent();
    Coreutils.sha256sumCheck(runDir);
    List<Path> records;
    try (Stream<Path> s = Files.walk(runDir.resolve("aiperf"))) {
      records = s.filter(f -> f.getFileName().toString().equals("profile_export.jsonl")).toList();
    }
    assertThat(records).hasSize(1);
    Path dir = records.get(0).getParent();
    assertThat(dir.resolve("inputs.json")).exists();
    JsonNode summary =
        Json.JSON.readTree(Files.readAllBytes(dir.resolve("profile_export_aiperf.json")));
    assertThat(summary.path("aiperf_version").asString()).isEqualTo(engine.aiperfVersion());
    assertThat(summary.at("/input_config/models/items/0/name").asString())
        .isEqualTo(engine.model());
    // the real llama-server answered through the Service: requests with content were measured
    // (some of validate's 100 prompts get none at 4 output tokens: see the class comment)
    assertThat(summary.at("/request_count/avg").asDouble()).as(summary.toString()).isPositive();
    JsonNode first = Json.JSON.readTree(Files.readAllLines(records.get(0)).get(0));
    assertThat(first.at("/metadata/benchmark_phase").asString()).isEqualTo("profiling");
    assertThat(Files.readAllLines(records.get(0))).hasSizeGreaterThanOrEqualTo(1000);
    JsonNode run = Json.JSON.readTree(Files.readAllBytes(runDir.resolve("run.json")));
    assertThat(run.at("/aiperf/export_version").asString()).isEqualTo(engine.aiperfVersion());

    // cleaned up: what validate created deleted and confirmed gone (the namespace last), no
    // validate namespace nor DGD left on the control plane
    JsonNode cleanup = doc.path("cleanup");
    assertThat(cleanup.path("kept").asBoolean()).as(cleanup.toString()).isFalse();
    assertThat(cleanup.path("problems")).as(cleanup.toString()).isEmpty();
    assertThat(cleanup.path("deleted").toString()).as(cleanup.toString()).contains("Namespace");
    assertThat(
            kube
                .client()
                .namespaces()
                .withLabel(ValidateRun.COMPONENT, "validate")
                .list()
                .getItems()
                .stream()
                .map(n -> n.getMetadata().getName())
                .toList())
        .as("validate namespaces left")
        .isEmpty();
    assertThat(
            kube
                .client()
                .genericKubernetesResources(FakeDynamoOperator.DGD)
                .inAnyNamespace()
                .list()
                .getItems()
                .stream()
                .filter(d -> ValidateRun.DGD_NAME.equals(d.getMetadata().getName()))
                .toList())
        .as("validate DGDs left")
        .isEmpty();
  }
}
