package dev.benchplan.validate;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * Progress on stderr: one line when a phase starts, on every change of what it waits for (and at
 * most every {@link #HEARTBEAT} otherwise), and when it ends, each with elapsed time against the
 * phase's bound, e.g. {@code validate [readiness] 35.2s / 10m0s: state pending, worker 2/4 ready}.
 */
public final class PhaseProgress {
  /** The longest silence while a phase waits. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(30);

  private final PrintWriter err;
  private final Clock clock;
  private ValidateStep step;
  private Duration bound;
  private Instant started;
  private String last;
  private Instant lastPrinted;

  public PhaseProgress(PrintWriter err, Clock clock) {
    this.err = Objects.requireNonNull(err, "err");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Starts a phase; {@code bound} may be null for phases without a wait. */
  public synchronized void start(ValidateStep s, Duration b, String what) {
    step = s;
    bound = b;
    started = clock.instant();
    last = null;
    lastPrinted = started;
    print(what);
  }

  /** A sink for the current phase's waits. */
  public ProgressSink sink() {
    return this::update;
  }

  /** Reports the current state of the phase. */
  public synchronized void update(String status) {
    Instant now = clock.instant();
    if (status.equals(last) && Duration.between(lastPrinted, now).compareTo(HEARTBEAT) < 0) {
      return;
    }
    last = status;
    lastPrinted = now;
    print(status);
  }

  /** Ends the phase with an outcome line. */
  public synchronized Duration end(String outcome) {
    Duration elapsed = elapsed();
    print(outcome);
    return elapsed;
  }

  /** Time since the current phase started. */
  public synchronized Duration elapsed() {
    return started == null ? Duration.ZERO : Duration.between(started, clock.instant());
  }

  private void print(String msg) {
    String time = format(elapsed()) + (bound == null ? "" : " / " + format(bound));
    err.println("validate [" + (step == null ? "-" : step.id()) + "] " + time + ": " + msg);
    err.flush();
  }

  /** {@code 850ms}, {@code 35.2s}, {@code 10m0s}, {@code 1h2m}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + "ms";
    }
    if (ms < 60_000) {
      return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
    }
    long s = d.toSeconds();
    if (s < 3600) {
      return s / 60 + "m" + s % 60 + "s";
    }
    return s / 3600 + "h" + (s % 3600) / 60 + "m";
  }
}
