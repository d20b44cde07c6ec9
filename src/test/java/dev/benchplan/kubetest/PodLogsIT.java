package dev.benchplan.kubetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Container logs travel the real path: fabric8 -> kube-apiserver {@code pods/log} -> HTTPS (CA
 * verified, client certificate required) -> the kubelet stand-in on 127.0.0.1.
 */
@KubeTestEnv
class PodLogsIT {
  private static FakeKubelet kubelet;

  @BeforeAll
  static void startKubelet(KubeTestContext kube) {
    kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-node", 4));
  }

  static Pod pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .addNewContainer()
        .withName("aiperf")
        .withImage("aiperf:stand-in")
        .endContainer()
        .endSpec()
        .build();
  }

  static Pod waitForPhase(KubernetesClient client, String name, String... phases) {
    List<String> wanted = List.of(phases);
    return client
        .pods()
        .withName(name)
        .waitUntilCondition(
            p -> p != null && p.getStatus() != null && wanted.contains(p.getStatus().getPhase()),
            30,
            TimeUnit.SECONDS);
  }

  /** An AIPerf pod log as perf.yaml's wrapper prints it, around the real summary export. */
  static String aiperfLog() throws IOException {
    Path summary = SharedData.require("aiperf/profile_export_aiperf.json");
    return AiperfPodLog.withSummary(Files.readString(summary, StandardCharsets.UTF_8), 0);
  }

  @Test
  @DisplayName(
      "getLog() through the apiserver returns exactly the replayed AIPerf log, summary JSON included")
  void getLogReturnsReplayedLog(KubernetesClient client) throws IOException {
    String log = aiperfLog();
    kubelet.when(FakeKubelet.namePrefix("replay-"), PodScript.replayLog(log, 0));
    client.pods().resource(pod("replay-1")).create();
    waitForPhase(client, "replay-1", "Succeeded");

    String served = client.pods().withName("replay-1").inContainer("aiperf").getLog();
    assertThat(served).isEqualTo(log);
    String json =
        served.substring(
            served.indexOf(AiperfPodLog.SUMMARY_BEGIN) + AiperfPodLog.SUMMARY_BEGIN.length() + 1,
            served.indexOf(AiperfPodLog.SUMMARY_END));
    assertThat(dev.benchplan.json.Json.JSON.readTree(json).has("output_token_throughput")).isTrue();
    assertThat(client.pods().withName("replay-1").tailingLines(1).getLog())
        .isEqualTo("==== benchplan:aiperf-exit:0 ====\n");
  }

  @Test
  @DisplayName("watchLog() follows a running container line by line and ends when it terminates")
  void watchLogFollows(KubernetesClient client) throws IOException {
    String log =
        IntStream.rangeClosed(1, 10)
            .mapToObj(i -> "line " + i + "\n")
            .collect(Collectors.joining());
    kubelet.when(
        FakeKubelet.namePrefix("stream-"),
        PodScript.replayLog(log, 0).streamingLinesEvery(Duration.ofMillis(500)));
    client.pods().resource(pod("stream-1")).create();
    waitForPhase(client, "stream-1", "Running");

    List<String> lines = new ArrayList<>();
    String phaseAtFirstLine;
    try (LogWatch watch = client.pods().withName("stream-1").inContainer("aiperf").watchLog();
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8))) {
      lines.add(reader.readLine());
      phaseAtFirstLine = client.pods().withName("stream-1").get().getStatus().getPhase();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line);
      }
    }

    assertThat(phaseAtFirstLine)
        .as("first line arrived while the container still ran")
        .isEqualTo("Running");
    assertThat(lines).containsExactlyElementsOf(log.lines().toList());
    assertThat(waitForPhase(client, "stream-1", "Succeeded").getStatus().getPhase())
        .isEqualTo("Succeeded");
  }

  @Test
  @DisplayName("the log of a container stuck in ImagePullBackOff is refused like a kubelet does")
  void logOfWaitingContainerIsRefused(KubernetesClient client) {
    kubelet.when(FakeKubelet.namePrefix("pull-"), PodScript.imagePullBackOff());
    client.pods().resource(pod("pull-1")).create();
    Pod waiting =
        client
            .pods()
            .withName("pull-1")
            .waitUntilCondition(
                p ->
                    p.getStatus().getContainerStatuses() != null
                        && !p.getStatus().getContainerStatuses().isEmpty(),
                30,
                TimeUnit.SECONDS);

    assertThat(waiting.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(
            waiting.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason())
        .isEqualTo("ImagePullBackOff");
    assertThatThrownBy(() -> client.pods().withName("pull-1").getLog())
        .isInstanceOf(KubernetesClientException.class)
        // fabric8 wraps the API server's text in a URL (with the port) and a Status dump
        .hasMessageContaining("is waiting to start");
  }
}
