package dev.benchplan.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The parser of AIPerf's client-overload warnings, on lines shaped as AIPerf writes them. */
class AiperfLogWarningsTest {
  @Test
  @DisplayName(
      "CPU and event-loop warnings are counted and quoted; event-loop overhead under 100 ms does not count")
  void sampleLines() {
    AiperfLogWarnings w =
        AiperfLogWarnings.parse(
            List.of(
                "\u001b[33m2026-12-01 10:00:01.123 WARNING  [worker_manager] CPU usage for worker_ab12 is 97%. AIPerf results"
                    + " may be inaccurate.\u001b[0m",
                "10:00:02 WARNING Event loop for worker_ab12 is taking too long to run. Overhead: 12.40ms",
                "10:00:03 WARNING Event loop for worker_ab12 is taking too long to run. Overhead: 1,234.56ms",
                "10:00:04 INFO Profile complete",
                "10:00:05 WARNING CPU usage for worker_cd34 is 88.5%. AIPerf results may be inaccurate."));
    assertThat(w.logRead()).isTrue();
    assertThat(w.cpuWarnings()).isEqualTo(2);
    assertThat(w.maxCpuPercent()).isEqualTo(97.0);
    assertThat(w.loopWarnings()).isEqualTo(2);
    assertThat(w.slowLoopWarnings()).isEqualTo(1);
    assertThat(w.maxLoopOverheadMs()).isEqualTo(1234.56);
    assertThat(w.quotes()).hasSize(3);
    assertThat(w.quotes().get(0))
        .startsWith("2026-12-01 10:00:01.123 WARNING")
        .doesNotContain("\u001b");
    assertThat(w.cpuSignal()).isFalse();
    assertThat(w.loopSignal()).isFalse();
    assertThat(w.describe()).contains("2 worker CPU warning(s) (up to 97%)");
  }

  @Test
  @DisplayName("three warnings of a kind fire its signal; a clean log fires none")
  void thresholds() {
    String cpu = "WARNING CPU usage for worker_1 is 99%. AIPerf results may be inaccurate.";
    String loop = "WARNING Event loop for worker_1 is taking too long to run. Overhead: 250.00ms";
    assertThat(AiperfLogWarnings.parse(List.of(cpu, cpu, cpu)).cpuSignal()).isTrue();
    assertThat(AiperfLogWarnings.parse(List.of(loop, loop, loop)).loopSignal()).isTrue();
    AiperfLogWarnings clean = AiperfLogWarnings.parse("INFO starting\nINFO done\n");
    assertThat(clean.cpuWarnings() + clean.loopWarnings()).isZero();
    assertThat(AiperfLogWarnings.absent().describe()).contains("not available");
  }
}
