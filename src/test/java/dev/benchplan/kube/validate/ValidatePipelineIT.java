package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.gate.Status;
import dev.benchplan.json.Json;
import dev.benchplan.kubetest.AiperfPodLog;
import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.testing.SharedData;
import dev.benchplan.validate.AiperfBenchmarkRunner;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.ValidateOptions;
import dev.benchplan.validate.ValidateResult;
import dev.benchplan.validate.ValidateService;
import dev.benchplan.validate.ValidateTimeouts;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * validate end to end on the real control plane: discovery or the default DGD (operator stand-in),
 * then the project's real plan, render and run — the real Job controller creates the AIPerf pod,
 * the kubelet stand-in replays an AIPerf log built from the real export — the gate, the reports and
 * the cleanup.
 */
@KubeTestEnv
class ValidatePipelineIT {
  static String tag;
  @TempDir Path dir;

  @BeforeAll
  static void setUp(KubeTestContext kube) {
    tag = kube.namespace();
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
  }

  /** One kubelet stand-in with one node for this test; AIPerf pods run {@code aiperf}. */
  static FakeKubelet kubelet(KubeTestContext kube, String node, int gpus, PodScript aiperf) {
    FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(FakeNode.withGpus(node, gpus).withLabel("benchplan.dev/validate-it", node)));
    k.when(aiperfPods(""), aiperf);
    return k;
  }

  /** The real AIPerf export with the two gated values replaced. */
  static String export(double throughput, double ttftP99) throws Exception {
    ObjectNode e =
        (ObjectNode)
            Json.JSON.readTree(
                Files.readString(SharedData.require("aiperf/profile_export_aiperf.json")));
    ((ObjectNode) e.get("output_token_throughput")).put("avg", throughput);
    ((ObjectNode) e.get("time_to_first_token")).put("p99", ttftP99);
    return Json.JSON.writeValueAsString(e);
  }

  /** AIPerf Job pods of validate runs (the Job controller labels them with job-name). */
  static Predicate<Pod> aiperfPods(String namespacePrefix) {
    return p ->
        p.getMetadata().getLabels() != null
            && p.getMetadata().getLabels().containsKey("job-name")
            && p.getMetadata().getNamespace().startsWith(namespacePrefix);
  }

  static ValidateService realService(KubernetesClient client, StringWriter err) {
    KubeValidateCluster cluster =
        new KubeValidateCluster(client, "kube-test-env", DgdApi.GROUP, false);
    return new ValidateService(
        o -> cluster,
        new AiperfBenchmarkRunner(
            hooks -> dev.benchplan.kube.run.KubeRunServices.using(client, hooks),
            Clock.systemUTC(),
            Map.of()),
        Clock.systemUTC(),
        new PrintWriter(err, true),
        r -> () -> {},
        "it");
  }

  static ValidateOptions options(
      KubeTestContext kube, String selectorTag, Path reportDir, ValidateTimeouts t) {
    return ValidateOptions.builder(reportDir)
        .namespace(kube.namespace())
        .nodeSelector(Map.of("benchplan.dev/validate-it", selectorTag))
        .aiperfVersion("0.4.0")
        .timeouts(t)
        .build();
  }

  static JsonNode plan(ValidateResult r) throws Exception {
    return Json.JSON.readTree(
        Files.readString(Path.of(r.verdictDocument().benchmark().planPath())));
  }

  @Test
  @DisplayName(
      "auto-deploy on 4 free GPUs, plan + render + run + gate pass: reports, evidence kept, nothing left")
  void autoDeployPasses(KubeTestContext kube) throws Exception {
    try (FakeKubelet gpus =
        kubelet(
            kube,
            tag + "-g4",
            4,
            PodScript.replayLog(AiperfPodLog.withSummary(export(6123.4, 150.5), 0), 0)
                .after(Duration.ofMillis(500)))) {
      assertThat(gpus.nodes()).hasSize(1);
      StringWriter err = new StringWriter();
      Path report = dir.resolve("report");
      ValidateResult r =
          realService(kube.client(), err)
              .execute(
                  options(
                      kube,
                      tag + "-g4",
                      report,
                      ValidateItSupport.fast().withEndpointReady(Duration.ofSeconds(90))));
      assertThat(r.exitCode()).as(err.toString()).isZero();
      assertThat(r.verdict()).isEqualTo(Status.PASS);

      JsonNode plan = plan(r);
      assertThat(plan.path("experiment").path("concurrency").toString()).isEqualTo("[64]");
      assertThat(plan.path("experiment").path("request_count").asInt()).isEqualTo(1000);
      assertThat(plan.path("experiment").path("warmup_requests").asInt()).isEqualTo(64);
      assertThat(plan.path("experiment").path("measurement_limit_s").asInt()).isEqualTo(1800);
      assertThat(plan.path("workload").path("synthetic").toString())
          .contains("\"isl\":128")
          .contains("\"osl\":128")
          .contains("\"ignore_eos\":true");
      assertThat(plan.path("endpoint").path("streaming").asBoolean()).isTrue();
      assertThat(plan.path("aiperf").path("version").asString()).isEqualTo("0.4.0");
      assertThat(plan.path("deployment").path("smoke_test").toString())
          .contains("in_cluster_readiness");
      assertThat(plan.path("deployment").path("frontend_service").asString())
          .isEqualTo("benchplan-validate-frontend");
      assertThat(plan.path("objectives").path("gates").toString())
          .contains("inference-throughput")
          .contains("inference-ttft-p99");

      String perf = Files.readString(Path.of(r.verdictDocument().benchmark().perfYaml()));
      assertThat(perf).contains("name: BENCHPLAN_MODEL_WAIT_SECONDS").contains("value: \"90\"");
      assertThat(perf).containsPattern("- --concurrency\\s+- \"?64\"?");

      Path runDir = Path.of(r.verdictDocument().benchmark().runDir());
      assertThat(runDir.resolve("run.json")).exists();
      assertThat(r.verdictDocument().measured().outputTokenThroughput().doubleValue())
          .isEqualTo(6123.4);
      JsonNode ctrf = Json.JSON.readTree(Files.readString(report.resolve("ctrf-report.json")));
      assertThat(ctrf.path("results").path("tests").get(0).path("message").asString())
          .contains("output_token_throughput avg 6123.4 tokens/sec");
      assertThat(ctrf.path("results").path("tests").get(1).path("message").asString())
          .contains("time_to_first_token p99 150.5 ms");
      assertThat(Files.readString(report.resolve("junit.xml")))
          .doesNotContain("<failure")
          .doesNotContain("<error");
      // run deletes its own Job and ConfigMaps; validate's cleanup finds them gone and removes the
      // rest
      assertThat(r.verdictDocument().cleanup().created().toString())
          .contains("Job ")
          .contains("ConfigMap ")
          .contains("DynamoGraphDeployment ")
          .contains("Namespace ");
      assertThat(r.verdictDocument().cleanup().alreadyGone().toString())
          .contains("Job ")
          .contains("ConfigMap ");
      assertThat(r.verdictDocument().cleanup().deleted().toString())
          .contains("DynamoGraphDeployment ")
          .contains("Namespace ");
      ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
      assertThat(err.toString())
          .contains("validate [run]")
          .contains("validate [plan]")
          .contains("validate [render]");
    }
  }

  @ParameterizedTest(name = "{0} GPU(s)")
  @ValueSource(ints = {1, 2, 4, 8})
  @DisplayName("scaling: the rendered concurrency and the worker count grow linearly with the GPUs")
  void scaling(int n, KubeTestContext kube) throws Exception {
    String t = tag + "-s" + n;
    try (FakeKubelet gpus =
        kubelet(
            kube, t, n, PodScript.replayLog(AiperfPodLog.withSummary(export(6000, 100), 0), 0))) {
      assertThat(gpus.nodes()).hasSize(1);
      StringWriter err = new StringWriter();
      ValidateResult r =
          realService(kube.client(), err)
              .execute(options(kube, t, dir.resolve("r" + n), ValidateItSupport.fast()));
      assertThat(r.exitCode()).as(err.toString()).isZero();
      JsonNode plan = plan(r);
      assertThat(plan.path("experiment").path("concurrency").toString())
          .isEqualTo("[" + 16 * n + "]");
      assertThat(plan.path("experiment").path("request_count").asInt())
          .isEqualTo(Math.max(1000, 128 * n));
      assertThat(r.verdictDocument().deployment().workers()).isEqualTo(n);
      String perf = Files.readString(Path.of(r.verdictDocument().benchmark().perfYaml()));
      assertThat(perf).containsPattern("- --concurrency\\s+- \"?" + 16 * n + "\"?");
    }
  }

  @Test
  @DisplayName(
      "an existing DGD under the real export (50 tok/s): fail, exit 1; its Job cleaned, the DGD untouched")
  void discoveredFails(KubeTestContext kube) throws Exception {
    // its own namespace and nodes: the class-wide operator stand-in (AUTO) runs the DGD's pods here
    String ns = kube.createNamespace("existing-dgd");
    try (FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(
                FakeNode.withGpus(tag + "-ex-cpu", 0), FakeNode.withGpus(tag + "-ex-gpu", 1)))) {
      k.when(
          aiperfPods(ns),
          PodScript.replayLog(
              AiperfPodLog.withSummary(
                  Files.readString(SharedData.require("aiperf/profile_export_aiperf.json")), 0),
              0));
      ValidateItSupport.createAggDgd(kube.client(), ns);
      var dgds = kube.client().genericKubernetesResources(FakeDynamoOperator.DGD).inNamespace(ns);
      String rvBefore = dgds.withName("vllm-agg").get().getMetadata().getResourceVersion();
      StringWriter err = new StringWriter();
      Path report = dir.resolve("report");
      ValidateResult r =
          realService(kube.client(), err)
              .execute(
                  ValidateOptions.builder(report)
                      .namespace(ns)
                      .aiperfVersion("0.4.0")
                      .timeouts(ValidateItSupport.fast())
                      .build());
      assertThat(r.exitCode()).as(err.toString()).isEqualTo(1);
      assertThat(r.verdict()).isEqualTo(Status.FAIL);
      assertThat(r.verdictDocument().target().origin()).isEqualTo("discovered");
      assertThat(r.verdictDocument().measured().outputTokenThroughput().doubleValue())
          .isBetween(50.0, 50.1);
      assertThat(Files.readString(report.resolve("junit.xml"))).contains("<failure");
      JsonNode plan = plan(r);
      assertThat(plan.path("experiment").path("concurrency").toString()).isEqualTo("[16]");
      assertThat(plan.path("deployment").path("dgd_name").asString()).isEqualTo("vllm-agg");
      assertThat(plan.path("deployment").path("secrets").toString()).contains("hf-token-secret");
      assertThat(kube.client().batch().v1().jobs().inNamespace(ns).list().getItems()).isEmpty();
      assertThat(
              kube.client()
                  .configMaps()
                  .inNamespace(ns)
                  .withLabel("benchplan.dev/run-id")
                  .list()
                  .getItems())
          .isEmpty();
      // the measured DGD is never touched
      assertThat(dgds.withName("vllm-agg").get().getMetadata().getResourceVersion())
          .isEqualTo(rvBefore);
      dgds.withName("vllm-agg").delete();
      dgds.withName("vllm-agg")
          .waitUntilCondition(java.util.Objects::isNull, 60, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName(
      "the AIPerf pod fails: exit 3 at step run; Job, ConfigMaps, DGD and namespace all deleted")
  void aiperfPodFails(KubeTestContext kube) throws Exception {
    try (FakeKubelet gpus =
        kubelet(
            kube,
            tag + "-gf",
            1,
            PodScript.replayLog(AiperfPodLog.withoutSummary("Traceback: aiperf crashed", 1), 1))) {
      assertThat(gpus.nodes()).hasSize(1);
      StringWriter err = new StringWriter();
      ValidateResult r =
          realService(kube.client(), err)
              .execute(options(kube, tag + "-gf", dir.resolve("r"), ValidateItSupport.fast()));
      assertThat(r.exitCode()).as(err.toString()).isEqualTo(3);
      assertThat(r.verdictDocument().failedStep()).isEqualTo("run");
      assertThat(r.verdictDocument().cleanup().deleted().toString()).contains("Namespace ");
      ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
      try (Stream<Path> s = Files.walk(dir.resolve("r"))) {
        assertThat(s.filter(p -> p.getFileName().toString().equals("run.json"))).hasSize(1);
      }
    }
  }

  @Test
  @DisplayName("the Job overruns its bound (deadline): exit 3 at step run; everything deleted")
  void deadline(KubeTestContext kube) throws Exception {
    try (FakeKubelet gpus = kubelet(kube, tag + "-gd", 1, PodScript.runForever())) {
      assertThat(gpus.nodes()).hasSize(1);
      StringWriter err = new StringWriter();
      ValidateResult r =
          realService(kube.client(), err)
              .execute(
                  options(
                      kube,
                      tag + "-gd",
                      dir.resolve("r"),
                      ValidateItSupport.fast().withJob(Duration.ofSeconds(8))));
      assertThat(r.exitCode()).as(err.toString()).isEqualTo(3);
      assertThat(r.verdictDocument().failedStep()).isEqualTo("run");
      ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
    }
  }
}
