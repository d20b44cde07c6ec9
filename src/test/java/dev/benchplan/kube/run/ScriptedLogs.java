package dev.benchplan.kube.run;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A {@link PodLogSource} for the mock server (which serves no logs): the test sets each pod's log.
 */
final class ScriptedLogs implements PodLogSource {
  private final Map<String, String> logs = new ConcurrentHashMap<>();
  private volatile String fallback;

  ScriptedLogs set(String pod, String log) {
    logs.put(pod, log);
    return this;
  }

  /** The log of any pod without its own. */
  ScriptedLogs always(String log) {
    this.fallback = log;
    return this;
  }

  @Override
  public String fetch(String namespace, String pod, String container) {
    String log = logs.getOrDefault(pod, fallback);
    if (log == null) {
      throw dev.benchplan.error.BenchplanException.runtime("no log for pod " + pod);
    }
    return log;
  }

  @Override
  public AutoCloseable follow(
      String namespace, String pod, String container, Consumer<String> chunks) {
    chunks.accept("Profiling: 32/64 |#####     | 50% [02:07<02:07]\n");
    return () -> {};
  }
}
