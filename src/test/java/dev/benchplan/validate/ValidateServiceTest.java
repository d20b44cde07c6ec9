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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class ValidateServiceTest {
  static final SchemaValidator SCHEMA = SchemaValidator.bundled("validate-verdict.schema.json");

  @TempDir Path dir;

  /**
   * The documents a test produced that must match the schema (verdict.json is added when written).
   */
  final List<JsonNode> produced = new ArrayList<>();

  /** Every verdict.json a test run wrote, read back from the file, matches its schema. */
  @AfterEach
  void verdictMatchesSchema() throws Exception {
    Path written = dir.resolve("report/verdict.json");
    if (Files.exists(written)) {
      produced.add(Json.JSON.readTree(Files.readString(written)));
    }
    for (JsonNode doc : produced) {
      assertThat(SCHEMA.validate(doc))
          .as("schemas/validate-verdict.schema.json on %s", doc)
          .isEmpty();
    }
  }

  @Test
  @DisplayName(
      "the schema bites: an unknown status, a pass with exit 3, a missing key are rejected")
  void schemaRejects() throws Exception {
    cluster.dgds.add(existing("team-a", "vllm-agg", 1));
    service(gate(6000, 150)).execute(options(null, null, false));
    JsonNode ok = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    assertThat(SCHEMA.validate(ok)).isEmpty();
    tools.jackson.databind.node.ObjectNode badStatus =
        (tools.jackson.databind.node.ObjectNode) ok.deepCopy();
    ((tools.jackson.databind.node.ObjectNode) badStatus.path("constraints").get(0))
        .put("status", "maybe");
    assertThat(SCHEMA.validate(badStatus)).isNotEmpty();
    tools.jackson.databind.node.ObjectNode badExit =
        (tools.jackson.databind.node.ObjectNode) ok.deepCopy();
    badExit.put("exit_code", 3);
    assertThat(SCHEMA.validate(badExit)).isNotEmpty();
    tools.jackson.databind.node.ObjectNode missing =
        (tools.jackson.databind.node.ObjectNode) ok.deepCopy();
    missing.remove("run_id");
    assertThat(SCHEMA.validate(missing)).isNotEmpty();
  }

  final FakeValidateCluster cluster = new FakeValidateCluster();
  final StringWriter errText = new StringWriter();
  final List<Runnable> hooks = new ArrayList<>();
  final List<ScriptedRunner> runners = new ArrayList<>();

  ValidateService service(BenchmarkRunner runner) {
    dev.benchplan.run.ShutdownHooks h =
        r -> {
          hooks.add(r);
          return () -> hooks.remove(r);
        };
    return new ValidateService(
        o -> cluster, runner, Clock.systemUTC(), new PrintWriter(errText, true), h, "test");
  }

  ValidateOptions options(Path recipe, String dgd, boolean keep) {
    return ValidateOptions.builder(dir.resolve("report"))
        .recipe(recipe)
        .dgd(dgd)
        .keep(keep)
        .aiperfVersion("0.4.0")
        .build();
  }

  ScriptedRunner gate(double throughput, double ttft) {
    ScriptedRunner r = ScriptedRunner.gate(cluster, throughput, ttft);
    runners.add(r);
    return r;
  }

  BenchmarkRunner.BenchmarkRequest seen() {
    return runners.get(runners.size() - 1).request.get();
  }

  static DgdCandidate existing(String ns, String name, int workers) {
    DgdView v =
        new DgdView(
            "nvidia.com/v1alpha1",
            ns,
            name,
            "uid-" + name,
            "successful",
            List.of(
                new DgdComponent("Frontend", DgdComponent.Role.FRONTEND, 1, 1, List.of(), null),
                new DgdComponent(
                    "VllmDecodeWorker",
                    DgdComponent.Role.WORKER,
                    workers,
                    workers,
                    List.of("Qwen/Qwen3-0.6B"),
                    null)));
    return new DgdCandidate(
        v,
        new FrontendMatch(
            new ServiceInfo(
                ns,
                name + "-frontend",
                Map.of(),
                List.of(),
                List.of(new ServiceInfo.Port("http", 8000))),
            8000,
            "name",
            true),
        List.of());
  }

  ValidateOptions cacheOptions(String storageClass) {
    ValidateOptions o = options(null, null, false);
    return o.toBuilder().hfTokenSecret("hf-token").modelCache(true, "200Gi", storageClass).build();
  }

  @Test
  @DisplayName(
      "model cache: a named StorageClass that does not exist is exit 2 before anything is created, with the fix")
  void cacheMissingClass() {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 0, false, true, List.of()));
    assertThatThrownBy(() -> service(gate(6000, 150)).execute(cacheOptions("no-such-class")))
        .isInstanceOf(ValidateStepException.class)
        .hasMessage("model cache: StorageClass 'no-such-class' does not exist")
        .satisfies(e -> assertThat(((ValidateStepException) e).exitCode()).isEqualTo(2));
    assertThat(cluster.calls)
        .noneMatch(c -> c.startsWith("createNamespace") || c.startsWith("populate"));
    assertThat(cluster.existing).isEmpty();
    assertThat(dir.resolve("report/verdict.json")).doesNotExist();
  }

  @Test
  @DisplayName("model cache: no default StorageClass and none named is exit 2, nothing created")
  void cacheNoDefaultClass() {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 0, false, true, List.of()));
    cluster.defaultStorageClass = null;
    assertThatThrownBy(() -> service(gate(6000, 150)).execute(cacheOptions(null)))
        .hasMessage("model cache: the cluster has no default StorageClass");
    assertThat(cluster.existing).isEmpty();
  }

  @Test
  @DisplayName(
      "model cache: the named class's PVC is populated before the DGD, workers mount it read-only and offline, the frontend routes least-loaded; the verdict records it")
  void cacheNamedClass() throws Exception {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 0, false, true, List.of()));
    ValidateResult r = service(gate(6000, 150)).execute(cacheOptions("fast-nvme"));
    assertThat(r.exitCode()).isZero();
    assertThat(cluster.lastCache.storageClass()).isEqualTo("fast-nvme");
    assertThat(cluster.lastCache.size()).isEqualTo("200Gi");
    // the PVC built from it: ModelCacheStoreTest (kube/validate, where it is built typed)
    assertThat(cluster.calls.indexOf("populateModelCache fast-nvme"))
        .isGreaterThan(cluster.calls.indexOf("createNamespace"));
    JsonNode worker = cluster.lastManifest.at("/spec/services/VllmDecodeWorker");
    assertThat(worker.at("/extraPodSpec/volumes/0/persistentVolumeClaim/claimName").asString())
        .isEqualTo(ModelCache.CLAIM);
    assertThat(worker.at("/extraPodSpec/volumes/0/persistentVolumeClaim/readOnly").asBoolean())
        .isTrue();
    assertThat(worker.at("/extraPodSpec/mainContainer/volumeMounts/0/readOnly").asBoolean())
        .isTrue();
    assertThat(worker.path("envs").toString())
        .contains("{\"name\":\"HF_HUB_OFFLINE\",\"value\":\"1\"}")
        .contains("{\"name\":\"HF_HOME\",\"value\":\"/model-cache\"}");
    assertThat(cluster.lastManifest.at("/spec/services/Frontend/envs").toString())
        .contains("{\"name\":\"DYN_ROUTER_MODE\",\"value\":\"least-loaded\"}");
    JsonNode verdict = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    assertThat(verdict.at("/deployment/model_cache/storage_class").asString())
        .isEqualTo("fast-nvme");
    assertThat(verdict.at("/deployment/model_cache/storage_class_source").asString())
        .isEqualTo("flag");
    assertThat(verdict.at("/deployment/router_mode").asString()).isEqualTo("least-loaded");
  }

  @Test
  @DisplayName(
      "model cache: without a name the cluster's default class is used; --no-model-cache creates none")
  void cacheDefaultAndOff() throws Exception {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 0, false, true, List.of()));
    service(gate(6000, 150)).execute(cacheOptions(null));
    assertThat(cluster.lastCache.storageClass()).isEqualTo("standard");
    assertThat(cluster.lastCache.storageClassSource()).isEqualTo("cluster-default");
    cluster.lastCache = null;
    cluster.calls.clear();
    service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(cluster.lastCache).isNull();
    assertThat(cluster.calls).noneMatch(c -> c.startsWith("modelCacheStorageClass"));
    assertThat(cluster.lastManifest.toString())
        .doesNotContain("model-cache")
        .doesNotContain("HF_HUB_OFFLINE");
  }

  @Test
  @DisplayName(
      "an existing DGD successful with a worker at 0 ready replicas: exit 3 at readiness naming it (ready/spec), no Job created")
  void existingWorkerNotReady() throws Exception {
    DgdCandidate c = existing("team-a", "vllm-agg", 2);
    DgdView v = c.dgd();
    DgdView shortOne =
        new DgdView(
            v.apiVersion(),
            v.namespace(),
            v.name(),
            v.uid(),
            "successful",
            List.of(
                v.components().get(0),
                new DgdComponent(
                    "VllmDecodeWorker",
                    DgdComponent.Role.WORKER,
                    2,
                    0,
                    List.of("Qwen/Qwen3-0.6B"),
                    null)));
    cluster.dgds.add(new DgdCandidate(shortOne, c.frontend(), List.of()));
    cluster.existing.add("DynamoGraphDeployment team-a/vllm-agg");
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("readiness");
    assertThat(r.verdictDocument().reason())
        .isEqualTo(
            "DGD team-a/vllm-agg not ready after PT10M: components VllmDecodeWorker 0/2 ready"
                + " (ready/spec)");
    assertThat(cluster.existing).containsExactly("DynamoGraphDeployment team-a/vllm-agg");
    assertThat(cluster.deletionOrder).isEmpty();
    assertThat(cluster.calls).contains("awaitComponentsReady team-a/vllm-agg");
  }

  @Test
  @DisplayName(
      "an existing DGD passes: exit 0, verdict/CTRF/JUnit written, the DGD never touched, the Job cleaned")
  void passOnExisting() throws Exception {
    cluster.dgds.add(existing("team-a", "vllm-agg", 2));
    cluster.existing.add("DynamoGraphDeployment team-a/vllm-agg");
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isZero();
    assertThat(r.verdict()).isEqualTo(Status.PASS);
    assertThat(seen().shape().concurrency()).isEqualTo(32);
    assertThat(seen().target().endpointUrl())
        .isEqualTo("http://vllm-agg-frontend.team-a.svc.cluster.local:8000");
    assertThat(cluster.existing).containsExactly("DynamoGraphDeployment team-a/vllm-agg");
    assertThat(cluster.deletionOrder)
        .containsExactly("Job team-a/bp-job", "ConfigMap team-a/bp-cm");
    assertThat(cluster.closed).isTrue();
    assertThat(hooks).isEmpty();

    JsonNode verdict = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    assertThat(verdict.path("target").path("origin").asString()).isEqualTo("discovered");
    assertThat(verdict.path("target").path("model").asString()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(verdict.path("target").path("model_source").asString())
        .isEqualTo("dgd:VllmDecodeWorker");
    assertThat(verdict.path("constraints").get(0).path("measured").asDouble()).isEqualTo(6000.0);
    // CTRF and JUnit are the gate's own reports on the gate's verdict: one test per constraint +
    // the error rate
    JsonNode ctrf = Json.JSON.readTree(Files.readString(dir.resolve("report/ctrf-report.json")));
    List<String> names = new ArrayList<>();
    ctrf.path("results").path("tests").forEach(t -> names.add(t.path("name").asString()));
    assertThat(names)
        .containsExactly("inference-throughput", "inference-ttft-p99", "request-error-rate");
    JsonNode test = ctrf.path("results").path("tests").get(0);
    assertThat(test.path("status").asString()).isEqualTo("passed");
    assertThat(test.path("message").asString())
        .isEqualTo(
            "inference-throughput: output_token_throughput avg 6000 tokens/sec >= 4500 (5000 -10%)");
    assertThat(ctrf.path("results").path("summary").path("passed").asInt()).isEqualTo(3);
    var junit =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(dir.resolve("report/junit.xml").toFile());
    assertThat(
            junit
                .getElementsByTagName("testcase")
                .item(0)
                .getAttributes()
                .getNamedItem("name")
                .getNodeValue())
        .isEqualTo("inference-throughput");
    assertThat(junit.getElementsByTagName("failure").getLength()).isZero();
    assertThat(errText.toString()).contains("validate [discovery]").contains("validate [cleanup]");
  }

  @Test
  @DisplayName(
      "a client-bound run (ClientBoundCheck on its records: 64 claimed, 40 in flight) with a throughput"
          + " under the floor: exit 3 naming the load generator and the fix, the finding in verdict.json, not exit 1")
  void clientBound() throws Exception {
    cluster.dgds.add(existing("team-a", "vllm-agg", 1));
    // the run's per-request records, as the pod's AIPerf wrote them: 64 claimed, 40 kept in flight
    Path tree =
        dev.benchplan.diagnostics.RunWriter.write(
            dir.resolve("run/aiperf"),
            dev.benchplan.diagnostics.SimulatedRun.closedLoop(
                7, 40, 1000, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble())),
            64);
    List<dev.benchplan.diagnostics.Finding> findings =
        dev.benchplan.analysis.input.RunDiagnostics.diagnoseAll(tree).findings();
    assertThat(findings)
        .extracting(f -> f.kind())
        .contains(dev.benchplan.diagnostics.FindingKind.CLIENT_BOUND);
    List<Status> gateAlone = new ArrayList<>();
    ScriptedRunner runner =
        new ScriptedRunner(
            cluster,
            req -> {
              BenchmarkOutcome measured = GateScript.measured(req.constraints(), 4499, 150);
              gateAlone.add(measured.verdict());
              // what run does with the diagnosis (KubeRunService), then how validate reads run's
              // outcome
              return AiperfBenchmarkRunner.outcome(
                  dev.benchplan.gate.GateEvaluator.withFindings(measured.gate(), findings),
                  "completed",
                  tree.getParent());
            });
    runners.add(runner);
    ValidateResult r = service(runner).execute(options(null, null, false));
    assertThat(gateAlone)
        .as("the same figures without the finding blame the deployment")
        .containsExactly(Status.FAIL);
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdict()).isEqualTo(Status.ERROR);
    JsonNode verdict = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    assertThat(verdict.path("exit_code").asInt()).isEqualTo(3);
    assertThat(verdict.path("failed_step").asString()).isEqualTo("gate");
    assertThat(verdict.path("reason").asString())
        .isEqualTo(
            "error: client bound: the load generator (AIPerf) did not drive the load it was given"
                + " (concurrency 64): time-weighted requests in flight 40.0 of 64 over the steady"
                + " window (53.8 s, from the 64th request start to the last), below 90%. Fix: give"
                + " the load generator what the load needs: more CPU and AIPerf workers for its pod"
                + " (benchmark.runtime.workers = ceil(C / 100), ceil(0.4 x workers) + 1 cores), a"
                + " node of its own, or the aiperf-operator engine past one pod; then run again."
                + " This run's numbers describe AIPerf, not the deployment, and must not be used as"
                + " evidence (agent-docs/rules/benchmarking/client-bound.md)");
    JsonNode bound = null;
    for (JsonNode f : verdict.path("findings")) {
      if (f.path("kind").asString().equals("client_bound")) {
        bound = f;
      }
    }
    assertThat(bound).as("client_bound finding in %s", verdict.path("findings")).isNotNull();
    assertThat(bound.path("signals").toString()).contains("in_flight_below_concurrency");
    assertThat(bound.path("figures").path("time_weighted_in_flight").asDouble())
        .isBetween(39.0, 40.5);
    assertThat(bound.path("recommendation").asString()).contains("aiperf-operator");
    assertThat(errText.toString()).contains("validate: error (exit 3)");
  }

  @Test
  @DisplayName(
      "isolation checks the permissions did not allow are listed in verdict.json (row, permission, check), the run still passes")
  void isolationSkippedListed() throws Exception {
    cluster.dgds.add(existing("team-a", "vllm-agg", 2));
    cluster.skipped.add(
        new ValidateVerdict.SkippedCheck(
            "RUN_NODE_GET",
            "get nodes",
            "run preflight: GPU sharing on the serving nodes (403: not checked)",
            "kubectl auth can-i get nodes"));
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isZero();
    JsonNode verdict = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    assertThat(verdict.path("isolation_skipped")).hasSize(1);
    assertThat(verdict.at("/isolation_skipped/0/row").asString()).isEqualTo("RUN_NODE_GET");
    assertThat(verdict.at("/isolation_skipped/0/can_i").asString())
        .isEqualTo("kubectl auth can-i get nodes");
    ((tools.jackson.databind.node.ObjectNode) verdict.at("/isolation_skipped/0"))
        .put("row", "not a row");
    assertThat(SCHEMA.validate(verdict)).isNotEmpty();
  }

  @Test
  @DisplayName("throughput under 0.9 x threshold fails: exit 1, CTRF failed, JUnit <failure>")
  void fail() throws Exception {
    cluster.dgds.add(existing("team-a", "vllm-agg", 1));
    ValidateResult r = service(gate(4499, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(Files.readString(dir.resolve("report/junit.xml"))).contains("<failure");
    assertThat(Files.readString(dir.resolve("report/ctrf-report.json")))
        .contains("\"status\": \"failed\"");
  }

  @Test
  @DisplayName("an overlay that does not list the check skips without contacting the cluster")
  void skipUnlisted() throws Exception {
    Path overlay = dir.resolve("o.yaml");
    Files.writeString(overlay, "validation: {performance: {checks: [nccl-all-reduce-bw]}}");
    ValidateService s =
        new ValidateService(
            o -> {
              throw new AssertionError("must not connect");
            },
            gate(1, 1),
            Clock.systemUTC(),
            new PrintWriter(errText),
            dev.benchplan.run.ShutdownHooks.jvm(),
            "t");
    ValidateResult r = s.execute(options(overlay, null, false));
    assertThat(r.exitCode()).isZero();
    assertThat(r.verdict()).isEqualTo(Status.SKIP);
    JsonNode ctrf = Json.JSON.readTree(Files.readString(dir.resolve("report/ctrf-report.json")));
    assertThat(ctrf.path("results").path("summary").path("skipped").asInt()).isEqualTo(1);
    assertThat(ctrf.path("results").path("tests").get(0).path("message").asString())
        .contains("nccl-all-reduce-bw");
  }

  @Test
  @DisplayName("no DGD CRD: skip, exit 0, nothing looked up beyond discovery")
  void skipNoCrd() {
    cluster.api = new DgdApi("nvidia.com", List.of());
    ValidateResult r = service(gate(1, 1)).execute(options(null, null, false));
    assertThat(r.verdict()).isEqualTo(Status.SKIP);
    assertThat(r.verdictDocument().reason())
        .isEqualTo(
            "the DynamoGraphDeployment CRD (dynamographdeployments.nvidia.com) is not installed in"
                + " the cluster: no Dynamo platform to validate");
    assertThat(cluster.calls).containsExactly("dgdApi");
  }

  @Test
  @DisplayName("two DGDs: exit 2 listing both, nothing written; --dgd picks one")
  void ambiguous() {
    cluster.dgds.add(existing("a", "x", 1));
    cluster.dgds.add(existing("b", "y", 1));
    // invalid input like a bad option: Cli's one error path prints it (and its JSON error)
    assertThatThrownBy(() -> service(gate(6000, 100)).execute(options(null, null, false)))
        .isInstanceOfSatisfying(
            BenchplanException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(2);
              assertThat(e.location().field()).isEqualTo("--dgd");
            })
        .hasMessage(
            "2 DynamoGraphDeployments serve a frontend; name one with --dgd NAME or"
                + " NAMESPACE/NAME: a/x/x-frontend:8000/Qwen/Qwen3-0.6B (state successful);"
                + " b/y/y-frontend:8000/Qwen/Qwen3-0.6B (state successful)");
    assertThat(errText.toString()).contains("validate [discovery]").contains("ambiguous");
    assertThat(dir.resolve("report")).doesNotExist();
    assertThat(cluster.closed).isTrue();

    ValidateResult picked = service(gate(6000, 100)).execute(options(null, "b/y", false));
    assertThat(picked.exitCode()).isZero();
    assertThat(picked.verdictDocument().target().dgd()).isEqualTo("y");
  }

  @Test
  @DisplayName("bad --dgd is invalid input: exit 2, nothing written")
  void badDgd() {
    cluster.dgds.add(existing("a", "x", 1));
    assertThatThrownBy(() -> service(gate(1, 1)).execute(options(null, "nope", false)))
        .isInstanceOf(BenchplanException.class)
        .hasMessage("option --dgd: no DynamoGraphDeployment nope in all namespaces (found: a/x)");
    assertThat(dir.resolve("report")).doesNotExist();
  }

  @Test
  @DisplayName(
      "auto-deploy on a node with 4 free GPUs: 4 workers, concurrency 64, 1000 requests (AICR: max(1000, 8C)); cleanup in reverse")
  void autoDeploy() throws Exception {
    cluster.nodes.add(
        new GpuNode(
            "gpu-a",
            Map.of("kubernetes.io/hostname", "gpu-a"),
            4,
            0,
            false,
            true,
            List.of(new NodeTaint("nvidia.com/gpu", null, "NoSchedule"))));
    cluster.nodes.add(new GpuNode("gpu-b", Map.of(), 8, 6, false, true, List.of()));
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isZero();
    BenchmarkRunner.BenchmarkRequest req = seen();
    assertThat(req.target().origin()).isEqualTo("deployed");
    assertThat(req.target().workers()).isEqualTo(4);
    assertThat(req.shape().concurrency()).isEqualTo(64);
    assertThat(req.shape().requestCount()).isEqualTo(1000);
    assertThat(req.target().namespace()).matches("benchplan-validate-[0-9a-f]{8}");
    assertThat(
            cluster
                .lastManifest
                .path("spec")
                .path("services")
                .path("VllmDecodeWorker")
                .path("replicas")
                .asInt())
        .isEqualTo(4);
    String ns = req.target().namespace();
    assertThat(cluster.deletionOrder)
        .containsExactly(
            "Job " + ns + "/bp-job",
            "ConfigMap " + ns + "/bp-cm",
            "DynamoGraphDeployment " + ns + "/benchplan-validate",
            "Namespace " + ns);
    assertThat(cluster.existing).isEmpty();
    assertThat(r.verdictDocument().deployment().node()).isEqualTo("gpu-a");
    assertThat(r.verdictDocument().cleanup().deleted()).hasSize(4);
  }

  @Test
  @DisplayName(
      "plan and render come before anything is created: a plan failure leaves the cluster untouched")
  void planFirst() throws Exception {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 4, 0, false, true, List.of()));
    ValidateResult ok = service(gate(6000, 150)).execute(options(null, null, false));
    List<String> order = new ArrayList<>();
    ok.verdictDocument().steps().forEach(st -> order.add(st.step()));
    assertThat(order)
        .containsSubsequence(
            "node-selection",
            "plan",
            "render",
            "namespace",
            "deploy",
            "readiness",
            "run",
            "cleanup");

    cluster.calls.clear();
    ScriptedRunner failing = gate(6000, 150);
    failing.failPlan = BenchplanException.runtime("AIPerf index unreachable");
    ValidateResult r = service(failing).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("plan");
    assertThat(r.verdictDocument().cleanup().created()).isEmpty();
    assertThat(cluster.calls).doesNotContain("createNamespace");

    ScriptedRunner blocked = gate(6000, 150);
    blocked.failPlan = BenchplanException.invalid("blocker AIPERF_VERSION_UNRESOLVED");
    assertThatThrownBy(() -> service(blocked).execute(options(null, null, false)))
        .hasMessage("blocker AIPERF_VERSION_UNRESOLVED");
  }

  @Test
  @DisplayName("a readiness timeout: exit 3, failed_step readiness, the DGD and namespace deleted")
  void readinessFails() throws Exception {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 0, false, true, List.of()));
    cluster.failReadiness =
        BenchplanException.runtime("DGD x not ready after 10m0s: state pending");
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("readiness");
    assertThat(r.verdictDocument().reason())
        .isEqualTo("DGD x not ready after 10m0s: state pending");
    assertThat(cluster.existing).isEmpty();
    assertThat(cluster.deletionOrder).hasSize(2);
    assertThat(Files.readString(dir.resolve("report/junit.xml")))
        .contains(
            "<error message=\"inference-throughput: not measured: validate error at step readiness: DGD x not"
                + " ready after 10m0s");
  }

  @Test
  @DisplayName("namespace creation denied: failed_step namespace, nothing left")
  void namespaceDenied() {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 0, false, true, List.of()));
    cluster.failCreateNamespace =
        BenchplanException.runtime("creating namespace x failed: HTTP 403 Forbidden");
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("namespace");
    assertThat(r.verdictDocument().cleanup().alreadyGone()).hasSize(1);
  }

  @Test
  @DisplayName("no free GPU: exit 3 at node-selection with the reason, nothing created")
  void noGpu() {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 2, 2, false, true, List.of()));
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("node-selection");
    assertThat(r.verdictDocument().reason())
        .isEqualTo(
            "no schedulable node has a free nvidia.com/gpu (gpu-a: 2 allocatable, 2 requested, 0"
                + " free)");
  }

  @Test
  @DisplayName("a runner failure names its step; cleanup still runs")
  void runnerFails() {
    cluster.dgds.add(existing("a", "x", 1));
    ScriptedRunner failing =
        new ScriptedRunner(
            cluster,
            req -> GateScript.runFailed(req.constraints(), "Job a/bp-job failed: pod exited 1"));
    ValidateResult r = service(failing).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("run");
    assertThat(cluster.existing).isEmpty();
  }

  @Test
  @DisplayName(
      "an unexpected exception (a bug) is exit 4, not a cluster error; the verdict is still written and cleanup runs")
  void bugIsExit4() throws Exception {
    cluster.dgds.add(existing("a", "x", 1));
    ScriptedRunner buggy =
        new ScriptedRunner(
            cluster,
            req -> {
              throw new IllegalStateException("index 3 out of bounds");
            });
    ValidateResult r = service(buggy).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(4);
    assertThat(r.verdict()).isEqualTo(Status.ERROR);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("run");
    assertThat(r.verdictDocument().reason())
        .isEqualTo(
            "internal error (a bug in benchplan): java.lang.IllegalStateException: index 3 out of bounds");
    assertThat(cluster.existing).isEmpty();
    assertThat(
            Json.JSON
                .readTree(Files.readString(dir.resolve("report/verdict.json")))
                .path("exit_code")
                .asInt())
        .isEqualTo(4);
  }

  @Test
  @DisplayName("--keep leaves everything and lists it")
  void keep() {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 1, 0, false, true, List.of()));
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, true));
    assertThat(r.exitCode()).isZero();
    assertThat(cluster.existing).hasSize(4);
    assertThat(r.verdictDocument().cleanup().kept()).isTrue();
    assertThat(r.verdictDocument().cleanup().created()).hasSize(4);
  }

  @Test
  @DisplayName("a cleanup that cannot finish turns a pass into an error at step cleanup")
  void cleanupIncomplete() {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 1, 0, false, true, List.of()));
    cluster.cleanupLeavesNamespace = true;
    ValidateResult r = service(gate(6000, 150)).execute(options(null, null, false));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("cleanup");
    // the namespace is named after this run's random id: matched, not spelled
    assertThat(r.verdictDocument().reason())
        .matches(
            "cleanup incomplete after a pass verdict \\(pass: 2 of 2 constraints met; 0 of 64"
                + " requests failed \\(max 1%\\)\\): Namespace benchplan-validate-[0-9a-f]{8} still"
                + " present after 1s");
  }

  @Test
  @DisplayName("Ctrl-C during the run: the hook cleans up and records an error naming the step")
  void interrupted() throws Exception {
    cluster.nodes.add(new GpuNode("gpu-a", Map.of(), 1, 0, false, true, List.of()));
    CountDownLatch inRun = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ScriptedRunner blocking =
        new ScriptedRunner(
            cluster,
            req -> {
              inRun.countDown();
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              throw BenchplanException.runtime("watch closed");
            });
    ValidateService s = service(blocking);
    AtomicReference<ValidateResult> result = new AtomicReference<>();
    Thread main = new Thread(() -> result.set(s.execute(options(null, null, false))));
    main.start();
    assertThat(inRun.await(10, TimeUnit.SECONDS)).isTrue();
    hooks.get(0).run(); // what the JVM does on SIGINT
    assertThat(cluster.existing).isEmpty();
    JsonNode verdict = Json.JSON.readTree(Files.readString(dir.resolve("report/verdict.json")));
    assertThat(verdict.path("verdict").asString()).isEqualTo("error");
    assertThat(verdict.path("reason").asString())
        .isEqualTo("interrupted (SIGINT/SIGTERM) during step run");
    release.countDown();
    main.join(10_000);
    assertThat(result.get().verdictDocument().reason())
        .isEqualTo("interrupted (SIGINT/SIGTERM) during step run");
  }

  @Test
  @DisplayName(
      "the ledger refuses creations once cleanup began (a creation racing Ctrl-C undoes itself)")
  void ledgerClosed() {
    CreatedObjects l = new CreatedObjects();
    assertThat(l.record(new CreatedObject("v1", "Namespace", null, "a", "k", "v"))).isTrue();
    assertThat(l.closeForCleanup()).hasSize(1);
    assertThat(l.record(new CreatedObject("v1", "ConfigMap", "a", "b", "k", "v"))).isFalse();
    assertThat(l.closeForCleanup())
        .extracting(CreatedObject::kind)
        .containsExactly("ConfigMap", "Namespace");
  }
}
