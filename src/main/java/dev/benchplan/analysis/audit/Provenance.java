package dev.benchplan.analysis.audit;

import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.RecordScan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;

/**
 * The audit's {@code provenance} check over every run given together (issue 31, item 7): two runs
 * whose records start at the same instant, or whose per-request records are byte-identical, were
 * copied or replayed, not measured twice; their agreement says nothing about run-to-run noise. A
 * flagged run stays valid (a {@code warn}); compare shows the flag on the verdict rows of its load
 * point.
 */
public final class Provenance {
  public static final String ID = "provenance";

  private Provenance() {}

  /** One check per run, each naming the runs it shares a start or its records with. */
  public static IdentityHashMap<RunEvidence, AuditCheck> check(List<RunEvidence> runs) {
    IdentityHashMap<RunEvidence, AuditCheck> out = new IdentityHashMap<>();
    for (int i = 0; i < runs.size(); i++) {
      RunEvidence r = runs.get(i);
      RecordScan scan = r.scan();
      Long start = scan == null ? null : scan.minStartNs();
      if (scan == null || start == null) {
        out.put(r, AuditCheck.notChecked(ID, "no per-request records with start timestamps"));
        continue;
      }
      List<String> found = new ArrayList<>();
      for (int j = 0; j < runs.size(); j++) {
        RunEvidence o = runs.get(j);
        RecordScan other = o.scan();
        if (j == i || other == null) {
          continue;
        }
        if (Objects.equals(scan.sha256(), other.sha256())) {
          found.add(
              "identical per-request records (SHA-256 "
                  + scan.sha256().substring(0, 12)
                  + ") as run "
                  + o.source().label());
        } else if (start.equals(other.minStartNs())) {
          found.add(
              "the same first request start (" + instant(start) + ") as run " + o.source().label());
        }
      }
      out.put(
          r,
          found.isEmpty()
              ? AuditCheck.pass(
                  ID,
                  runs.size() == 1
                      ? "one run given: nothing to compare its records with"
                      : "no other run given shares its first request start or its per-request"
                          + " records")
              : AuditCheck.warn(
                  ID,
                  "copied or replayed, not measured again: "
                      + String.join("; ", found)
                      + " (their agreement is no evidence of run-to-run noise)"));
    }
    return out;
  }

  private static String instant(long ns) {
    return Instant.ofEpochSecond(ns / 1_000_000_000L, ns % 1_000_000_000L).toString();
  }
}
