package dev.benchplan.kube.run;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** Pod logs through the API server ({@code pods/log}). */
final class Fabric8LogSource implements PodLogSource {
  private final ClusterAccess client;

  Fabric8LogSource(ClusterAccess client) {
    this.client = client;
  }

  @Override
  public String fetch(String namespace, String pod, String container) {
    try {
      String log = client.podLog(KubeCall.RUN_POD_LOG, namespace, pod, container);
      return log == null ? "" : log;
    } catch (KubernetesClientException e) {
      throw ApiErrors.map(
          "read the log of pod " + namespace + "/" + pod + " container " + container, e);
    }
  }

  @Override
  public AutoCloseable follow(
      String namespace, String pod, String container, Consumer<String> chunks) {
    OutputStream sink =
        new OutputStream() {
          @Override
          public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            chunks.accept(new String(b, off, len, StandardCharsets.UTF_8));
          }
        };
    try {
      return client.followPodLog(KubeCall.RUN_POD_LOG, namespace, pod, container, sink);
    } catch (KubernetesClientException e) {
      return () -> {}; // progress only: a log we cannot follow is not a run failure
    }
  }
}
