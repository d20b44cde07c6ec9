package dev.benchplan.verify;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The result of {@code verify}: what was verified, every finding (empty when verified), and notes
 * on checks that could not be made (never silent).
 *
 * @param kind {@code plan} or {@code run}
 * @param path the verified file or directory
 * @param sha256 the plan's SHA-256 (plans), or null
 * @param checks what was checked, one short phrase each
 * @param findings every mismatch, one per line
 * @param notes checks that were skipped, and why
 */
public record VerifyReport(
    String kind,
    String path,
    @Nullable String sha256,
    List<String> checks,
    List<Finding> findings,
    List<String> notes) {
  public VerifyReport {
    checks = List.copyOf(checks);
    findings = List.copyOf(findings);
    notes = List.copyOf(notes);
  }

  /** True when nothing differs. */
  public boolean verified() {
    return findings.isEmpty();
  }
}
