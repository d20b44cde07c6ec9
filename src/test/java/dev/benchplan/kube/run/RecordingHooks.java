package dev.benchplan.kube.run;

import dev.benchplan.run.ShutdownHooks;
import java.util.concurrent.atomic.AtomicReference;

/** {@link ShutdownHooks} for tests: keeps the registered action so a test can "press Ctrl-C". */
final class RecordingHooks implements ShutdownHooks {
  final AtomicReference<Runnable> registered = new AtomicReference<>();
  volatile boolean unregistered;

  @Override
  public AutoCloseable onInterrupt(Runnable action) {
    registered.set(action);
    unregistered = false;
    return () -> {
      unregistered = true;
      registered.set(null);
    };
  }

  /** Runs the registered action as the JVM would on SIGINT; false when none is registered. */
  boolean interrupt() {
    Runnable r = registered.get();
    if (r == null) {
      return false;
    }
    r.run();
    return true;
  }
}
