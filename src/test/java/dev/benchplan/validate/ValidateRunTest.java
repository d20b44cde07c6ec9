package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.json.Sha256;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ValidateRunTest {
  @Test
  @DisplayName("namespace = benchplan-validate-<first 8 hex of sha256(run ID)>, a DNS-1123 label")
  void namespace() {
    ValidateRun r = new ValidateRun("20261130T120000Z-0a1b2c3d");
    String expected =
        "benchplan-validate-"
            + Sha256.hex("20261130T120000Z-0a1b2c3d".getBytes(StandardCharsets.UTF_8))
                .substring(0, 8);
    assertThat(r.namespace())
        .isEqualTo(expected)
        .matches("benchplan-validate-[0-9a-f]{8}")
        .hasSizeLessThan(64);
  }

  @Test
  @DisplayName("run IDs from the same second differ (random suffix), and so do their namespaces")
  void fresh() {
    Instant now = Instant.parse("2026-11-30T12:00:00Z");
    Set<String> ns = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      ValidateRun r = ValidateRun.start(now);
      assertThat(r.runId()).startsWith("20261130T120000Z-");
      ns.add(r.namespace());
    }
    assertThat(ns).hasSize(200);
  }

  @Test
  @DisplayName("labels mark the object as benchplan's, validate's, and this run's")
  void labels() {
    ValidateRun r = new ValidateRun("20261130T120000Z-0a1b2c3d");
    assertThat(r.labels())
        .containsEntry("app.kubernetes.io/managed-by", "benchplan")
        .containsEntry("app.kubernetes.io/component", "validate")
        .containsEntry("benchplan.dev/validate-run", "20261130T120000Z-0a1b2c3d");
    assertThatThrownBy(() -> new ValidateRun("yesterday"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
