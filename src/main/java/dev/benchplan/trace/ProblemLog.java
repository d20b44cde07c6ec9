package dev.benchplan.trace;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Problems in line order: the first {@link TraceReport#MAX_LISTED_PROBLEMS} kept, all counted. */
final class ProblemLog {
  private final List<TraceProblem> listed = new ArrayList<>();
  private long total;

  /** True while another problem would still be listed (callers skip building messages after). */
  boolean listing() {
    return listed.size() < TraceReport.MAX_LISTED_PROBLEMS;
  }

  void add(long line, @Nullable String field, String message) {
    total++;
    if (listing()) {
      listed.add(new TraceProblem(line, field, message));
    }
  }

  /** Counts a problem whose message is not needed any more because the list is full. */
  void countOnly() {
    total++;
  }

  long total() {
    return total;
  }

  List<TraceProblem> listed() {
    return listed;
  }
}
