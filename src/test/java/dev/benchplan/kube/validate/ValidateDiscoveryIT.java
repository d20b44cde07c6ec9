package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.gate.Status;
import dev.benchplan.json.Json;
import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.testing.SharedData;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdCandidate;
import dev.benchplan.validate.ValidateResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** Discovery of existing DGDs against the real API server and the real DGD CRD. */
@KubeTestEnv
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ValidateDiscoveryIT {
  static FakeDynamoOperator operator;
  @TempDir Path dir;

  @BeforeAll
  static void operator(KubeTestContext kube) {
    operator =
        kube.startOperator(KubeTestContext.Scope.TEST_NAMESPACE, FakeDynamoOperator.Mode.MANUAL);
  }

  /** Dynamo's own agg example (v1alpha1), named and placed for this test. */
  static GenericKubernetesResource createAgg(KubeTestContext kube, String name) throws Exception {
    ObjectNode doc =
        (ObjectNode)
            Json.YAML.readTree(
                Files.readString(
                    SharedData.require("dynamo/v0.9.0/examples/backends/vllm/deploy/agg.yaml")));
    ObjectNode meta = (ObjectNode) doc.get("metadata");
    meta.put("name", name);
    meta.put("namespace", kube.namespace());
    return kube.client()
        .genericKubernetesResources(FakeDynamoOperator.DGD)
        .inNamespace(kube.namespace())
        .resource(KubeDocuments.generic(kube.client(), doc))
        .create();
  }

  @Test
  @Order(1)
  @DisplayName(
      "one successful DGD: benchmarked as is, with DGD, Service, port and model recorded; the DGD untouched")
  void oneDgd(KubeTestContext kube) throws Exception {
    createAgg(kube, "vllm-agg");
    operator.makeSuccessful(kube.namespace(), "vllm-agg");
    String rvBefore =
        kube.client()
            .genericKubernetesResources(FakeDynamoOperator.DGD)
            .withName("vllm-agg")
            .get()
            .getMetadata()
            .getResourceVersion();
    var runner = new ValidateItSupport.RecordingRunner();
    ValidateResult r =
        ValidateItSupport.service(kube.client(), runner, new StringWriter(), c -> c)
            .execute(
                ValidateItSupport.options(
                    kube.namespace(), null, Map.of(), dir, ValidateItSupport.fast()));
    assertThat(r.exitCode()).isZero();
    var t = runner.request.get().target();
    assertThat(t.origin()).isEqualTo("discovered");
    assertThat(t.dgdName()).isEqualTo("vllm-agg");
    assertThat(t.service()).isEqualTo("vllm-agg-frontend");
    assertThat(t.port()).isEqualTo(8000);
    assertThat(t.model()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(t.matchedBy()).startsWith("name");
    assertThat(t.endpointUrl())
        .isEqualTo("http://vllm-agg-frontend." + kube.namespace() + ".svc.cluster.local:8000");
    assertThat(runner.request.get().shape().concurrency()).isEqualTo(16);
    assertThat(r.verdictDocument().target().dgdUid()).isNotEmpty();
    GenericKubernetesResource after =
        kube.client().genericKubernetesResources(FakeDynamoOperator.DGD).withName("vllm-agg").get();
    assertThat(after.getMetadata().getResourceVersion()).isEqualTo(rvBefore);
  }

  @Test
  @Order(2)
  @DisplayName("two successful DGDs: exit 2 listing both; --dgd picks one")
  void twoDgds(KubeTestContext kube) throws Exception {
    createAgg(kube, "vllm-agg-2");
    operator.makeSuccessful(kube.namespace(), "vllm-agg-2");
    StringWriter err = new StringWriter();
    var runner = new ValidateItSupport.RecordingRunner();
    // invalid input, refused through Cli's one error path (which prints it on stderr)
    assertThatThrownBy(
            () ->
                ValidateItSupport.service(kube.client(), runner, err, c -> c)
                    .execute(
                        ValidateItSupport.options(
                            kube.namespace(), null, Map.of(), dir, ValidateItSupport.fast())))
        .isInstanceOfSatisfying(
            BenchplanException.class, e -> assertThat(e.exitCode()).isEqualTo(2))
        .hasMessage(
            "2 DynamoGraphDeployments serve a frontend; name one with --dgd NAME or"
                + " NAMESPACE/NAME: "
                + kube.namespace()
                + "/vllm-agg/vllm-agg-frontend:8000/Qwen/Qwen3-0.6B (state successful); "
                + kube.namespace()
                + "/vllm-agg-2/vllm-agg-2-frontend:8000/Qwen/Qwen3-0.6B (state successful)");
    assertThat(err.toString()).contains("2 candidates: ambiguous");
    assertThat(runner.request.get()).isNull();
    assertThat(dir.resolve("verdict.json")).doesNotExist();

    ValidateResult picked =
        ValidateItSupport.service(kube.client(), runner, new StringWriter(), c -> c)
            .execute(
                ValidateItSupport.options(
                    kube.namespace(), "vllm-agg-2", Map.of(), dir, ValidateItSupport.fast()));
    assertThat(picked.exitCode()).isZero();
    assertThat(runner.request.get().target().dgdName()).isEqualTo("vllm-agg-2");
  }

  @Test
  @Order(3)
  @DisplayName("a frontend-looking Service in a namespace without a DGD is never a candidate")
  void serviceOutsideDgdNamespace(KubeTestContext kube) {
    String other = kube.createNamespace("no-dgd");
    kube.client()
        .services()
        .inNamespace(other)
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("vllm-agg-frontend")
                .addToLabels("nvidia.com/dynamo-component-type", "frontend")
                .addToLabels("nvidia.com/dynamo-graph-deployment-name", "vllm-agg")
                .endMetadata()
                .withNewSpec()
                .addNewPort()
                .withName("http")
                .withPort(8000)
                .endPort()
                .endSpec()
                .build())
        .create();
    var cluster = new KubeValidateCluster(kube.client(), "it", DgdApi.GROUP, false);
    DgdApi api = cluster.dgdApi();
    List<DgdCandidate> all = cluster.discover(api, null);
    assertThat(all).anyMatch(c -> c.dgd().ref().equals(kube.namespace() + "/vllm-agg"));
    assertThat(all)
        .noneMatch(c -> c.frontend() != null && c.frontend().service().namespace().equals(other));
    assertThat(cluster.discover(api, other)).isEmpty();
  }

  @Test
  @Order(4)
  @DisplayName(
      "a DGD not yet successful is not benchmarked; naming it with --dgd is an error (exit 3)")
  void notSuccessful(KubeTestContext kube) throws Exception {
    createAgg(kube, "warming-up");
    operator.makePending(kube.namespace(), "warming-up", "workers loading weights");
    var cluster = new KubeValidateCluster(kube.client(), "it", DgdApi.GROUP, false);
    DgdCandidate c =
        cluster.discover(cluster.dgdApi(), kube.namespace()).stream()
            .filter(x -> x.dgd().name().equals("warming-up"))
            .findFirst()
            .orElseThrow();
    assertThat(c.usable()).isFalse();
    assertThat(c.problems()).first().asString().contains("state pending");
    var runner = new ValidateItSupport.RecordingRunner();
    ValidateResult r =
        ValidateItSupport.service(kube.client(), runner, new StringWriter(), x -> x)
            .execute(
                ValidateItSupport.options(
                    kube.namespace(), "warming-up", Map.of(), dir, ValidateItSupport.fast()));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("discovery");
    assertThat(r.verdictDocument().reason()).contains("state pending, not successful");
    assertThat(runner.request.get()).isNull();
  }

  @Test
  @Order(5)
  @DisplayName("the DGD CRD absent (an API group the server does not have): skip, exit 0")
  void crdAbsent(KubeTestContext kube) {
    var runner = new ValidateItSupport.RecordingRunner();
    ValidateResult r =
        new dev.benchplan.validate.ValidateService(
                o -> new KubeValidateCluster(kube.client(), "it", "absent.benchplan.dev", false),
                runner,
                java.time.Clock.systemUTC(),
                new java.io.PrintWriter(new StringWriter()),
                dev.benchplan.run.ShutdownHooks.jvm(),
                "it")
            .execute(
                ValidateItSupport.options(
                    kube.namespace(), null, Map.of(), dir, ValidateItSupport.fast()));
    assertThat(r.exitCode()).isZero();
    assertThat(r.verdict()).isEqualTo(Status.SKIP);
    assertThat(r.verdictDocument().reason())
        .contains("dynamographdeployments.absent.benchplan.dev")
        .contains("not installed");
    assertThat(runner.request.get()).isNull();
    // and the real group is found through the same discovery calls
    assertThat(
            new KubeValidateCluster(kube.client(), "it", DgdApi.GROUP, false)
                .dgdApi()
                .servedVersions())
        .contains("v1alpha1");
  }

  @Test
  @Order(6)
  @DisplayName("a user without the right to list DGDs everywhere gets a clear error, not a skip")
  void forbiddenDiscovery(KubeTestContext kube) {
    var user = new KubeValidateCluster(kube.userClient(), "it", DgdApi.GROUP, false);
    DgdApi api = user.dgdApi(); // discovery itself is open to every authenticated user
    assertThat(api.installed()).isTrue();
    assertThatThrownBy(() -> user.discover(api, null))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "the API server denied the user of this context 2 permission(s) validate with its"
                + " default deployment needs, so nothing was created: list"
                + " dynamographdeployments.nvidia.com in all namespaces (validate discovery: the"
                + " DGDs (all namespaces, or --namespace)); list services in all namespaces"
                + " (validate discovery: each DGD's frontend Service in its namespace). Print the"
                + " Role(s) to grant with: benchplan rbac validate [--dgd NS/NAME] (or keep"
                + " discovery to one namespace with --namespace NS)");
  }
}
