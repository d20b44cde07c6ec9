package dev.benchplan.progress;

/** Where long waits report what they are waiting for; the sink adds elapsed time and bound. */
@FunctionalInterface
public interface ProgressSink {
  /** Reports the current state of the phase (printed only when it changed, or periodically). */
  void update(String status);

  /** A sink that drops everything. */
  static ProgressSink none() {
    return s -> {};
  }
}
