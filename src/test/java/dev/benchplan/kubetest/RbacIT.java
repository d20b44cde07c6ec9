package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Real RBAC: identities with a namespaced Role work in their namespace and are refused elsewhere
 * (the tool must work with namespaced permissions).
 */
@KubeTestEnv
class RbacIT {
  private static String otherNamespace;

  @BeforeAll
  static void grant(KubeTestContext kube, KubernetesClient admin) {
    otherNamespace = kube.createNamespace("rbac-other");
    admin
        .rbac()
        .roles()
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("benchmark-runner")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("pods", "pods/log", "configmaps", "services", "events")
                .withVerbs("get", "list", "watch", "create", "delete")
                .endRule()
                .addNewRule()
                .withApiGroups("batch")
                .withResources("jobs")
                .withVerbs("get", "list", "watch", "create", "delete")
                .endRule()
                .build())
        .create();
    admin
        .rbac()
        .roleBindings()
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("benchmark-runner")
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role")
                .withName("benchmark-runner")
                .endRoleRef()
                .addNewSubject()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("User")
                .withName("benchplan-user")
                .endSubject()
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("runner")
                .withNamespace(kube.namespace())
                .endSubject()
                .build())
        .create();
  }

  @Test
  @DisplayName(
      "a user with a namespaced Role runs a Job in its namespace and is refused in another and cluster-wide")
  void userIsConfinedToItsNamespace(KubeTestContext kube) {
    KubernetesClient user = kube.userClient();
    FakeKubelet kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-node", 1));
    kubelet.when(
        FakeKubelet.labelled("job-name", "rbac-job"),
        PodScript.replayLog("ran as benchplan-user\n", 0));

    user.batch().v1().jobs().resource(JobLifecycleIT.job("rbac-job")).create();
    user.batch()
        .v1()
        .jobs()
        .withName("rbac-job")
        .waitUntilCondition(
            j ->
                j.getStatus() != null
                    && j.getStatus().getSucceeded() != null
                    && j.getStatus().getSucceeded() == 1,
            60,
            TimeUnit.SECONDS);
    String pod =
        user.pods()
            .withLabel("job-name", "rbac-job")
            .list()
            .getItems()
            .get(0)
            .getMetadata()
            .getName();
    assertThat(user.pods().withName(pod).getLog()).isEqualTo("ran as benchplan-user\n");

    assertThatThrownBy(() -> user.pods().inNamespace(otherNamespace).list())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403))
        // fabric8 wraps the API server's text in a URL (with the port) and a Status dump
        .hasMessageContaining("User \"benchplan-user\" cannot list resource \"pods\"");
    assertThatThrownBy(
            () ->
                user.configMaps()
                    .inNamespace(otherNamespace)
                    .resource(
                        new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName("x")
                            .endMetadata()
                            .build())
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
    assertThatThrownBy(() -> user.nodes().list())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
  }

  @Test
  @DisplayName(
      "a ServiceAccount token from the TokenRequest API carries the same namespaced limits")
  void serviceAccountIsConfined(KubeTestContext kube) {
    KubernetesClient sa = kube.clientWithToken(kube.serviceAccountToken("runner"));
    sa.configMaps()
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("sa-made")
                .endMetadata()
                .addToData("k", "v")
                .build())
        .create();
    assertThat(sa.configMaps().withName("sa-made").get().getData()).containsEntry("k", "v");
    assertThatThrownBy(() -> sa.configMaps().inNamespace(otherNamespace).list())
        .isInstanceOf(KubernetesClientException.class)
        // fabric8 wraps the API server's text in a URL (with the port) and a Status dump
        .hasMessageContaining("system:serviceaccount:" + kube.namespace() + ":runner");
    assertThatThrownBy(
            () -> kube.clientWithToken(kube.serviceAccountToken("not-bound")).configMaps().list())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(403));
  }
}
