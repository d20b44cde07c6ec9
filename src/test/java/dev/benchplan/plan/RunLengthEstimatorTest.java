package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.workload.SmokeEvidence;
import dev.benchplan.workload.SmokeTiming;
import java.math.BigDecimal;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The one run-length estimator: exact arithmetic on the smoke test's measured request. */
class RunLengthEstimatorTest {
  private static SmokeEvidence smoke(String ttft, String total, Long completion) {
    return new SmokeEvidence.Artifact(
        "/d/smoke.json",
        "0".repeat(64),
        "m",
        "http://x",
        null,
        new SmokeTiming(new BigDecimal(ttft), new BigDecimal(total), 22L, completion));
  }

  @Test
  @DisplayName("TTFT + per-token time x (OSL - 1): 40 ms + (100 - 40) / 15 ms x 127 = 548 ms")
  void requestTime() {
    var t = RunLengthEstimator.requestTime(smoke("40", "100", 16L), 512, 128).orElseThrow();
    assertThat(t.ms()).isEqualByComparingTo("548");
    assertThat(t.basis())
        .contains("TTFT 40 ms")
        .contains("4 ms per output token")
        .contains("over its 16 tokens")
        .contains("548 ms per request at least");
  }

  @Test
  @DisplayName("closed loop: ceil(requests / concurrency) requests per slot, one after another")
  void closedLoop() {
    var t = new RunLengthEstimator.RequestTime(new BigDecimal("548"), "b");
    assertThat(RunLengthEstimator.closedLoopSeconds(1000, 16, t)).isEqualByComparingTo("34.524");
    assertThat(RunLengthEstimator.closedLoopSeconds(1, 64, t)).isEqualByComparingTo("0.548");
    assertThat(RunLengthEstimator.closedLoopSeconds(10_000_000, 1, t))
        .isEqualByComparingTo("5480000");
  }

  @Test
  @DisplayName("no token count: the smoke request's total time, unscaled; no timings: no estimate")
  void fallbacks() {
    var t = RunLengthEstimator.requestTime(smoke("40", "100", null), 512, 128).orElseThrow();
    assertThat(t.ms()).isEqualByComparingTo("100");
    assertThat(
            RunLengthEstimator.requestTime(
                new SmokeEvidence.InClusterReadiness("validate", "the Job waits for a completion"),
                512,
                128))
        .isEmpty();
    assertThat(
            RunLengthEstimator.requestTime(
                new SmokeEvidence.Artifact("/d/s.json", "0".repeat(64), "m", "u", null, null),
                512,
                128))
        .isEmpty();
  }

  @Test
  @DisplayName("open loop: the seconds the requests take to arrive at the rate, rounded up")
  void openLoop() {
    assertThat(RunLengthEstimator.openLoopSeconds(1000, new BigDecimal("3")))
        .isEqualByComparingTo("334");
  }
}
