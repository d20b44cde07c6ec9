package dev.benchplan.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  @Test
  @DisplayName("esc: markup characters escaped, beyond ASCII as numeric references, ASCII as is")
  void esc() {
    assertThat(HtmlReport.esc(null)).isEmpty();
    String plain = "run-1 p99 (ms)";
    assertThat(HtmlReport.esc(plain)).isSameAs(plain);
    assertThat(HtmlReport.esc("a<b & \"c\">")).isEqualTo("a&lt;b &amp; &quot;c&quot;&gt;");
    assertThat(HtmlReport.esc("Qwen3 — 0.6B ≤ 5%")).isEqualTo("Qwen3 &#8212; 0.6B &#8804; 5%");
    assertThat(HtmlReport.esc("café")).isEqualTo("caf&#233;");
    // a character outside the BMP is one reference, not two halves of a surrogate pair
    assertThat(HtmlReport.esc("x\uD83D\uDE80y")).isEqualTo("x&#128640;y");
  }
}
