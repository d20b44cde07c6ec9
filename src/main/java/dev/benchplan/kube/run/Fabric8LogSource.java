package dev.benchplan.kube.run;

import dev.benchplan.kube.ApiErrors;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/** Pod logs through the API server ({@code pods/log}). */
final class Fabric8LogSource implements PodLogSource {
  private final KubernetesClient client;

  Fabric8LogSource(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public String fetch(String namespace, String pod, String container) {
    try {
      String log = client.pods().inNamespace(namespace).withName(pod).inContainer(container).getLog();
      return log == null ? "" : log;
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("read the log of pod " + namespace + "/" + pod + " container " + container, e);
    }
  }

  @Override
  public AutoCloseable follow(String namespace, String pod, String container, Consumer<String> chunks) {
    OutputStream sink = new OutputStream() {
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
      LogWatch watch = client.pods().inNamespace(namespace).withName(pod).inContainer(container).watchLog(sink);
      return watch::close;
    } catch (KubernetesClientException e) {
      return () -> {}; // progress only: a log we cannot follow is not a run failure
    }
  }
}
