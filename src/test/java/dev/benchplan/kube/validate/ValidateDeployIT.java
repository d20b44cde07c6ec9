package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.testing.Await;
import dev.benchplan.validate.CleanupReport;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.DefaultDeployment;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.ValidateCluster;
import dev.benchplan.validate.ValidateResult;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * The auto-deploy path against the real API server: GPU node choice with the kubelet stand-in's
 * nodes, the default DGD accepted by the real CRD and driven by the operator stand-in, readiness,
 * and cleanup by the real namespace and garbage-collector controllers.
 */
@KubeTestEnv
class ValidateDeployIT {
  @TempDir Path dir;

  @BeforeAll
  static void operator(KubeTestContext kube) {
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
  }

  /** A label only this test's nodes carry, so other nodes in the shared cluster never qualify. */
  static Map<String, String> selector(KubeTestContext kube, String tag) {
    return Map.of("benchplan.dev/validate-it", kube.namespace() + "-" + tag);
  }

  static FakeNode node(KubeTestContext kube, String tag, String name, int gpus) {
    return FakeNode.withGpus(kube.namespace() + "-" + name, gpus)
        .withLabel("benchplan.dev/validate-it", kube.namespace() + "-" + tag);
  }

  /** Records the DGD manifest validate sends, on its way to the real cluster. */
  static final class ManifestTap {
    final AtomicReference<ObjectNode> manifest = new AtomicReference<>();

    ValidateCluster wrap(ValidateCluster c) {
      return new ForwardingCluster(c) {
        @Override
        public dev.benchplan.validate.DgdView createDgd(
            DgdApi api, ObjectNode m, CreatedObjects ledger) {
          manifest.set(m.deepCopy());
          return super.createDgd(api, m, ledger);
        }
      };
    }
  }

