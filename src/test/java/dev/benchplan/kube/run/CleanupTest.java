package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@org.junit.jupiter.api.extension.ExtendWith(dev.benchplan.kube.MockApiServer.class)
class CleanupTest {
  KubernetesClient client;

  @Test
  @DisplayName(
      "deletes the Job and ConfigMaps; a second run changes nothing; objects already gone are fine")
  void idempotent() {
    client
        .batch()
        .v1()
        .jobs()
        .inNamespace("bench")
        .resource(
            new JobBuilder()
                .withNewMetadata()
                .withName("bp-j")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewSpec()
                .addNewContainer()
                .withName("aiperf")
                .withImage("i")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    client
        .configMaps()
        .inNamespace("bench")
        .resource(
            new ConfigMapBuilder().withNewMetadata().withName("bp-j-config").endMetadata().build())
        .create();
    Cleanup c =
        new Cleanup(
            dev.benchplan.kube.ClusterAccess.of(client),
            "bench",
            "bp-j",
            List.of("bp-j-config", "bp-j-extra"),
            KubeRunService.Settings.CLI.cleanupWait());
    List<String> first = c.run();
    assertThat(first)
        .containsExactly(
            "Job bench/bp-j: deleted",
            "ConfigMap bench/bp-j-config: deleted",
            "ConfigMap bench/bp-j-extra: already gone");
    assertThat(c.run()).isSameAs(first);
    assertThat(client.batch().v1().jobs().inNamespace("bench").withName("bp-j").get()).isNull();
    assertThat(client.configMaps().inNamespace("bench").withName("bp-j-config").get()).isNull();
    Cleanup again =
        new Cleanup(
            dev.benchplan.kube.ClusterAccess.of(client),
            "bench",
            "bp-j",
            List.of("bp-j-config"),
            KubeRunService.Settings.CLI.cleanupWait());
    assertThat(again.run())
        .containsExactly(
            "Job bench/bp-j: already gone", "ConfigMap bench/bp-j-config: already gone");
    assertThat(Cleanup.clean(again.run())).isTrue();
  }
}
