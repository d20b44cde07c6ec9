package dev.benchplan.io;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Work started on a daemon thread of its own while the caller goes on (on a two-core machine, the
 * second core), and its result taken later with what it threw rethrown as it was.
 */
public final class SideTask {
  private SideTask() {}

  /** Runs {@code work} on a daemon thread named {@code name}; {@link #joined} waits for it. */
  public static <T> FutureTask<T> start(String name, Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    t.start();
    return task;
  }

  /** The result of a task {@link #start} started; what it threw is thrown here, unwrapped. */
  public static <T> T joined(FutureTask<T> task) {
    try {
      return task.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + task, e);
    }
  }
}
