package dev.benchplan.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for a condition that no event announces (a file another process writes, an API server's
 * audit log, a permission the authorizer's cache grants): polls it until it holds and fails naming
 * what it waited for when it does not in time. Where the code under test or a test double offers an
 * event (a latch, a future, a watch), wait on that instead.
 */
public final class Await {
  private static final long FIRST_PAUSE_MILLIS = 5;
  private static final long LONGEST_PAUSE_MILLIS = 250;

  private Await() {}

  /**
   * Returns once {@code condition} holds; an {@link AssertionError} naming {@code what} after
   * {@code timeout}.
   */
  public static void until(String what, Duration timeout, BooleanSupplier condition) {
    poll(what, timeout, condition::getAsBoolean, Boolean::booleanValue, false);
  }

  /**
   * Reads until {@code done} holds for what {@code read} returns, and returns that value; an {@link
   * AssertionError} naming {@code what} and the last value read after {@code timeout}.
   */
  public static <T> T value(
      String what, Duration timeout, Supplier<T> read, Predicate<? super T> done) {
    return poll(what, timeout, read, done, true);
  }

  private static <T> T poll(
      String what,
      Duration timeout,
      Supplier<T> read,
      Predicate<? super T> done,
      boolean showLast) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      T last = read.get();
      if (done.test(last)) {
        return last;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "timed out after "
                + timeout.toMillis()
                + " ms waiting for "
                + what
                + (showLast ? "; last: " + last : ""));
      }
      try {
        // the poll pause (5 ms doubling to 250 ms): nothing announces the change being waited for
        Thread.sleep(Math.min(pause, left / 1_000_000 + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
      pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
    }
  }
}
