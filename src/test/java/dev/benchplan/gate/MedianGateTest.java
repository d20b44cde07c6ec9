package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ExportVariants;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The median gate over repeats that disagree (validate --repeats, issue 17). */
class MedianGateTest {
  static final ConstraintSet GATES =
      ConstraintReader.fromFlags(new BigDecimal("5000"), new BigDecimal("200"));

  static MedianGate.Repeat repeat(String label, double throughput, double ttftP99) {
    AiperfExport e =
        AiperfExportReader.parse(
            ExportVariants.summary()
                .version("0.13.0")
                .metric("output_token_throughput", "tokens/sec", throughput)
                .metric("time_to_first_token", "ms", 90)
                .stat("time_to_first_token", "p99", ttftP99)
                .metric("request_count", "requests", 1000)
                .bytes(),
            Path.of("profile_runs", label, "profile_export_aiperf.json"));
    return new MedianGate.Repeat(label, e);
  }

  @Test
  @DisplayName(
      "three repeats, one stalled (TTFT p99 900 ms): each is listed, the median passes, the result is unstable")
  void disagreeingRepeatsPassOnTheMedian() {
    MedianGate.Result r =
        MedianGate.evaluate(
            List.of(
                repeat("run_0001", 5400, 150),
                repeat("run_0002", 3100, 900),
                repeat("run_0003", 5200, 160)),
            GATES,
            GateOptions.defaults());
    assertThat(r.repeats())
        .extracting(l -> l.verdict().verdict())
        .containsExactly(Status.PASS, Status.FAIL, Status.PASS);
    Verdict m = r.median();
    assertThat(m.verdict()).isEqualTo(Status.PASS);
    assertThat(m.exitCode()).isZero();
    assertThat(m.constraints().get(0).measured()).isEqualByComparingTo("5200");
    assertThat(m.constraints().get(1).measured()).isEqualByComparingTo("160");
    assertThat(r.unstable()).isTrue();
    assertThat(r.disagreements())
        .hasSize(2)
        .anySatisfy(
            d ->
                assertThat(d)
                    .startsWith(
                        "inference-throughput: pass in run_0001, run_0003; fail in run_0002"));
    assertThat(m.warnings())
        .anySatisfy(w -> assertThat(w).startsWith("unstable: the 3 repeats disagree"));
    assertThat(m.message()).contains("(unstable: the repeats disagree)");
    assertThat(m.requests().total()).isEqualByComparingTo("3000");
  }

  @Test
  @DisplayName(
      "two of three repeats below the floor: the median fails (exit 1), even though one passed")
  void medianFails() {
    MedianGate.Result r =
        MedianGate.evaluate(
            List.of(
                repeat("run_0001", 5400, 150),
                repeat("run_0002", 3100, 150),
                repeat("run_0003", 4000, 160)),
            GATES,
            GateOptions.defaults());
    assertThat(r.median().verdict()).isEqualTo(Status.FAIL);
    assertThat(r.median().exitCode()).isEqualTo(1);
    assertThat(r.median().constraints().get(0).measured()).isEqualByComparingTo("4000");
    assertThat(r.unstable()).isTrue();
  }

  @Test
  @DisplayName("repeats that agree are stable; an even count takes the mean of the middle two")
  void stableEven() {
    MedianGate.Result r =
        MedianGate.evaluate(
            List.of(repeat("run_0001", 5400, 150), repeat("run_0002", 5600, 170)),
            GATES,
            GateOptions.defaults());
    assertThat(r.unstable()).isFalse();
    assertThat(r.median().constraints().get(0).measured()).isEqualByComparingTo("5500");
    assertThat(r.median().constraints().get(1).measured()).isEqualByComparingTo("160");
    assertThat(r.median().verdict()).isEqualTo(Status.PASS);
  }
}
