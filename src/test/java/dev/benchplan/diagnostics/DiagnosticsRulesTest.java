package dev.benchplan.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.rules.RuleFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The detectors' thresholds are the ones their rule files state. */
class DiagnosticsRulesTest {
  static String rule(RuleFile f) throws Exception {
    return Files.readString(Path.of("agent-docs/rules").resolve(f.path()));
  }

  @Test
  @DisplayName("stall-diagnosis.md states StallDetector's thresholds, and findings cite it")
  void stall() throws Exception {
    assertThat(FindingKind.SUSPECTED_STALLED_WORKER.rule())
        .isEqualTo(RuleFile.STALL_DIAGNOSIS.path());
    assertThat(rule(RuleFile.STALL_DIAGNOSIS))
        .contains("**" + (int) (StallDetector.MIN_SLOW_SHARE * 100) + "%**")
        .contains("**" + (int) StallDetector.SLOW_FACTOR + "x**")
        .contains("**" + (int) (StallDetector.MAX_GAP_SHARE * 100) + "%**")
        .contains("**" + (int) StallDetector.GAP_FACTOR + "x**")
        .contains("**" + StallDetector.MIN_REQUESTS + "**")
        .contains("**" + (int) StallDetector.STOP_FACTOR + "x the median request latency**")
        .contains("**" + StallDetector.MIN_STOP_IN_FLIGHT + "**");
  }

  @Test
  @DisplayName("client-bound.md states ClientBoundCheck's and the log parser's thresholds")
  void clientBound() throws Exception {
    assertThat(FindingKind.CLIENT_BOUND.rule()).isEqualTo(RuleFile.CLIENT_BOUND.path());
    assertThat(rule(RuleFile.CLIENT_BOUND))
        .contains("**" + AiperfLogWarnings.MIN_WARNINGS + "** worker CPU warnings")
        .contains("**" + (int) AiperfLogWarnings.LOOP_OVERHEAD_MS + " ms**")
        .contains("**" + (int) (ClientBoundCheck.IN_FLIGHT_FLOOR * 100) + "%** of C")
        .contains("**" + (int) (ClientBoundCheck.RATE_FLOOR * 100) + "%** of R")
        .contains("**" + (int) ClientBoundCheck.CREDIT_DROP_LATENCY_MS + " ms**")
        .contains("**" + ClientBoundCheck.REQUESTS_PER_SLOT + " x C**");
  }
}
