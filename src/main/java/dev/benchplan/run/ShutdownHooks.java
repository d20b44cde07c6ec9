package dev.benchplan.run;

/**
 * Registers what must happen if the process is interrupted (Ctrl-C, SIGTERM) mid-run: the cleanup.
 * The JVM implementation exits with code 3 after the action; tests trigger the action themselves.
 */
public interface ShutdownHooks {
  /** Registers {@code action}; closing the handle unregisters it (the run ended normally). */
  AutoCloseable onInterrupt(Runnable action);

  /** The JVM's shutdown hooks (run and validate): runs the action, then halts with exit code 3. */
  static ShutdownHooks jvm() {
    return action -> {
      Thread hook =
          new Thread(
              () -> {
                action.run();
                // the run did not end on its own: exit 3 (run error) once the cluster is cleaned up
                Runtime.getRuntime().halt(dev.benchplan.error.ExitCode.RUNTIME);
              },
              "benchplan-run-cleanup");
      Runtime.getRuntime().addShutdownHook(hook);
      return () -> {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook is already running or about to: it does the cleanup
        }
      };
    };
  }
}
