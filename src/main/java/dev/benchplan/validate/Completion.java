package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The end of one validate run, reached once, from the main thread or from the Ctrl-C hook at any
 * moment: cleanup, the verdict and reports, the client closed. Its three fields are what the two
 * threads share; each is set once, under one lock.
 */
final class Completion {
  private final ValidateContext ctx;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();

  /** The cluster once connected: cleanup deletes through it; null before. */
  private @Nullable ValidateCluster cluster;

  /** Cleanup's report once it ran: a second attempt (reports failed, then Ctrl-C) reuses it. */
  private @Nullable CleanupReport cleanup;

  /** The result once the reports are written. */
  private @Nullable ValidateResult result;

  Completion(ValidateContext ctx, Clock clock) {
    this.ctx = Objects.requireNonNull(ctx, "ctx");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The connected cluster, for cleanup and closing. */
  void attach(ValidateCluster connected) {
    lock.lock();
    try {
      cluster = connected;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Cleans up (unless --keep), writes the reports and closes the client; the first conclusion wins.
   * A cleanup that cannot finish turns it into an error.
   */
  ValidateResult finish(Conclusion conclusion) {
    lock.lock();
    try {
      if (result != null) {
        return result;
      }
      CleanupReport report = cleanup;
      if (report == null) {
        report = CleanupPhase.run(ctx, cluster);
        cleanup = report;
      }
      Conclusion end =
          report.complete()
              ? conclusion
              : conclusion.cleanupIncomplete(String.join("; ", report.problems()));
      ValidateVerdictBuilder doc = ctx.doc();
      if (cluster != null) {
        doc.isolationSkipped(cluster.skippedIsolationChecks());
      }
      doc.finish(end.status(), end.exitCode(), end.reason(), end.failedStep(), clock.instant());
      ValidateReports.Written written =
          ValidateReports.write(ctx.options().reportDir(), doc, doc.constraintSet());
      ctx.err()
          .println(
              "validate: "
                  + end.status().json()
                  + " (exit "
                  + end.exitCode()
                  + ")"
                  + (end.failedStep() == null ? "" : " at step " + end.failedStep().id())
                  + ": "
                  + end.reason());
      ctx.err().println("validate: reports in " + ctx.options().reportDir().toAbsolutePath());
      ctx.err().flush();
      ValidateResult done =
          new ValidateResult(end.exitCode(), end.status(), written.verdict(), written.paths());
      result = done;
      return done;
    } finally {
      closeQuietly();
      lock.unlock();
    }
  }

  /** The Ctrl-C / SIGTERM path: stop the run, clean up and record an error naming the step. */
  void abort(BenchmarkRunner runner) {
    lock.lock();
    try {
      if (result != null) {
        return;
      }
      ValidateStep at = ctx.steps().current();
      ctx.err().println("validate: interrupted during step " + at.id() + "; cleaning up");
      ctx.err().flush();
      try {
        runner.interrupt();
      } catch (RuntimeException e) {
        ctx.err().println("validate: stopping the run: " + e.getMessage());
      }
      try {
        finish(Conclusion.error("interrupted (SIGINT/SIGTERM) during step " + at.id(), at));
      } catch (BenchplanException e) {
        ctx.err().println("validate: " + e.getMessage());
        ctx.err().flush();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Closes the client (a refusal before anything was created ends here). */
  void closeQuietly() {
    lock.lock();
    try {
      if (cluster != null) {
        cluster.close();
      }
    } catch (RuntimeException ignored) {
      // closing a client cannot change the verdict
    } finally {
      lock.unlock();
    }
  }
}
