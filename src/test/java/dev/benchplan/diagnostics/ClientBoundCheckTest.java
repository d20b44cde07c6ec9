package dev.benchplan.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The client-bound check on simulated runs (issue 18 item 5). */
class ClientBoundCheckTest {
  static final AiperfLogWarnings QUIET = AiperfLogWarnings.parse(List.of("INFO all good"));

  static RequestTimeline closed(int achieved, int requests) {
    return SimulatedRun.closedLoop(
        7, achieved, requests, 8, (w, r) -> 300 * (0.8 + 0.4 * r.nextDouble()));
  }

  @Test
  @DisplayName(
      "64 claimed, 40 achieved: client bound, with the time-weighted in-flight figure and the fix")
  void underDriven() {
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            closed(40, 1000), LoadTarget.concurrency(64, "test"), QUIET, ExportSignals.none());
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.CLIENT_BOUND);
    assertThat(r.finding().kind()).isEqualTo(FindingKind.CLIENT_BOUND);
    assertThat(r.finding().signals()).containsExactly("in_flight_below_concurrency");
    assertThat(r.finding().figures().get("time_weighted_in_flight")).isBetween(39.0, 40.5);
    assertThat(r.finding().message()).contains("load generator (AIPerf)").contains("of 64");
    assertThat(r.finding().recommendation())
        .contains("benchmark.runtime.workers")
        .contains("aiperf-operator");
  }

  @Test
  @DisplayName("64 claimed, 64 achieved: fine, no finding")
  void fullyDriven() {
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            closed(64, 1000), LoadTarget.concurrency(64, "test"), QUIET, ExportSignals.none());
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.OK);
    assertThat(r.finding()).isNull();
    assertThat(r.detail()).contains("time-weighted requests in flight 6");
  }

  @Test
  @DisplayName("fewer than 8 x C requests: not judged, never client bound, even at 40 of 64")
  void notJudged() {
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            closed(40, 500), LoadTarget.concurrency(64, "test"), QUIET, ExportSignals.none());
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.NOT_JUDGED);
    assertThat(r.finding().kind()).isEqualTo(FindingKind.CLIENT_LOAD_NOT_JUDGED);
    assertThat(r.finding().message()).contains("fewer than 8 x 64 = 512");
  }

  @Test
  @DisplayName("every request started at once: not judged, no steady window, said in words")
  void noSteadyWindow() {
    RequestTimeline.Builder b = new RequestTimeline.Builder();
    for (int i = 0; i < 40; i++) {
      b.add(SimulatedRun.T0, SimulatedRun.T0 + 1_000_000_000L + i, 10, true);
    }
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            b.build(), LoadTarget.concurrency(4, "test"), QUIET, ExportSignals.none());
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.NOT_JUDGED);
    assertThat(r.detail())
        .contains(
            "not judged: no steady window (the last of 40 requests started no later than"
                + " request 4)");
  }

  @Test
  @DisplayName("open loop at the target rate is fine; at 80% of it, client bound")
  void openLoop() {
    ClientBoundCheck.Result ok =
        ClientBoundCheck.check(
            SimulatedRun.openLoop(3, 20, 2000, 1500),
            LoadTarget.rate(20, "test"),
            QUIET,
            ExportSignals.none());
    assertThat(ok.status()).isEqualTo(ClientBoundCheck.Status.OK);
    ClientBoundCheck.Result slow =
        ClientBoundCheck.check(
            SimulatedRun.openLoop(3, 16, 2000, 1500),
            LoadTarget.rate(20, "test"),
            QUIET,
            ExportSignals.none());
    assertThat(slow.status()).isEqualTo(ClientBoundCheck.Status.CLIENT_BOUND);
    assertThat(slow.finding().signals()).containsExactly("request_rate_below_target");
    assertThat(slow.finding().figures().get("achieved_rate_per_s")).isBetween(15.0, 17.0);
  }

  @Test
  @DisplayName("open loop with too few requests: not judged")
  void openLoopTooFew() {
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            SimulatedRun.openLoop(3, 20, 60, 1500),
            LoadTarget.rate(20, "test"),
            QUIET,
            ExportSignals.none());
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.NOT_JUDGED);
  }

  @Test
  @DisplayName(
      "AIPerf's own CPU warnings make a run client bound even when the records look fine, quoted")
  void aiperfSignalFirst() {
    AiperfLogWarnings log =
        AiperfLogWarnings.parse(
            List.of(
                "2026-12-01 10:00:01 WARNING CPU usage for worker_3 is 98%. AIPerf results may be inaccurate.",
                "2026-12-01 10:00:06 WARNING CPU usage for worker_3 is 99%. AIPerf results may be inaccurate.",
                "2026-12-01 10:00:11 WARNING CPU usage for worker_1 is 97%. AIPerf results may be inaccurate."));
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            closed(64, 1000), LoadTarget.concurrency(64, "test"), log, ExportSignals.none());
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.CLIENT_BOUND);
    assertThat(r.finding().signals()).containsExactly("aiperf_cpu_warnings");
    assertThat(r.finding().evidence())
        .hasSize(3)
        .allMatch(l -> l.contains("results may be inaccurate"));
  }

  @Test
  @DisplayName("AIPerf's effective_concurrency below 90% of C fires where the export has it")
  void effectiveConcurrency() {
    ClientBoundCheck.Result r =
        ClientBoundCheck.check(
            closed(64, 100),
            LoadTarget.concurrency(64, "test"),
            QUIET,
            new ExportSignals(41.5, Double.NaN, Double.NaN));
    assertThat(r.status()).isEqualTo(ClientBoundCheck.Status.CLIENT_BOUND);
    assertThat(r.finding().signals()).containsExactly("effective_concurrency");
  }
}
