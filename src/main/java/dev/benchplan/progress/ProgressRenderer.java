package dev.benchplan.progress;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one progress renderer: every command's progress on stderr in one line format, {@code
 * <command> [<phase>] <elapsed>[ / <bound>]: <detail>}, e.g. {@code validate [readiness] 35.2s /
 * 10m0s: state pending, worker 2/4 ready} or {@code run [Running] 1m5s: on node-1: Profiling: 40%}.
 * A line is printed when a phase starts, on every change of what it waits for (and at most every
 * {@link #HEARTBEAT} otherwise), and when it ends. Counters (bytes and rows of a scan) are rich
 * output: one line rewritten in place, only when stderr is a terminal, and erased when done.
 */
public final class ProgressRenderer implements ProgressSink, RunProgress {
  /** The longest silence while a phase waits. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(30);

  private static final long COUNTER_EVERY_NANOS = 250_000_000L;

  private final String command;
  private final PrintWriter err;
  private final Clock clock;
  private final boolean rich;
  private @Nullable String phase;
  private @Nullable Duration bound;
  private @Nullable Instant started;
  private @Nullable String last;
  private @Nullable Instant lastPrinted;
  private long counterShownAt;
  private boolean counterShown;

  /**
   * @param command the command as the user typed it, e.g. {@code validate}, {@code trace inspect}
   * @param rich whether stderr is a terminal (counters are rewritten in place only then)
   */
  public ProgressRenderer(String command, PrintWriter err, Clock clock, boolean rich) {
    this.command = Objects.requireNonNull(command, "command");
    this.err = Objects.requireNonNull(err, "err");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.rich = rich;
  }

  /** A renderer for {@code err}, rich when the process has a terminal. */
  @SuppressWarnings(
      "SystemConsoleNull") // Java 17: Console.isTerminal() (Java 22) does not exist; null is "no
  // terminal"
  public static ProgressRenderer forStderr(String command, PrintWriter err) {
    return new ProgressRenderer(command, err, Clock.systemUTC(), System.console() != null);
  }

  /** Whether counters are shown (stderr is a terminal). */
  public boolean rich() {
    return rich;
  }

  /** Starts a phase; {@code bound} may be null for phases without a wait. */
  public synchronized void start(String newPhase, @Nullable Duration newBound, String what) {
    phase = newPhase;
    bound = newBound;
    started = clock.instant();
    last = null;
    lastPrinted = started;
    print(format(elapsed()) + (bound == null ? "" : " / " + format(bound)), what);
  }

  /** Reports what the current phase waits for now (repeats are printed only as a heartbeat). */
  @Override
  public synchronized void update(String status) {
    Instant now = clock.instant();
    if (status.equals(last)
        && lastPrinted != null
        && Duration.between(lastPrinted, now).compareTo(HEARTBEAT) < 0) {
      return;
    }
    last = status;
    lastPrinted = now;
    print(format(elapsed()) + (bound == null ? "" : " / " + format(bound)), status);
  }

  /** Ends the phase with an outcome line; returns how long it took. */
  public synchronized Duration end(String outcome) {
    Duration elapsed = elapsed();
    print(format(elapsed) + (bound == null ? "" : " / " + format(bound)), outcome);
    return elapsed;
  }

  /** Time since the current phase started. */
  public synchronized Duration elapsed() {
    return started == null ? Duration.ZERO : Duration.between(started, clock.instant());
  }

  /** A sink for the current phase's waits. */
  public ProgressSink sink() {
    return this;
  }

  /** A run's report: the phase and the time since the run started, measured by the run's clock. */
  @Override
  public synchronized void report(String runPhase, Duration sinceStart, @Nullable String detail) {
    // "Running on node-1" is phase "Running" with detail "on node-1"
    int space = runPhase.indexOf(' ');
    phase = space < 0 ? runPhase : runPhase.substring(0, space);
    String text =
        (space < 0 ? "" : runPhase.substring(space + 1))
            + (detail == null || detail.isBlank()
                ? ""
                : (space < 0 ? "" : ": ") + detail.replace('\n', ' '));
    print(format(sinceStart), text);
  }

  /**
   * A counter (rich only): {@code done} of {@code total} bytes and {@code rows} rows, a few times a
   * second.
   */
  public synchronized void count(String counterPhase, long done, long total, long rows) {
    if (!rich) {
      return;
    }
    long now = System.nanoTime();
    if (counterShown && now - counterShownAt < COUNTER_EVERY_NANOS) {
      return;
    }
    if (started == null) {
      phase = counterPhase;
      started = clock.instant();
    }
    counterShownAt = now;
    counterShown = true;
    double seconds = Math.max(1e-9, elapsed().toNanos() / 1e9);
    err.printf(
        Locale.ROOT,
        "\r%s [%s] %s: %3.0f%% of %,d bytes, %,d rows (%,.0f rows/s)",
        command,
        counterPhase,
        format(elapsed()),
        total == 0 ? 100.0 : 100.0 * done / total,
        total,
        rows,
        rows / seconds);
    err.flush();
  }

  /** Erases a counter line, so the next output starts on a clean line. */
  public synchronized void finishCount() {
    if (counterShown) {
      err.print("\r\033[K");
      err.flush();
      counterShown = false;
    }
  }

  private void print(String time, String detail) {
    finishCount();
    err.println(
        command
            + " ["
            + (phase == null ? "-" : phase)
            + "] "
            + time
            + (detail.isEmpty() ? "" : ": " + detail));
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
