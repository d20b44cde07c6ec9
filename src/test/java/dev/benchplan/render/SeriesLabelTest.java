package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SeriesLabelTest {
  private static final String LABEL_VALUE = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";

  @Test
  @DisplayName("a series ID that is a valid label value is used as is")
  void plain() {
    assertThat(KubeNames.seriesLabel("qwen3-static-20261130-ab12"))
        .isEqualTo("qwen3-static-20261130-ab12");
  }

  @Test
  @DisplayName("every series ID the plan schema allows becomes a valid, distinct label value")
  void schemaAllowedIdsBecomeLabels() {
    String longId = "qwen3-" + "x".repeat(74);
    String trailing = "qwen3.";
    for (String id : new String[] {longId, trailing, "a_", "b-"}) {
      String label = KubeNames.seriesLabel(id);
      assertThat(label).hasSizeLessThanOrEqualTo(63).matches(LABEL_VALUE);
    }
    assertThat(KubeNames.seriesLabel(longId)).isNotEqualTo(KubeNames.seriesLabel(longId + "y"));
    assertThat(KubeNames.seriesLabel(trailing)).startsWith("qwen3-");
  }
}
