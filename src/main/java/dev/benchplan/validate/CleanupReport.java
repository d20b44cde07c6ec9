package dev.benchplan.validate;

import java.util.List;

/**
 * What cleanup did.
 *
 * @param deleted objects deleted and confirmed gone
 * @param alreadyGone objects that were not there (never created, or deleted before)
 * @param skipped objects left alone because they did not carry this run's label
 * @param problems deletions that failed or did not finish within the bound
 */
public record CleanupReport(
    List<String> deleted, List<String> alreadyGone, List<String> skipped, List<String> problems) {
  public CleanupReport {
    deleted = List.copyOf(deleted);
    alreadyGone = List.copyOf(alreadyGone);
    skipped = List.copyOf(skipped);
    problems = List.copyOf(problems);
  }

  /** Whether everything validate created is gone. */
  public boolean complete() {
    return problems.isEmpty();
  }

  /** Nothing to clean. */
  public static CleanupReport empty() {
    return new CleanupReport(List.of(), List.of(), List.of(), List.of());
  }
}
