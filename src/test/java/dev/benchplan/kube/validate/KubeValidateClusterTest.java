package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.CleanupReport;
import dev.benchplan.validate.CreatedObject;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.DefaultDeployment;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdCandidate;
import dev.benchplan.validate.GpuNode;
import dev.benchplan.validate.ValidateOptions;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.extension.ExtendWith(dev.benchplan.kube.MockApiServer.class)
class KubeValidateClusterTest {
  /**
   * The bound of the waits expected to time out. It must cover the first list of the watch (the
   * message names the state it saw): 800 ms did not on a loaded machine, where a cold client's
   * first responses can take seconds.
   */
  static final Duration SHORT_BOUND = Duration.ofSeconds(3);

  KubernetesMockServer server;
  KubernetesClient client;
  static final ValidateRun RUN = new ValidateRun("20261130T120000Z-0a1b2c3d");
  KubeValidateCluster cluster;

  @BeforeEach
  void setUp() {
    server.expectCustomResource(MockDgds.V1ALPHA1);
    dev.benchplan.kube.AccessReviews.install(
        server, review -> false); // validate asks before it lists or creates
    cluster = new KubeValidateCluster(client, "mock", DgdApi.GROUP, false);
  }

  private void serveGroup(String... versions) {
    var g = new APIGroupBuilder().withName("nvidia.com");
    for (String v : versions) {
      g.addNewVersion().withGroupVersion("nvidia.com/" + v).withVersion(v).endVersion();
    }
    server.expect().get().withPath("/apis/nvidia.com").andReturn(200, g.build()).always();
  }

  @Test
  @DisplayName("CRD check: the group is absent (404) -> not installed")
  void crdAbsent() {
    server
        .expect()
        .get()
        .withPath("/apis/nvidia.com")
        .andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound").build())
        .once();
    DgdApi api = cluster.dgdApi();
    assertThat(api.installed()).isFalse();
  }

  @Test
  @DisplayName("CRD check: v1alpha1 served -> installed, v1alpha1 used")
  void crdPresent() {
    serveGroup("v1alpha1");
    DgdApi api = cluster.dgdApi();
    assertThat(api.servedVersions()).containsExactly("v1alpha1");
    assertThat(api.apiVersion()).isEqualTo("nvidia.com/v1alpha1");
  }

