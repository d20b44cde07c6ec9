package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The controllers of kube-controller-manager beyond the Job's, with no stand-in running: what a
 * namespace's life needs on a real cluster (protection finalizers lifted, service accounts made).
 */
@KubeTestEnv
class ControllersIT {
  @Test
  @DisplayName(
      "a namespace holding a PVC (with the pvc-protection finalizer) is gone within a minute of its"
          + " deletion")
  void namespaceWithClaimGoes(KubeTestContext kube) {
    KubernetesClient client = kube.client();
    String ns = kube.createNamespace("pvc-ns");
    PersistentVolumeClaim claim =
        client
            .persistentVolumeClaims()
            .inNamespace(ns)
            .resource(
                new PersistentVolumeClaimBuilder()
                    .withNewMetadata()
                    .withName("model-cache")
                    .endMetadata()
                    .withNewSpec()
                    .withAccessModes("ReadWriteOnce")
                    .withStorageClassName("no-provisioner")
                    .withNewResources()
                    .addToRequests("storage", new Quantity("1Gi"))
                    .endResources()
                    .endSpec()
                    .build())
            .create();
    // the admission plugin adds the finalizer; only the controller takes it away
    assertThat(claim.getMetadata().getFinalizers()).contains("kubernetes.io/pvc-protection");

    client.namespaces().withName(ns).delete();

    client.namespaces().withName(ns).waitUntilCondition(n -> n == null, 60, TimeUnit.SECONDS);
    assertThat(client.persistentVolumeClaims().inNamespace(ns).withName("model-cache").get())
        .isNull();
  }

  @Test
  @DisplayName(
      "a deleted PersistentVolume no claim binds loses its pv-protection finalizer and goes")
  void volumeGoes(KubeTestContext kube) {
    KubernetesClient client = kube.client();
    String name = kube.namespace() + "-pv";
    PersistentVolume pv =
        client
            .persistentVolumes()
            .resource(
                new PersistentVolumeBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .endMetadata()
                    .withNewSpec()
                    .withAccessModes("ReadWriteOnce")
                    .addToCapacity("storage", new Quantity("1Gi"))
                    .withNewHostPath()
                    .withPath("/nonexistent/" + name)
                    .endHostPath()
                    .endSpec()
                    .build())
            .create();
    assertThat(pv.getMetadata().getFinalizers()).contains("kubernetes.io/pv-protection");

    client.persistentVolumes().withName(name).delete();

    client
        .persistentVolumes()
        .withName(name)
        .waitUntilCondition(p -> p == null, 60, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("a new namespace gets its default ServiceAccount and that account a token Secret")
  void defaultServiceAccount(KubeTestContext kube) {
    KubernetesClient client = kube.client();
    String ns = kube.createNamespace("sa-ns");

    ServiceAccount sa =
        client
            .serviceAccounts()
            .inNamespace(ns)
            .withName("default")
            .waitUntilCondition(s -> s != null && !s.getSecrets().isEmpty(), 60, TimeUnit.SECONDS);

    String secret = sa.getSecrets().get(0).getName();
    var token = client.secrets().inNamespace(ns).withName(secret).get();
    assertThat(token.getType()).isEqualTo("kubernetes.io/service-account-token");
    assertThat(token.getData()).containsKeys("token", "ca.crt", "namespace");
  }
}