  @Test
  @DisplayName(
      "a node with 4 free GPUs: 4 workers pinned to it, concurrency 64, 200 requests; all cleaned up")
  void fourGpus(KubeTestContext kube) throws Exception {
    try (FakeKubelet kubelet =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(
                node(kube, "four", "gpu4", 4)
                    .withTaint("nvidia.com/gpu", "present", "NoSchedule")))) {
      assertThat(kubelet.nodes()).isNotEmpty();
      var runner = new ValidateItSupport.RecordingRunner();
      ManifestTap tap = new ManifestTap();
      StringWriter err = new StringWriter();
      ValidateResult r =
          ValidateItSupport.service(kube.client(), runner, err, tap::wrap)
              .execute(
                  ValidateItSupport.options(
                      kube.namespace(),
                      null,
                      selector(kube, "four"),
                      dir,
                      ValidateItSupport.fast()));
      assertThat(r.exitCode()).as(err.toString()).isZero();
      var req = runner.request.get();
      assertThat(req.target().origin()).isEqualTo("deployed");
      assertThat(req.target().workers()).isEqualTo(4);
      assertThat(req.target().node()).isEqualTo(kube.namespace() + "-gpu4");
      assertThat(req.shape().concurrency()).isEqualTo(64);
      assertThat(req.shape().requestCount()).isEqualTo(1000);
      assertThat(req.target().service()).isEqualTo("benchplan-validate-frontend");
      assertThat(req.target().namespace()).matches("benchplan-validate-[0-9a-f]{8}");
      ObjectNode m = tap.manifest.get();
      assertThat(m.path("apiVersion").asString()).isEqualTo("nvidia.com/v1alpha1");
      assertThat(m.path("spec").path("services").path("VllmDecodeWorker").path("replicas").asInt())
          .isEqualTo(4);
      assertThat(
              m.path("spec")
                  .path("services")
                  .path("VllmDecodeWorker")
                  .path("extraPodSpec")
                  .path("tolerations")
                  .get(0)
                  .path("key")
                  .asString())
          .isEqualTo("nvidia.com/gpu");
      assertThat(err.toString()).contains("validate [readiness]").contains("/ 1m0s");
      assertThat(r.verdictDocument().cleanup().deleted().toString())
          .contains("DynamoGraphDeployment")
          .contains("Namespace");
      ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
      assertThat(kube.client().namespaces().withName(req.target().namespace()).get()).isNull();
    }
  }

  @Test
  @DisplayName(
      "GPUs already taken count: the node with the most free GPUs wins; finished pods hold none")
  void someTaken(KubeTestContext kube) throws Exception {
    String a = kube.namespace() + "-gpua";
    String b = kube.namespace() + "-gpub";
    try (FakeKubelet kubelet =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(node(kube, "taken", "gpua", 8), node(kube, "taken", "gpub", 4)))) {
      assertThat(kubelet.nodes()).isNotEmpty();
      kubelet.when(FakeKubelet.namePrefix("busy-"), PodScript.runForever());
      kubelet.when(FakeKubelet.namePrefix("done-"), PodScript.succeed());
      gpuPod(kube, "busy-a", a, 6);
      gpuPod(kube, "done-b", b, 4);
      awaitPhase(kube, "busy-a", "Running");
      awaitPhase(kube, "done-b", "Succeeded");
      var runner = new ValidateItSupport.RecordingRunner();
      ValidateResult r =
          ValidateItSupport.service(kube.client(), runner, new StringWriter(), c -> c)
              .execute(
                  ValidateItSupport.options(
                      kube.namespace(),
                      null,
                      selector(kube, "taken"),
                      dir,
                      ValidateItSupport.fast()));
      assertThat(r.exitCode()).isZero();
      assertThat(runner.request.get().target().node()).isEqualTo(b);
      assertThat(runner.request.get().target().workers()).isEqualTo(4);
      assertThat(r.verdictDocument().deployment().nodesConsidered().toString())
          .contains(a + ": 8 allocatable, 6 requested, 2 free")
          .contains(b + ": 4 allocatable, 0 requested, 4 free");
      kube.client().pods().withName("busy-a").delete();
    }
  }

  static void gpuPod(KubeTestContext kube, String name, String node, int gpus) {
    kube.client()
        .pods()
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addToNodeSelector("kubernetes.io/hostname", node)
                .addNewContainer()
                .withName("main")
                .withImage("busy:1")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity(String.valueOf(gpus)))
                .endResources()
                .endContainer()
                .endSpec()
                .build())
        .create();
  }

  static void awaitPhase(KubeTestContext kube, String pod, String phase) {
    kube.client()
        .pods()
        .withName(pod)
        .waitUntilCondition(
            p -> p != null && p.getStatus() != null && phase.equals(p.getStatus().getPhase()),
            30,
            TimeUnit.SECONDS);
  }

  @Test
  @DisplayName(
      "an earlier validate namespace still terminating: the next validate waits for it, bounded")
  void previousNamespaceTerminating(KubeTestContext kube) throws Exception {
    String old =
        "benchplan-validate-" + kube.namespace().substring(kube.namespace().length() - 5) + "old";
    kube.client()
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(old)
                .addToLabels(ValidateRun.MANAGED_BY, "benchplan")
                .addToLabels(ValidateRun.COMPONENT, "validate")
                .endMetadata()
                .build())
        .create();
    // a finalizer keeps the namespace Terminating until the test lets it go
    kube.client()
        .configMaps()
        .inNamespace(old)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("hold")
                .addToFinalizers("benchplan.dev/test-hold")
                .endMetadata()
                .build())
        .create();
    kube.client().namespaces().withName(old).delete();
    kube.client()
        .namespaces()
        .withName(old)
        .waitUntilCondition(ValidateNamespaces::terminating, 10, TimeUnit.SECONDS);

    try (FakeKubelet kubelet =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(node(kube, "wait", "gw", 1)))) {
      assertThat(kubelet.nodes()).isNotEmpty();
      // bound too short: exit 3 at old-namespaces, nothing created
      var runner = new ValidateItSupport.RecordingRunner();
      ValidateResult early =
          ValidateItSupport.service(kube.client(), runner, new StringWriter(), c -> c)
              .execute(
                  ValidateItSupport.options(
                      kube.namespace(),
                      null,
                      selector(kube, "wait"),
                      dir,
                      ValidateItSupport.fast().withOldNamespace(Duration.ofSeconds(2))));
      assertThat(early.exitCode()).isEqualTo(3);
      assertThat(early.verdictDocument().failedStep()).isEqualTo("old-namespaces");
      assertThat(early.verdictDocument().reason()).contains(old).contains("still terminating");
      assertThat(early.verdictDocument().cleanup().created()).isEmpty();

      // long enough: waits, then proceeds once the old namespace is gone
      StringWriter err = new StringWriter();
      CompletableFuture<ValidateResult> later =
          CompletableFuture.supplyAsync(
              () ->
                  ValidateItSupport.service(kube.client(), runner, err, c -> c)
                      .execute(
                          ValidateItSupport.options(
                              kube.namespace(),
                              null,
                              selector(kube, "wait"),
                              dir,
                              ValidateItSupport.fast())));
      // the condition, not a clock: validate has said it waits for the old namespace
      String waiting = "waiting for an earlier validate namespace " + old;
      Await.until(
          "validate to say it waits for " + old + " (or to end)",
          Duration.ofSeconds(60),
          () -> err.toString().contains(waiting) || later.isDone());
      assertThat(err.toString()).contains(waiting);
      assertThat(later).isNotDone();
      releaseHold(kube, old);
      ValidateResult r = later.get(120, TimeUnit.SECONDS);
      assertThat(r.exitCode()).as(err.toString()).isZero();
      assertThat(r.verdictDocument().cleanup().created()).isNotEmpty();
    } finally {
      if (kube.client().configMaps().inNamespace(old).withName("hold").get() != null) {
        releaseHold(kube, old);
      }
    }
  }

  /**
   * Drops the test finalizer with a merge patch that carries no resourceVersion: the namespace
   * controller updates the Terminating ConfigMap concurrently, so a read-modify-write edit can lose
   * the race (409).
   */
  private static void releaseHold(KubeTestContext kube, String namespace) {
    kube.client()
        .configMaps()
        .inNamespace(namespace)
        .withName("hold")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
  }

  @Test
  @DisplayName(
      "cleanup run twice on the real API: the second finds everything gone and changes nothing")
  void cleanupTwice(KubeTestContext kube) {
    try (FakeKubelet kubelet =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(node(kube, "twice", "gt", 2)))) {
      assertThat(kubelet.nodes()).isNotEmpty();
      var cluster = new KubeValidateCluster(kube.client(), "it", DgdApi.GROUP, false);
      ValidateRun run = ValidateRun.start(Instant.now());
      CreatedObjects ledger = new CreatedObjects();
      cluster.createNamespace(
          run, run.namespace(), ledger, Duration.ofSeconds(30), ProgressSink.none());
      DgdApi api = cluster.dgdApi();
      DefaultDeployment d =
          new DefaultDeployment(
              run,
              api.apiVersion(),
              run.namespace(),
              "Qwen/Qwen3-0.6B",
              2,
              kube.namespace() + "-gt",
              List.of(),
              dev.benchplan.validate.ValidateOptions.DEFAULT_RUNTIME_IMAGE,
              null,
              null);
      cluster.createDgd(api, d.manifest(), ledger);
      cluster.awaitReady(
          api,
          run.namespace(),
          d.name(),
          d.desiredWorkers(),
          Duration.ofSeconds(60),
          ProgressSink.none());
      assertThat(kube.client().pods().inNamespace(run.namespace()).list().getItems()).hasSize(3);

      CleanupReport first = cluster.cleanup(ledger, Duration.ofSeconds(60), ProgressSink.none());
      assertThat(first.complete()).as(first.problems().toString()).isTrue();
      assertThat(first.deleted())
          .containsExactly(
              "DynamoGraphDeployment " + run.namespace() + "/benchplan-validate",
              "Namespace " + run.namespace());
      assertThat(kube.client().namespaces().withName(run.namespace()).get()).isNull();
      CleanupReport second = cluster.cleanup(ledger, Duration.ofSeconds(60), ProgressSink.none());
      assertThat(second.deleted()).isEmpty();
      assertThat(second.alreadyGone()).hasSize(2);
      assertThat(second.complete()).isTrue();
    }
  }
}
