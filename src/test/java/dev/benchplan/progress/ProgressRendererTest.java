package dev.benchplan.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProgressRendererTest {
  /** A clock the test moves. */
  static final class ManualClock extends Clock {
    Instant now = Instant.parse("2026-12-01T20:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  @DisplayName(
      "phase lines: '<command> [<phase>] <elapsed> / <bound>: <detail>', repeats only as a heartbeat")
  void phases() {
    StringWriter w = new StringWriter();
    ManualClock clock = new ManualClock();
    ProgressRenderer p = new ProgressRenderer("validate", new PrintWriter(w), clock, false);
    p.start("readiness", Duration.ofMinutes(10), "waiting");
    p.update("state pending, VllmDecodeWorker 0/4 ready");
    clock.now = clock.now.plusSeconds(5);
    p.update("state pending, VllmDecodeWorker 0/4 ready"); // unchanged: not repeated
    clock.now = clock.now.plus(ProgressRenderer.HEARTBEAT);
    p.update("state pending, VllmDecodeWorker 0/4 ready"); // a heartbeat
    p.end("ready");
    assertThat(w.toString().lines())
        .containsExactly(
            "validate [readiness] 0ms / 10m0s: waiting",
            "validate [readiness] 0ms / 10m0s: state pending, VllmDecodeWorker 0/4 ready",
            "validate [readiness] 35.0s / 10m0s: state pending, VllmDecodeWorker 0/4 ready",
            "validate [readiness] 35.0s / 10m0s: ready");
  }

  @Test
  @DisplayName("a run's reports use the same line format, with the run's own elapsed time")
  void runReports() {
    StringWriter w = new StringWriter();
    ProgressRenderer p = new ProgressRenderer("run", new PrintWriter(w), new ManualClock(), false);
    p.report("preflight", Duration.ofMillis(120), "namespace bench, Job j");
    p.report("Running", Duration.ofSeconds(65), "line one\nline two");
    p.report("Running on node-1", Duration.ofSeconds(66), "Profiling: 40%");
    p.report("collecting", Duration.ofSeconds(70), null);
    assertThat(w.toString().lines())
        .containsExactly(
            "run [preflight] 120ms: namespace bench, Job j",
            "run [Running] 1m5s: line one line two",
            "run [Running] 1m6s: on node-1: Profiling: 40%",
            "run [collecting] 1m10s");
  }

  @Test
  @DisplayName(
      "counters are rich output: nothing without a terminal; one rewritten line, erased, with one")
  void counters() {
    StringWriter plain = new StringWriter();
    ProgressRenderer off =
        new ProgressRenderer("trace inspect", new PrintWriter(plain), new ManualClock(), false);
    off.count("scan", 10, 100, 3);
    off.finishCount();
    assertThat(plain.toString()).isEmpty();

    StringWriter tty = new StringWriter();
    ProgressRenderer on =
        new ProgressRenderer("trace inspect", new PrintWriter(tty), new ManualClock(), true);
    on.count("scan", 50, 100, 7);
    on.count("scan", 60, 100, 8); // within a quarter second: not shown
    on.finishCount();
    assertThat(tty.toString())
        .startsWith("\rtrace inspect [scan] 0ms:  50% of 100 bytes, 7 rows")
        .endsWith("\r\033[K")
        .doesNotContain("60%")
        .doesNotContain("\n");
  }

  @Test
  @DisplayName("durations read 850ms, 35.2s, 10m0s, 1h2m")
  void durations() {
    assertThat(ProgressRenderer.format(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(ProgressRenderer.format(Duration.ofMillis(35_200))).isEqualTo("35.2s");
    assertThat(ProgressRenderer.format(Duration.ofMinutes(10))).isEqualTo("10m0s");
    assertThat(ProgressRenderer.format(Duration.ofMinutes(62))).isEqualTo("1h2m");
  }
}