  @Test
  @DisplayName("CRD check: a forbidden discovery call is an error (exit 3), never a skip")
  void crdForbidden() {
    server
        .expect()
        .get()
        .withPath("/apis/nvidia.com")
        .andReturn(
            403,
            new StatusBuilder()
                .withCode(403)
                .withReason("Forbidden")
                .withMessage("no discovery for you")
                .build())
        .once();
    assertThatThrownBy(() -> cluster.dgdApi())
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "API discovery of group nvidia.com: HTTP 403 Forbidden: no discovery for you; RBAC:"
                + " the context's user lacks this permission (grant it with a Role or ClusterRole;"
                + " check with 'kubectl auth can-i')")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(3);
  }

  @Test
  @DisplayName(
      "discovery: only DGDs' own namespaces are searched; states and frontends are reported")
  void discovery() {
    MockDgds.dgd(client, "team-a", "vllm-agg", "successful", 2);
    MockDgds.frontend(client, "team-a", "vllm-agg-frontend", Map.of());
    MockDgds.dgd(client, "team-b", "warming", "pending", 1);
    MockDgds.frontend(client, "team-b", "warming-frontend", Map.of());
    // a Service that looks like a frontend, in a namespace with no DGD: never considered
    MockDgds.frontend(
        client,
        "default",
        "llm-frontend",
        Map.of(
            "nvidia.com/dynamo-component-type",
            "frontend",
            "nvidia.com/dynamo-graph-deployment-name",
            "llm"));
    List<DgdCandidate> seen = cluster.discover(new DgdApi("nvidia.com", List.of("v1alpha1")), null);
    assertThat(seen)
        .extracting(c -> c.dgd().ref())
        .containsExactly("team-a/vllm-agg", "team-b/warming");
    assertThat(seen.get(0).usable()).isTrue();
    assertThat(seen.get(0).frontend().service().name()).isEqualTo("vllm-agg-frontend");
    assertThat(seen.get(1).usable()).isFalse();
    assertThat(seen.get(1).problems())
        .first()
        .asString()
        .isEqualTo("state pending, not successful");
    assertThat(seen)
        .noneMatch(
            c -> c.frontend() != null && c.frontend().service().name().equals("llm-frontend"));

    List<DgdCandidate> onlyB =
        cluster.discover(new DgdApi("nvidia.com", List.of("v1alpha1")), "team-b");
    assertThat(onlyB).extracting(c -> c.dgd().ref()).containsExactly("team-b/warming");
  }

  @Test
  @DisplayName("GPU inventory: allocatable minus requests of non-terminal pods bound to the node")
  void gpuInventory() {
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName("gpu-a")
                .endMetadata()
                .withNewSpec()
                .addNewTaint()
                .withKey("nvidia.com/gpu")
                .withEffect("NoSchedule")
                .endTaint()
                .endSpec()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity("8"))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build())
        .create();
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName("cpu-a")
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("cpu", new Quantity("4"))
                .endStatus()
                .build())
        .create();
    pod("ns1", "running", "gpu-a", "Running", "2", null);
    pod("ns1", "limits-only", "gpu-a", "Pending", null, "1");
    pod("ns2", "done", "gpu-a", "Succeeded", "4", null);
    pod("ns2", "unbound", null, "Pending", "4", null);
    List<GpuNode> nodes = cluster.gpuNodes();
    GpuNode a = nodes.stream().filter(n -> n.name().equals("gpu-a")).findFirst().orElseThrow();
    assertThat(a.allocatableGpus()).isEqualTo(8);
    assertThat(a.requestedGpus()).isEqualTo(3);
    assertThat(a.freeGpus()).isEqualTo(5);
    assertThat(a.ready()).isTrue();
    assertThat(a.taints()).singleElement().extracting(t -> t.key()).isEqualTo("nvidia.com/gpu");
    assertThat(
            nodes.stream()
                .filter(n -> n.name().equals("cpu-a"))
                .findFirst()
                .orElseThrow()
                .allocatableGpus())
        .isZero();
  }

  private void pod(
      String ns, String name, String node, String phase, String request, String limit) {
    var b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(ns)
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .addNewContainer()
            .withName("main")
            .withImage("x:1")
            .withNewResources();
    if (request != null) {
      b = b.addToRequests("nvidia.com/gpu", new Quantity(request));
    }
    if (limit != null) {
      b = b.addToLimits("nvidia.com/gpu", new Quantity(limit));
    }
    client
        .pods()
        .inNamespace(ns)
        .resource(
            b.endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build())
        .create();
  }

  @Test
  @DisplayName(
      "namespace: created with the run's labels; an active namespace of that name is never reused")
  void namespace() {
    CreatedObjects ledger = new CreatedObjects();
    cluster.createNamespace(
        RUN, RUN.namespace(), ledger, Duration.ofSeconds(5), ProgressSink.none());
    assertThat(client.namespaces().withName(RUN.namespace()).get().getMetadata().getLabels())
        .containsEntry("benchplan.dev/validate-run", RUN.runId());
    assertThat(ledger.snapshot()).extracting(CreatedObject::kind).containsExactly("Namespace");
    assertThatThrownBy(
            () ->
                cluster.createNamespace(
                    RUN,
                    RUN.namespace(),
                    new CreatedObjects(),
                    Duration.ofSeconds(5),
                    ProgressSink.none()))
        .hasMessage(
            "namespace "
                + RUN.namespace()
                + " already exists and is active; validate never reuses a namespace");
  }

  @Test
  @DisplayName(
      "cleanup: reverse order, only objects with this run's label, and a second run changes nothing")
  void cleanupTwice() {
    String ns = RUN.namespace();
    CreatedObjects ledger = new CreatedObjects();
    cluster.createNamespace(RUN, ns, ledger, Duration.ofSeconds(5), ProgressSink.none());
    DefaultDeployment d =
        new DefaultDeployment(
            RUN, "nvidia.com/v1alpha1", ns, "m", 1, "n", List.of(), "i:1", null, null);
    cluster.createDgd(new DgdApi("nvidia.com", List.of("v1alpha1")), d.manifest(), ledger);
    ledger.record(new CreatedObject("v1", "ConfigMap", ns, "cm", "benchplan.dev/run-id", "r1"));
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("cm")
                .addToLabels("benchplan.dev/run-id", "r1")
                .endMetadata()
                .build())
        .create();
    ledger.record(new CreatedObject("batch/v1", "Job", ns, "job", "benchplan.dev/run-id", "r1"));
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace(ns)
        .resource(
            new JobBuilder()
                .withNewMetadata()
                .withName("job")
                .addToLabels("benchplan.dev/run-id", "r1")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withImage("x:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    // recorded but never created: counted as already gone
    ledger.record(
        new CreatedObject("v1", "ConfigMap", ns, "never-made", "benchplan.dev/run-id", "r1"));

    CleanupReport first = cluster.cleanup(ledger, Duration.ofSeconds(5), ProgressSink.none());
    assertThat(first.deleted())
        .containsExactly(
            "Job " + ns + "/job",
            "ConfigMap " + ns + "/cm",
            "DynamoGraphDeployment " + ns + "/benchplan-validate",
            "Namespace " + ns);
    assertThat(first.alreadyGone()).containsExactly("ConfigMap " + ns + "/never-made");
    assertThat(first.complete()).isTrue();
    assertThat(client.namespaces().withName(ns).get()).isNull();

    CleanupReport second = cluster.cleanup(ledger, Duration.ofSeconds(5), ProgressSink.none());
    assertThat(second.deleted()).isEmpty();
    assertThat(second.alreadyGone()).hasSize(5);
    assertThat(second.complete()).isTrue();
  }

  @Test
  @DisplayName("cleanup never deletes an object that lacks this run's label")
  void notOurs() {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName("someone-elses")
                .endMetadata()
                .build())
        .create();
    CreatedObjects ledger = new CreatedObjects();
    ledger.record(
        new CreatedObject(
            "v1", "Namespace", null, "someone-elses", ValidateRun.RUN_LABEL, RUN.runId()));
    CleanupReport r = cluster.cleanup(ledger, Duration.ofSeconds(5), ProgressSink.none());
    assertThat(r.skipped())
        .singleElement()
        .asString()
        .isEqualTo(
            "Namespace someone-elses (no label benchplan.dev/validate-run="
                + RUN.runId()
                + ": not ours)");
    assertThat(client.namespaces().withName("someone-elses").get()).isNotNull();
  }

  @Test
  @DisplayName(
      "readiness: waits (watching) for successful + every worker ready, then finds the frontend Service")
  void readiness() throws Exception {
    String ns = "ready-ns";
    DgdApi api = new DgdApi("nvidia.com", List.of("v1alpha1"));
    DefaultDeployment d =
        new DefaultDeployment(
            RUN,
            api.apiVersion(),
            ns,
            "Qwen/Qwen3-0.6B",
            2,
            "n",
            List.of(),
            ValidateOptions.DEFAULT_RUNTIME_IMAGE,
            null,
            null);
    cluster.createDgd(api, d.manifest(), new CreatedObjects());
    BlockingQueue<String> updates = new LinkedBlockingQueue<>();
    CompletableFuture<DgdCandidate> ready =
        CompletableFuture.supplyAsync(
            () ->
                cluster.awaitReady(
                    api, ns, d.name(), d.desiredWorkers(), Duration.ofSeconds(20), updates::add));
    // each state is asserted once the waiter has seen it (its progress update), not after a pause
    awaitUpdate(updates, "state not reported");
    assertThat(ready).isNotDone();
    setStatus(ns, d.name(), "successful", 1); // one of two workers ready: not yet
    awaitUpdate(updates, "VllmDecodeWorker 1/");
    assertThat(ready).isNotDone();
    setStatus(ns, d.name(), "successful", 2);
    awaitUpdate(updates, "DGD successful; waiting for its frontend Service");
    assertThat(ready).isNotDone(); // no frontend Service yet
    MockDgds.frontend(client, ns, "benchplan-validate-frontend", Map.of());
    DgdCandidate c = ready.get(20, TimeUnit.SECONDS);
    assertThat(c.frontend().service().name()).isEqualTo("benchplan-validate-frontend");
    assertThat(c.dgd().successful()).isTrue();
  }

  @Test
  @DisplayName("readiness timeout names the state and the ready counts")
  void readinessTimeout() {
    String ns = "slow-ns";
    DgdApi api = new DgdApi("nvidia.com", List.of("v1alpha1"));
    DefaultDeployment d =
        new DefaultDeployment(RUN, api.apiVersion(), ns, "m", 4, "n", List.of(), "i:1", null, null);
    cluster.createDgd(api, d.manifest(), new CreatedObjects());
    setStatus(ns, d.name(), "pending", 3);
    assertThatThrownBy(
            () ->
                cluster.awaitReady(
                    api, ns, d.name(), d.desiredWorkers(), SHORT_BOUND, ProgressSink.none()))
        .hasMessage(
            "DGD slow-ns/benchplan-validate not ready after 3.0s: component VllmDecodeWorker 3/4"
                + " ready (ready/spec); state pending, Frontend 1/1 ready, VllmDecodeWorker 3/4"
                + " ready");
  }

  /** Waits (20 s at most) for a progress update of the waiter containing {@code expected}. */
  private static void awaitUpdate(BlockingQueue<String> updates, String expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    List<String> seen = new ArrayList<>();
    String s;
    while ((s = updates.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) != null) {
      seen.add(s);
      if (s.contains(expected)) {
        return;
      }
    }
    throw new AssertionError("no progress update containing '" + expected + "'; saw " + seen);
  }

  private void setStatus(String ns, String name, String state, int ready) {
    setStatus(ns, name, state, 1, ready);
  }

  private void setStatus(String ns, String name, String state, int frontendReady, int ready) {
    var ops = client.genericKubernetesResources(MockDgds.V1ALPHA1).inNamespace(ns);
    GenericKubernetesResource r = ops.withName(name).get();
    r.setAdditionalProperty(
        "status",
        Map.of(
            "state",
            state,
            "services",
            Map.of(
                "VllmDecodeWorker",
                Map.of("readyReplicas", ready, "replicas", ready),
                "Frontend",
                Map.of("readyReplicas", frontendReady, "replicas", 1))));
    ops.resource(r).update();
  }

  @Test
  @DisplayName(
      "readiness: a successful DGD whose Frontend has 0 ready replicas is not ready; the timeout names it (ready/spec)")
  void frontendCounts() {
    String ns = "fe-ns";
    DgdApi api = new DgdApi("nvidia.com", List.of("v1alpha1"));
    DefaultDeployment d =
        new DefaultDeployment(RUN, api.apiVersion(), ns, "m", 2, "n", List.of(), "i:1", null, null);
    cluster.createDgd(api, d.manifest(), new CreatedObjects());
    setStatus(ns, d.name(), "successful", 0, 2);
    MockDgds.frontend(client, ns, "benchplan-validate-frontend", Map.of());
    assertThatThrownBy(
            () ->
                cluster.awaitReady(
                    api, ns, d.name(), d.desiredWorkers(), SHORT_BOUND, ProgressSink.none()))
        .hasMessage(
            "DGD fe-ns/benchplan-validate not ready after 3.0s: component Frontend 0/1 ready"
                + " (ready/spec); state successful, Frontend 0/1 ready, VllmDecodeWorker 2/2 ready");
  }

  @Test
  @DisplayName(
      "an existing DGD: successful with a worker at 0 ready replicas waits, then fails naming the worker; ready once it has them")
  void existingDgdComponents() throws Exception {
    String ns = "existing-ns";
    DgdApi api = new DgdApi("nvidia.com", List.of("v1alpha1"));
    DefaultDeployment d =
        new DefaultDeployment(RUN, api.apiVersion(), ns, "m", 1, "n", List.of(), "i:1", null, null);
    cluster.createDgd(api, d.manifest(), new CreatedObjects());
    setStatus(ns, d.name(), "successful", 1, 0);
    assertThatThrownBy(
            () -> cluster.awaitComponentsReady(api, ns, d.name(), SHORT_BOUND, ProgressSink.none()))
        .hasMessage(
            "DGD existing-ns/benchplan-validate not ready after 3.0s: component VllmDecodeWorker"
                + " 0/1 ready (ready/spec); state successful, Frontend 1/1 ready, VllmDecodeWorker"
                + " 0/1 ready");
    BlockingQueue<String> updates = new LinkedBlockingQueue<>();
    CompletableFuture<dev.benchplan.validate.DgdView> ready =
        CompletableFuture.supplyAsync(
            () ->
                cluster.awaitComponentsReady(
                    api, ns, d.name(), Duration.ofSeconds(20), updates::add));
    awaitUpdate(updates, "VllmDecodeWorker 0/");
    assertThat(ready).isNotDone();
    setStatus(ns, d.name(), "successful", 1, 1);
    assertThat(ready.get(20, TimeUnit.SECONDS).ready()).isTrue();
  }
}
