package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.validate.BenchmarkOutcome;
import dev.benchplan.validate.BenchmarkRunner;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.ValidateCluster;
import dev.benchplan.validate.ValidateOptions;
import dev.benchplan.validate.ValidateRun;
import dev.benchplan.validate.ValidateService;
import dev.benchplan.validate.ValidateTimeouts;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/** Shared pieces of the validate cluster-tier tests. */
final class ValidateItSupport {
  private ValidateItSupport() {}

  /** Short bounds so failures show in seconds, not minutes. */
  /**
   * Creates Dynamo's vllm agg DGD (../shared/data) in {@code ns}, as {@code vllm-agg}, and waits
   * until the operator stand-in reports it successful.
   */
  static void createAggDgd(KubernetesClient client, String ns) throws java.io.IOException {
    tools.jackson.databind.node.ObjectNode doc =
        (tools.jackson.databind.node.ObjectNode)
            dev.benchplan.json.Json.YAML.readTree(
                java.nio.file.Files.readString(
                    dev.benchplan.testing.SharedData.require(
                        "dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml")));
    ((tools.jackson.databind.node.ObjectNode) doc.get("metadata")).put("namespace", ns);
    var dgds =
        client
            .genericKubernetesResources(dev.benchplan.kubetest.FakeDynamoOperator.DGD)
            .inNamespace(ns);
    dgds.resource(KubeDocuments.generic(client, doc)).create();
    dgds.withName("vllm-agg")
        .waitUntilCondition(
            d ->
                d != null
                    && d.getAdditionalProperties().get("status") instanceof Map<?, ?> st
                    && "successful".equals(st.get("state")),
            60,
            java.util.concurrent.TimeUnit.SECONDS);
  }

  static ValidateTimeouts fast() {
    return new ValidateTimeouts(
        Duration.ofSeconds(30),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        Duration.ofSeconds(120),
        Duration.ofSeconds(60));
  }

  static ValidateOptions options(
      String namespace,
      String dgd,
      Map<String, String> selector,
      Path reportDir,
      ValidateTimeouts timeouts) {
    return ValidateOptions.builder(reportDir)
        .dgd(dgd)
        .namespace(namespace)
        .nodeSelector(selector)
        .aiperfVersion("0.4.0")
        .timeouts(timeouts)
        .build();
  }

  /**
   * A runner standing in for plan + render + run (the cluster tier's end-to-end tests use the real
   * one): records the request, passes the gate.
   */
  static final class RecordingRunner implements BenchmarkRunner {
    final AtomicReference<BenchmarkRequest> request = new AtomicReference<>();

    @Override
    public PlannedBenchmark plan(BenchmarkRequest req) {
      request.set(req);
      return new PlannedBenchmark(
          req.workDir().resolve("plan.json"),
          "0".repeat(64),
          "validate-it",
          "0.4.0",
          "operator_pin");
    }

    @Override
    public RenderedBenchmark render(BenchmarkRequest req, PlannedBenchmark plan) {
      return new RenderedBenchmark(
          req.workDir(),
          req.workDir().resolve("perf.yaml"),
          "0".repeat(64),
          "none",
          req.target().namespace(),
          "none",
          List.of());
    }

    @Override
    public BenchmarkOutcome run(
        BenchmarkRequest req,
        PlannedBenchmark plan,
        RenderedBenchmark rendered,
        dev.benchplan.progress.ProgressSink progress) {
      return dev.benchplan.validate.GateScript.measured(req.constraints(), 6000.0, 100.0);
    }
  }

  /** The service on the real API server through {@code client}, optionally decorated. */
  static ValidateService service(
      KubernetesClient client,
      BenchmarkRunner runner,
      StringWriter err,
      UnaryOperator<ValidateCluster> decorate) {
    return new ValidateService(
        o -> decorate.apply(new KubeValidateCluster(client, "kube-test-env", DgdApi.GROUP, false)),
        runner,
        Clock.systemUTC(),
        new PrintWriter(err, true),
        r -> () -> {},
        "it");
  }

  /** Nothing carrying the run's label is left in the cluster. */
  static void assertNothingLeft(KubernetesClient admin, String runId) {
    assertThat(admin.namespaces().withLabel(ValidateRun.RUN_LABEL, runId).list().getItems())
        .as("namespaces of run %s", runId)
        .isEmpty();
    assertThat(
            admin
                .genericKubernetesResources(KubeDocuments.dgdContext(DgdApi.GROUP, DgdApi.V1ALPHA1))
                .inAnyNamespace()
                .withLabel(ValidateRun.RUN_LABEL, runId)
                .list()
                .getItems())
        .as("DGDs of run %s", runId)
        .isEmpty();
  }
}
