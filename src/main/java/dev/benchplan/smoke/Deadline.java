package dev.benchplan.smoke;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The one time limit of a smoke test. The JDK client's request timeout stops at the response
 * headers, so a body that trickles forever is bounded here: a timer closes the body stream when the
 * deadline passes, which wakes the blocked read.
 */
final class Deadline implements AutoCloseable {
  private final Duration timeout;
  private final long endNanos;
  private @Nullable ScheduledExecutorService timer;

  Deadline(Duration timeout, long startNanos) {
    this.timeout = timeout;
    this.endNanos = startNanos + timeout.toNanos();
  }

  Duration timeout() {
    return timeout;
  }

  long remainingNanos() {
    return endNanos - System.nanoTime();
  }

  boolean expired() {
    return remainingNanos() <= 0;
  }

  /** What is left, at least one millisecond (the JDK rejects a zero timeout). */
  Duration remaining() {
    return Duration.ofNanos(Math.max(remainingNanos(), TimeUnit.MILLISECONDS.toNanos(1)));
  }

  /** Closes in when the deadline passes, unless the returned guard is closed first. */
  Guard guard(InputStream in) {
    if (timer == null) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "benchplan-smoke-deadline");
                t.setDaemon(true);
                return t;
              });
    }
    Guard guard = new Guard(in);
    guard.future = timer.schedule(guard::fire, Math.max(remainingNanos(), 0), TimeUnit.NANOSECONDS);
    return guard;
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  /** A body stream watched by the deadline. */
  static final class Guard implements AutoCloseable {
    private final InputStream in;
    private final AtomicBoolean fired = new AtomicBoolean();
    private @Nullable ScheduledFuture<?> future;

    private Guard(InputStream in) {
      this.in = in;
    }

    private void fire() {
      fired.set(true);
      try {
        in.close();
      } catch (IOException ignored) {
        // the reader sees the end of the stream either way and checks fired()
      }
    }

    /** True when the deadline closed the stream. */
    boolean fired() {
      return fired.get();
    }

    @Override
    public void close() {
      ScheduledFuture<?> scheduled = future;
      if (scheduled != null) { // set as soon as the guard is made
        scheduled.cancel(false);
      }
    }
  }
}
