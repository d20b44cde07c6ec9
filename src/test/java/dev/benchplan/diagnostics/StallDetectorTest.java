package dev.benchplan.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The stall detector on simulated runs whose answer is known (issue 17). */
class StallDetectorTest {
  static final int C = 64;
  static final int N = 2000;

  @Test
  @DisplayName(
      "one worker in eight stalled (TTFT 20-40 s beside a 300 ms bulk): a suspected stalled worker, with its figures")
  void oneWorkerInEightStalled() {
    RequestTimeline t =
        SimulatedRun.closedLoop(
            17,
            C,
            N,
            8,
            (w, r) ->
                w == 3 ? 20_000 + 20_000 * r.nextDouble() : 300 * (0.8 + 0.4 * r.nextDouble()));
    Finding f = StallDetector.detect(t).orElseThrow();
    assertThat(f.kind()).isEqualTo(FindingKind.SUSPECTED_STALLED_WORKER);
    assertThat(f.signals()).contains("ttft_split");
    assertThat(f.figures().get("slow_share")).isBetween(0.12, 0.13);
    assertThat(f.figures().get("gap_share")).isZero();
    assertThat(f.figures().get("bulk_ttft_median_ms")).isBetween(280.0, 320.0);
    assertThat(f.figures().get("slow_ttft_median_ms")).isBetween(25_000.0, 35_000.0);
    assertThat(f.figures().get("slow_ttft_p99_ms")).isBetween(38_000.0, 40_000.0);
    assertThat(f.message())
        .startsWith("suspected stalled worker: 12.")
        .contains("bulk TTFT median");
    assertThat(f.recommendation()).contains("repeat");
  }

  @Test
  @DisplayName("a uniformly slow deployment (every TTFT about 5 s) is not a stall")
  void uniformlySlow() {
    RequestTimeline t =
        SimulatedRun.closedLoop(18, C, N, 8, (w, r) -> 5000 * (0.8 + 0.4 * r.nextDouble()));
    assertThat(StallDetector.detect(t)).isEmpty();
  }

  @Test
  @DisplayName(
      "a continuous lognormal tail (sigma 1.5: over 5% beyond 10x the bulk's median) is not a stall: the gap is filled")
  void lognormalTail() {
    RequestTimeline t =
        SimulatedRun.closedLoop(
            19, C, N, 8, (w, r) -> 300 * Math.exp(1.5 * SimulatedRun.gaussian(r)));
    double[] ttft = t.sortedTtft();
    double overall = Quantiles.median(ttft);
    // the tail is long enough that the slow-share test alone would fire: the gap is what refuses it
    assertThat((double) Quantiles.countAbove(ttft, 10 * overall / 1.6) / ttft.length)
        .isGreaterThan(0.05);
    assertThat(StallDetector.detect(t)).isEmpty();
  }

  @Test
  @DisplayName("a healthy run is not a stall")
  void healthy() {
    RequestTimeline t =
        SimulatedRun.closedLoop(20, C, N, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble()));
    assertThat(StallDetector.detect(t)).isEmpty();
  }

  @Test
  @DisplayName(
      "completions stopping for 30 s with every slot in flight (TTFTs normal): a completion stop, with the window")
  void completionStop() {
    RequestTimeline t =
        SimulatedRun.closedLoop(
            21, C, N, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble()), 2000, 20, 50);
    Finding f = StallDetector.detect(t).orElseThrow();
    assertThat(f.signals()).containsExactly("completion_stop");
    assertThat(f.figures().get("stop_window_s")).isBetween(29.0, 31.0);
    assertThat(f.figures().get("stop_window_start_s")).isBetween(19.0, 21.0);
    assertThat(f.figures().get("stop_in_flight")).isBetween(C - 2.0, (double) C);
    assertThat(f.message()).contains("no request completed for");
  }

  @Test
  @DisplayName(
      "a stalled worker and a completion stop: both signals, the split's first (signals, figures,"
          + " message)")
  void bothSignals() {
    RequestTimeline t =
        SimulatedRun.closedLoop(
            17,
            C,
            N,
            8,
            (w, r) ->
                w == 3 ? 20_000 + 20_000 * r.nextDouble() : 300 * (0.8 + 0.4 * r.nextDouble()),
            2000,
            20,
            50);
    Finding f = StallDetector.detect(t).orElseThrow();
    assertThat(f.signals()).containsExactly("ttft_split", "completion_stop");
    assertThat(f.figures().keySet())
        .containsExactly(
            "requests",
            "slow_requests",
            "slow_share",
            "gap_share",
            "bulk_ttft_median_ms",
            "bulk_ttft_p99_ms",
            "slow_ttft_median_ms",
            "slow_ttft_p99_ms",
            "stop_window_s",
            "stop_window_start_s",
            "stop_in_flight",
            "median_request_latency_ms");
    assertThat(f.message().indexOf("bulk TTFT median"))
        .isPositive()
        .isLessThan(f.message().indexOf("no request completed for"));
  }

  @Test
  @DisplayName("too few requests for the split: nothing is said")
  void tooFew() {
    RequestTimeline t =
        SimulatedRun.closedLoop(
            22, 4, 40, 8, (w, r) -> w == 3 ? 20_000 : 300 * (0.8 + 0.4 * r.nextDouble()));
    assertThat(StallDetector.detect(t)).isEmpty();
  }
}
