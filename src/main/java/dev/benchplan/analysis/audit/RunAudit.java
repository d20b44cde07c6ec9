package dev.benchplan.analysis.audit;

import java.util.List;

/**
 * The audit of one run.
 *
 * @param status {@code valid}, {@code valid_with_recovery} or {@code invalid}
 * @param nextAction {@code continue_analysis}, {@code rerun_benchmark} or {@code stop}
 * @param checks every check, in a fixed order
 * @param recoveries what was rebuilt, and how
 * @param blockers the failed checks' details
 */
public record RunAudit(
    String status,
    String nextAction,
    List<AuditCheck> checks,
    List<String> recoveries,
    List<String> blockers) {
  public RunAudit {
    checks = List.copyOf(checks);
    recoveries = List.copyOf(recoveries);
    blockers = List.copyOf(blockers);
  }

  /** This audit with one more check (a failed one is a blocker and makes the run invalid). */
  public RunAudit with(AuditCheck check) {
    List<AuditCheck> c = new java.util.ArrayList<>(checks);
    c.add(check);
    List<String> b = new java.util.ArrayList<>(blockers);
    if (check.status().equals("fail")) {
      b.add(check.id() + ": " + check.detail());
    }
    String s = !b.isEmpty() ? "invalid" : status;
    String next =
        !b.isEmpty() && nextAction.equals("continue_analysis") ? "rerun_benchmark" : nextAction;
    return new RunAudit(s, next, c, recoveries, b);
  }

  /** May serve as evidence. */
  public boolean usable() {
    return !status.equals("invalid");
  }
}
