package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.diagnostics.ClientBoundCheck;
import dev.benchplan.diagnostics.FindingKind;
import dev.benchplan.testing.SharedData;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The diagnostics on AIPerf's real per-request records (../shared/data/aiperf/sweep-qwen3-0.6b).
 */
class RealRecordsDiagnosticsTest {
  @ParameterizedTest(
      name = "concurrency {0}: 10 records of 64 requests -> not judged ({1}), no stall")
  @CsvSource({
    "1, 'the records hold 10 of the summary''s 64 measured requests'",
    "2, '10 measured requests, fewer than 8 x 2 = 16'",
    "4, '10 measured requests, fewer than 8 x 4 = 32'"
  })
  void notJudged(int c, String why) {
    Path dir =
        SharedData.require("aiperf/sweep-qwen3-0.6b/concurrency" + c + "/profile_export.jsonl")
            .getParent();
    RunDiagnostics.Diagnosis d = RunDiagnostics.diagnose(RunLocator.locate(dir).get(0));
    assertThat(d.clientLoad().status()).isEqualTo(ClientBoundCheck.Status.NOT_JUDGED);
    assertThat(d.clientLoad().detail())
        .startsWith("concurrency " + c + "; not judged: ")
        .contains(why);
    assertThat(d.clientBound()).isFalse();
    assertThat(d.findings())
        .extracting(f -> f.kind())
        .containsExactly(FindingKind.CLIENT_LOAD_NOT_JUDGED);
  }
}
