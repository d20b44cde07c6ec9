package dev.benchplan.analysis.audit;

import org.jspecify.annotations.Nullable;

/**
 * One audit check.
 *
 * @param id the check's stable name, e.g. {@code duplicate_request_ids}
 * @param status {@code pass}, {@code warn}, {@code fail} (a blocker: the run is invalid) or {@code
 *     not_checked}
 * @param detail what was found, or why it was not checked
 */
public record AuditCheck(String id, String status, @Nullable String detail) {
  public static AuditCheck pass(String id, String detail) {
    return new AuditCheck(id, "pass", detail);
  }

  public static AuditCheck warn(String id, String detail) {
    return new AuditCheck(id, "warn", detail);
  }

  public static AuditCheck fail(String id, @Nullable String detail) {
    return new AuditCheck(id, "fail", detail);
  }

  public static AuditCheck notChecked(String id, String detail) {
    return new AuditCheck(id, "not_checked", "not checked: " + detail);
  }
}
