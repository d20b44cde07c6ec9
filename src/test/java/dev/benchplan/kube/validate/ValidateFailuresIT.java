package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdView;
import dev.benchplan.validate.ValidateResult;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/**
 * A failure injected at each step of the auto-deploy path; after each, nothing validate created
 * remains and the verdict names the step.
 */
@KubeTestEnv
class ValidateFailuresIT {
  static FakeKubelet kubelet;
  static String tag;
  static String role;
  @TempDir Path dir;

  @BeforeAll
  static void setUp(KubeTestContext kube) {
    tag = kube.namespace();
    kubelet =
        kube.startKubelet(
            KubeTestContext.Scope.ALL_NAMESPACES,
            FakeNode.withGpus(tag + "-gpu", 2).withLabel("benchplan.dev/validate-it", tag));
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
    role = "benchplan-validate-it-" + tag;
  }

  @AfterAll
  static void tearDown(KubeTestContext kube) {
    kube.client().rbac().clusterRoleBindings().withName(role).delete();
    kube.client().rbac().clusterRoles().withName(role).delete();
  }

  static Map<String, String> selector() {
    return Map.of("benchplan.dev/validate-it", tag);
  }

  @Test
  @DisplayName(
      "namespace creation denied by RBAC: exit 3 before the deployment starts, naming it; nothing created")
  void namespaceDenied(KubeTestContext kube) {
    // everything validate reads, but no right to create namespaces
    kube.client()
        .rbac()
        .clusterRoles()
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(role)
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("nodes", "pods", "namespaces", "services")
                .withVerbs("get", "list", "watch")
                .endRule()
                .addNewRule()
                .withApiGroups("nvidia.com")
                .withResources("dynamographdeployments")
                .withVerbs("get", "list", "watch")
                .endRule()
                .build())
        .create();
    kube.client()
        .rbac()
        .clusterRoleBindings()
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(role)
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("ClusterRole")
                .withName(role)
                .endRoleRef()
                .addNewSubject()
                .withKind("User")
                .withName("benchplan-user")
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .create();
    KubernetesClient user = kube.userClient();
    ValidateResult r =
        ValidateItSupport.service(
                user, new ValidateItSupport.RecordingRunner(), new StringWriter(), c -> c)
            .execute(
                ValidateItSupport.options(
                    kube.namespace(), null, selector(), dir, ValidateItSupport.fast()));
    assertThat(r.exitCode()).isEqualTo(3);
    // the deployment's permissions are asked of the API server at its first step, before anything
    // is created
    assertThat(r.verdictDocument().failedStep()).isEqualTo("old-namespaces");
    assertThat(r.verdictDocument().reason())
        .contains(
            "permission(s) validate with its default deployment" + " needs, so nothing was created")
        .contains("create namespaces (validate deploy: the run's fresh namespace)")
        .contains("benchplan rbac validate");
    ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
  }

  @Test
  @DisplayName(
      "DGD rejected by the real CRD (422): invalid object, exit 2 at step deploy; the namespace is deleted")
  void dgdRejected(KubeTestContext kube) {
    ValidateResult r =
        ValidateItSupport.service(
                kube.client(),
                new ValidateItSupport.RecordingRunner(),
                new StringWriter(),
                c ->
                    new ForwardingCluster(c) {
                      @Override
                      public DgdView createDgd(
                          DgdApi api, ObjectNode manifest, CreatedObjects ledger) {
                        ((ObjectNode) manifest.get("spec"))
                            .put("backendFramework", "tensorflow"); // not in the CRD's enum
                        return super.createDgd(api, manifest, ledger);
                      }
                    })
            .execute(
                ValidateItSupport.options(
                    kube.namespace(), null, selector(), dir, ValidateItSupport.fast()));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("deploy");
    assertThat(r.verdictDocument().reason()).contains("HTTP 422").contains("backendFramework");
    assertThat(r.verdictDocument().cleanup().deleted().toString()).contains("Namespace");
    ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
  }

  @Test
  @DisplayName(
      "workers that never start: readiness times out (exit 3 at step readiness), DGD and namespace deleted")
  void readinessTimeout(KubeTestContext kube) {
    kubelet.when(
        FakeKubelet.namePrefix("benchplan-validate-vllmdecodeworker"), PodScript.stayPending());
    try {
      StringWriter err = new StringWriter();
      ValidateResult r =
          ValidateItSupport.service(
                  kube.client(), new ValidateItSupport.RecordingRunner(), err, c -> c)
              .execute(
                  ValidateItSupport.options(
                      kube.namespace(),
                      null,
                      selector(),
                      dir,
                      ValidateItSupport.fast().withDgdReady(Duration.ofSeconds(4))));
      assertThat(r.exitCode()).isEqualTo(3);
      assertThat(r.verdictDocument().failedStep()).isEqualTo("readiness");
      assertThat(r.verdictDocument().reason())
          .contains("not ready after 4.0s")
          .contains("0/2 ready");
      assertThat(err.toString()).contains("validate [readiness]").contains("/ 4.0s");
      assertThat(r.verdictDocument().cleanup().deleted().toString())
          .contains("DynamoGraphDeployment")
          .contains("Namespace");
      ValidateItSupport.assertNothingLeft(kube.client(), r.verdictDocument().runId());
    } finally {
      kubelet.when(
          FakeKubelet.namePrefix("benchplan-validate-vllmdecodeworker"), PodScript.runForever());
    }
  }

  @Test
  @DisplayName(
      "no free GPU on the selected nodes: exit 3 at node-selection naming each node, nothing created")
  void noFreeGpu(KubeTestContext kube) {
    ValidateResult r =
        ValidateItSupport.service(
                kube.client(), new ValidateItSupport.RecordingRunner(), new StringWriter(), c -> c)
            .execute(
                ValidateItSupport.options(
                    kube.namespace(),
                    null,
                    Map.of("benchplan.dev/validate-it", "no-such-pool"),
                    dir,
                    ValidateItSupport.fast()));
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.verdictDocument().failedStep()).isEqualTo("node-selection");
    assertThat(r.verdictDocument().reason()).contains("matching --node-selector");
    assertThat(r.verdictDocument().cleanup().created()).isEmpty();
  }
}
