package dev.benchplan.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A fresh inference worker's first completion, for test endpoints: it takes a warm-up time (the
 * worker compiles and warms up on its first inference), and a newer request (the client gave up and
 * retried) loses the warm-up in progress, which starts over for the newer one, as AICR saw on RTX
 * PRO 6000 (~42-45 s against a 30 s cut). Once warm, every request is answered at once.
 */
public final class ColdStart {
  private final long warmUpNanos;
  private long generation; // guarded by this
  private boolean warm; // guarded by this
  private int lost; // guarded by this

  /** A worker whose first completion takes {@code warmUp}; zero: warm from the start. */
  public ColdStart(Duration warmUp) {
    this.warmUpNanos = warmUp.toNanos();
    this.warm = warmUpNanos <= 0;
  }

  /**
   * Holds one request until the worker is warm: true to answer it now, false when a newer request
   * arrived first (this one's warm-up is lost: drop it, as a real worker does).
   */
  public synchronized boolean await() throws InterruptedException {
    long mine = ++generation;
    notifyAll(); // an older request still warming up has lost
    if (warm) {
      return true;
    }
    long end = System.nanoTime() + warmUpNanos;
    while (generation == mine) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        warm = true;
        return true;
      }
      // the warm-up time is the behaviour simulated; a newer request ends the wait at once
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    lost++;
    return false;
  }

  /** Whether a first completion has been answered. */
  public synchronized boolean warm() {
    return warm;
  }

  /** How many requests lost their warm-up to a newer one. */
  public synchronized int lost() {
    return lost;
  }
}
