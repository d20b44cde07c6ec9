package dev.benchplan.validate;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Deletes what the run created, in reverse order, and records it; with --keep, lists it instead.
 * Deletion tolerates objects already gone, so a cleanup after a partial failure (or a second one)
 * removes what is left and says the rest was already gone.
 */
final class CleanupPhase {
  private CleanupPhase() {}

  /**
   * Cleans up; the ledger is closed first, so a creation racing with it undoes itself.
   *
   * @param cluster the connected cluster, or null when validate never connected
   * @return what was deleted and what could not be
   */
  static CleanupReport run(ValidateContext ctx, @Nullable ValidateCluster cluster) {
    CreatedObjects ledger = ctx.ledger();
    List<CreatedObject> created = ledger.snapshot();
    if (ctx.options().keep()) {
      ledger.closeForCleanup();
      ctx.doc().cleanup(true, created, null);
      if (!created.isEmpty()) {
        ctx.err()
            .println(
                "validate [cleanup]: --keep: leaving "
                    + created.stream().map(CreatedObject::describe).toList());
      }
      return CleanupReport.empty();
    }
    if (cluster == null || created.isEmpty()) {
      ledger.closeForCleanup();
      CleanupReport nothing = CleanupReport.empty();
      ctx.doc().cleanup(false, created, nothing);
      return nothing;
    }
    Duration bound = ctx.options().timeouts().cleanup();
    var progress = ctx.steps().progress();
    progress.start(
        ValidateStep.CLEANUP.id(),
        bound,
        "deleting " + created.size() + " object(s) in reverse order");
    CleanupReport report;
    try {
      report = cluster.cleanup(ledger, bound, progress.sink());
    } catch (RuntimeException e) {
      report =
          new CleanupReport(
              List.of(),
              List.of(),
              List.of(),
              List.of(
                  "cleanup failed: " + (e.getMessage() == null ? e.toString() : e.getMessage())));
    }
    String problems = String.join("; ", report.problems());
    Duration elapsed =
        progress.end(
            report.complete()
                ? "done: deleted "
                    + report.deleted().size()
                    + ", already gone "
                    + report.alreadyGone().size()
                : "incomplete: " + problems);
    ctx.doc()
        .step(
            ValidateStep.CLEANUP,
            report.complete() ? "ok" : "failed",
            elapsed,
            bound,
            report.complete() ? null : problems);
    ctx.doc().cleanup(false, created, report);
    return report;
  }
}
