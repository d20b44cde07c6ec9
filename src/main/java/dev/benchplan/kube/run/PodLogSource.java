package dev.benchplan.kube.run;

import java.util.function.Consumer;

/**
 * Where a pod's container log comes from. The real one reads through the API server; tests against
 * the mock server (which serves no logs) script one.
 */
public interface PodLogSource {
  /** The container's whole log (the container has terminated). */
  String fetch(String namespace, String pod, String container);

  /**
   * Follows the container's log as it is written, handing each chunk to {@code chunks}; best effort
   * (used for progress only). Close the returned handle to stop.
   */
  AutoCloseable follow(String namespace, String pod, String container, Consumer<String> chunks);
}
