package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.audit.AuditCheck;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.testing.SharedData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: the time-sliced audit check (time_slices: 10 slices, bound +-25%) on generated records
 * whose answer is known (steady: pass; TTFT drifting up by 80% over the run: warn; the first 10% of
 * requests three times slower: warn naming warm-up) and on the real sweep (10 trimmed records a
 * run: too few to slice, not checked — never a false finding).
 */
class TimeSlicesTest {
  @TempDir Path tmp;

  static AuditCheck slices(Path run) {
    RunEvidence r = AnalyzeService.load(List.of(run), null).get(0);
    return r.audit().checks().stream()
        .filter(c -> c.id().equals("time_slices"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  @DisplayName(
      "steady records pass; drift and a slow start are warn findings that name the slice; the bound and slice"
          + " size are stated")
  void generated() throws Exception {
    AuditCheck steady = slices(new GeneratedRun().requests(400).write(tmp.resolve("steady")));
    assertThat(steady.status()).as(steady.detail()).isEqualTo("pass");
    assertThat(steady.detail()).contains("10 slices of").contains("bound +-25%");
    GeneratedRun drifting = new GeneratedRun().requests(400);
    drifting.ttftDrift = 0.8;
    AuditCheck drift = slices(drifting.write(tmp.resolve("drift")));
    assertThat(drift.status()).as(drift.detail()).isEqualTo("warn");
    assertThat(drift.detail()).contains("slice 9 ").contains("TTFT median").contains("+31%");
    GeneratedRun warm = new GeneratedRun().requests(400);
    warm.slowStart = 40;
    AuditCheck leak = slices(warm.write(tmp.resolve("warm")));
    assertThat(leak.status()).as(leak.detail()).isEqualTo("warn");
    assertThat(leak.detail())
        .contains("slice 1 ")
        .contains("warm-up leaking into the measured window");
  }

  @Test
  @DisplayName(
      "the real sweep: never a finding (10 records a run: not checked, with the minimum stated)")
  void realSweep() {
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    for (RunEvidence r : AnalyzeService.load(List.of(sweep), null)) {
      AuditCheck c =
          r.audit().checks().stream()
              .filter(x -> x.id().equals("time_slices"))
              .findFirst()
              .orElseThrow();
      assertThat(c.status()).isEqualTo("not_checked");
      assertThat(c.detail()).contains("200 are needed");
    }
  }
}
