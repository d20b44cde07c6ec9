package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link KubeTestContext#dryRunApply}: the apiserver validates and defaults, nothing is stored. */
@KubeTestEnv
class ServerSideDryRunIT {
  private static final String PERF_YAML =
      """
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: bench-config
        labels: {app.kubernetes.io/managed-by: benchplan}
      data:
        aiperf-config.yaml: "model: Qwen/Qwen3-0.6B\\n"
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: bench
        labels: {app.kubernetes.io/managed-by: benchplan}
      spec:
        backoffLimit: 0
        template:
          spec:
            restartPolicy: %s
            containers:
            - name: aiperf
              image: aiperf:stand-in
              volumeMounts: [{name: config, mountPath: /config}]
            volumes:
            - name: config
              configMap: {name: bench-config}
      """;

  @Test
  @DisplayName(
      "a ConfigMap + Job document passes a server-side dry run, comes back defaulted, and is not stored")
  void validManifestPasses(KubeTestContext kube, KubernetesClient client) {
    List<HasMetadata> result = kube.dryRunApply(PERF_YAML.formatted("Never"));

    assertThat(result).extracting(HasMetadata::getKind).containsExactly("ConfigMap", "Job");
    Job job = (Job) result.get(1);
    assertThat(job.getMetadata().getNamespace()).isEqualTo(kube.namespace());
    assertThat(job.getSpec().getCompletions()).as("defaulted by the apiserver").isEqualTo(1);
    assertThat(
            job.getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getTerminationMessagePath())
        .isEqualTo("/dev/termination-log");
    assertThat(client.batch().v1().jobs().list().getItems()).isEmpty();
    assertThat(client.configMaps().withName("bench-config").get()).isNull();
  }

  @Test
  @DisplayName("a Job with restartPolicy Always is rejected by the dry run with the field named")
  void invalidJobIsRejected(KubeTestContext kube) {
    assertThatThrownBy(() -> kube.dryRunApply(PERF_YAML.formatted("Always")))
        .isInstanceOf(KubernetesClientException.class)
        // the API server's structured cause, whole: the field and its reason
        .satisfies(
            e ->
                assertThat(((KubernetesClientException) e).getStatus().getDetails().getCauses())
                    .extracting(c -> c.getField() + ": " + c.getReason())
                    .containsExactly("spec.template.spec.restartPolicy: FieldValueRequired"));
  }
}
