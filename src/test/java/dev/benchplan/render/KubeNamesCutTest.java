package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Issue 20 item 5: a cut Kubernetes name keeps a short hash of the full series ID. */
class KubeNamesCutTest {
  private static final RunId RUN =
      RunId.generate(
          Clock.fixed(Instant.parse("2026-12-01T20:04:25Z"), ZoneOffset.UTC), new Random(7));

  @Test
  @DisplayName("two series that differ only past the cut get different Job names")
  void cutKeepsTheDifference() {
    String v1 = "prod-conversation-20261201-7df7a034-vllm-agg-v1";
    String v2 = "prod-conversation-20261201-7df7a034-vllm-agg-v2";
    String a = KubeNames.jobName(v1, RUN);
    String b = KubeNames.jobName(v2, RUN);
    assertThat(a).isNotEqualTo(b).hasSizeLessThanOrEqualTo(63);
    assertThat(KubeNames.isDns1123Label(a)).isTrue();
    assertThat(KubeNames.isDns1123Label(b)).isTrue();
    assertThat(a).contains(KubeNames.shortHash(v1)).startsWith("bp-prod-conversation-");
    assertThat(b).contains(KubeNames.shortHash(v2));
    assertThat(a).endsWith("-" + RUN.value().toLowerCase(java.util.Locale.ROOT));
  }

  @Test
  @DisplayName("a series that fits is not cut and carries no hash")
  void shortSeriesUncut() {
    assertThat(KubeNames.jobName("qwen3-chat", RUN))
        .isEqualTo("bp-qwen3-chat-" + RUN.value().toLowerCase(java.util.Locale.ROOT));
  }

  @Test
  @DisplayName("every cut of an 80-character series ID is a valid, distinct name")
  void everyLengthDistinct() {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int n = 30; n <= 80; n++) {
      String id = "s" + "-x".repeat(40).substring(0, n - 2) + "9";
      String name = KubeNames.jobName(id, RUN);
      assertThat(KubeNames.isDns1123Label(name)).as(name).isTrue();
      names.add(name);
    }
    assertThat(names).hasSize(51);
  }
}
