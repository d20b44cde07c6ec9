package dev.benchplan.rules;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.List;

/**
 * Planning stopped on one or more blockers (exit 2); nothing was written. The message is a one-line
 * summary; {@link #blockers()} carries each one.
 */
public final class PlanBlockedException extends BenchplanException {
  private static final long serialVersionUID = 1L;
  private final transient List<Blocker> blockers;

  public PlanBlockedException(List<Blocker> blockers) {
    super(ExitCode.INVALID, summary(blockers));
    if (blockers.isEmpty()) {
      throw new IllegalArgumentException("a blocked plan needs at least one blocker");
    }
    this.blockers = List.copyOf(blockers);
  }

  public List<Blocker> blockers() {
    return blockers;
  }

  /** The blocker codes in order (handy for tests and logs). */
  public List<String> codes() {
    return blockers.stream().map(Blocker::code).toList();
  }

  private static String summary(List<Blocker> blockers) {
    if (blockers.size() == 1) {
      return "blocker " + blockers.get(0);
    }
    return blockers.size() + " blockers, first: " + (blockers.isEmpty() ? "" : blockers.get(0));
  }
}
