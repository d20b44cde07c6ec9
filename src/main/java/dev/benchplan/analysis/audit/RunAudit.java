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
public record RunAudit(String status, String nextAction, List<AuditCheck> checks, List<String> recoveries,
    List<String> blockers) {
  public RunAudit {
    checks = List.copyOf(checks);
    recoveries = List.copyOf(recoveries);
    blockers = List.copyOf(blockers);
  }

  /** May serve as evidence. */
  public boolean usable() {
    return !status.equals("invalid");
  }
}
