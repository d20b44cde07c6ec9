package dev.benchplan.kube.run;

import dev.benchplan.run.ShutdownHooks;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Ctrl-C while a run has objects in the cluster, for both engines: the engine's handler runs on the
 * shutdown hook and marks the run interrupted where its order needs it (the watching thread then
 * stops and throws); closing unregisters the hook.
 */
final class RunGuard implements AutoCloseable {
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private AutoCloseable hook = () -> {};

  private RunGuard() {}

  /** Registers {@code onInterrupt} (given this guard) with {@code hooks}. */
  static RunGuard register(ShutdownHooks hooks, Consumer<RunGuard> onInterrupt) {
    RunGuard guard = new RunGuard();
    guard.hook = hooks.onInterrupt(() -> onInterrupt.accept(guard));
    return guard;
  }

  /** Marks the run interrupted: what the watching thread checks. */
  void interrupt() {
    interrupted.set(true);
  }

  boolean interrupted() {
    return interrupted.get();
  }

  @Override
  public void close() {
    try {
      hook.close();
    } catch (Exception e) {
      // unregistering only fails while the JVM is already shutting down: the hook then cleans up
    }
  }
}
