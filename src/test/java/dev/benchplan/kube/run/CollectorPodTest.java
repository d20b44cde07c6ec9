package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.artifacts.ArtifactChannel;
import dev.benchplan.json.Json;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.PodPaths;
import dev.benchplan.run.PerfYaml;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 33: the artifact collector pod is built with fabric8's typed builders from the typed Job
 * perf.yaml was read into; it is the pod the hand-built tree (kept here as the reference) was.
 */
class CollectorPodTest {
  @TempDir Path tmp;

  @Test
  @DisplayName(
      "the typed collector pod equals the former tree's: the Job's pull secrets, security context,"
          + " node selector, tolerations and service account, the claim read-only at its subPath")
  void typedEqualsTree() {
    RunFixture f = RunFixture.create(tmp, "bench", 50, 35);
    f.editJob(
        j -> {
          ((ObjectNode) j.at("/metadata/annotations"))
              .put(JobContract.ARTIFACTS, "pvc:results/runs");
          ObjectNode pod = (ObjectNode) j.at("/spec/template/spec");
          pod.putArray("imagePullSecrets").addObject().put("name", "regcred");
          pod.putObject("securityContext").put("runAsNonRoot", true).put("fsGroup", 1000);
          pod.putObject("nodeSelector").put("pool", "cpu");
          pod.putArray("tolerations")
              .addObject()
              .put("key", "bench")
              .put("operator", "Exists")
              .put("effect", "NoSchedule");
          pod.put("serviceAccountName", "bench-sa");
        });
    PerfYaml perf = PerfYaml.read(f.perfYaml());
    try (KubernetesClient k =
        new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1/").build())
            .build()) {
      ClusterAccess client = ClusterAccess.of(k);
      ArtifactCollector.Settings settings = ArtifactCollector.Settings.defaults();
      ArtifactCollector collector =
          new ArtifactCollector(
              client,
              "bench",
              perf,
              settings,
              new ProgressReporter((phase, t, d) -> {}, Clock.systemUTC(), Instant.now()));
      Pod typed = collector.podSpec("collect-1", 7);
      Pod fromTree =
          client.unmarshal(
              Json.JSON.writeValueAsString(tree(f.job, "collect-1", 7, settings)), Pod.class);
      assertThat(client.asJson(typed)).isEqualTo(client.asJson(fromTree));
      assertThat(typed.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName())
          .isEqualTo("results");
      assertThat(typed.getSpec().getContainers().get(0).getVolumeMounts().get(0).getSubPath())
          .isEqualTo("runs");
    }
  }

  /** The collector pod as ArtifactCollector built it as a tree before issue 33. */
  private static ObjectNode tree(
      ObjectNode job, String name, long first, ArtifactCollector.Settings settings) {
    JsonNode jobPod = job.path("spec").path("template").path("spec");
    ObjectNode pod = Json.JSON.createObjectNode();
    pod.put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata");
    meta.put("name", name).put("namespace", "bench");
    ObjectNode labels = meta.putObject("labels");
    labels.put(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE);
    labels.put(JobContract.RUN_ID, RunFixture.RUN_ID);
    labels.put(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE);
    ObjectNode spec = pod.putObject("spec");
    spec.put("restartPolicy", "Never");
    spec.put("activeDeadlineSeconds", Math.max(1, settings.podBound().toSeconds()));
    for (String copied :
        List.of(
            "imagePullSecrets",
            "securityContext",
            "nodeSelector",
            "tolerations",
            "serviceAccountName")) {
      if (jobPod.has(copied)) {
        spec.set(copied, jobPod.get(copied).deepCopy());
      }
    }
    ObjectNode c = spec.putArray("containers").addObject();
    c.put("name", ArtifactCollector.CONTAINER);
    c.put("image", RunFixture.IMAGE);
    c.putArray("command")
        .add("bash")
        .add("-c")
        .add(
            "py=\"$(command -v python3 || command -v python)\" || exit 127; exec \"$py\" -c \"$0\" \"$@\"");
    c.putArray("args")
        .add(ArtifactChannel.encoderScript())
        .add(PodPaths.ARTIFACTS_ROOT + "/" + RunFixture.RUN_ID)
        .add("0")
        .add(Long.toString(first))
        .add(Integer.toString(settings.chunksPerPart()));
    ObjectNode res = c.putObject("resources");
    res.putObject("requests").put("cpu", "100m").put("memory", "128Mi");
    res.putObject("limits").put("memory", "512Mi");
    c.putArray("volumeMounts")
        .addObject()
        .put("name", JobContract.ARTIFACTS_VOLUME)
        .put("mountPath", PodPaths.ARTIFACTS_ROOT)
        .put("readOnly", true)
        .put("subPath", "runs");
    spec.putArray("volumes")
        .addObject()
        .put("name", JobContract.ARTIFACTS_VOLUME)
        .putObject("persistentVolumeClaim")
        .put("claimName", "results")
        .put("readOnly", true);
    return pod;
  }
}
