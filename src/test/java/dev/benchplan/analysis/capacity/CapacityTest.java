package dev.benchplan.analysis.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The capacity answer on generated grids whose knee (or its absence) is known by construction. */
class CapacityTest {
  /** Five repetitions per point: each value scaled by these (mean factor exactly 1). */
  private static final double[] REPS = {0.99, 1.0, 1.01, 0.995, 1.005};

  private static final int[] LOADS = {1, 2, 4, 8, 16, 32, 64, 128};

  /** A concurrency grid, shuffled out of numeric order, five repetitions per point. */
  private static List<Capacity.Point> grid(DoubleUnaryOperator tput, DoubleUnaryOperator ttft) {
    List<Capacity.Point> pts = new ArrayList<>();
    for (int i = LOADS.length - 1; i >= 0; i -= 2) {
      pts.add(point(LOADS[i], tput, ttft));
    }
    for (int i = 0; i < LOADS.length; i += 2) {
      pts.add(point(LOADS[i], tput, ttft));
    }
    return pts;
  }

  private static Capacity.Point point(int c, DoubleUnaryOperator tput, DoubleUnaryOperator ttft) {
    double[] t = new double[REPS.length];
    double[] d = new double[REPS.length];
    for (int r = 0; r < REPS.length; r++) {
      t[r] = tput.applyAsDouble(c) * REPS[r];
      d[r] = ttft.applyAsDouble(c) * REPS[REPS.length - 1 - r];
    }
    return new Capacity.Point(
        "concurrency=" + c, Map.of(Capacity.THROUGHPUT, t, Capacity.LATENCY, d));
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  /** Linear to 16, then +10% throughput per doubling while TTFT p99 doubles: knee at 16. */
  private static final DoubleUnaryOperator KNEE_TPUT =
      c -> c <= 16 ? 100 * c : 1600 * (1 + 0.1 * log2(c / 16));

  private static final DoubleUnaryOperator KNEE_TTFT =
      c -> c <= 16 ? 50 * (1 + 0.05 * log2(c)) : 60 * (c / 16);

  @Test
  @DisplayName(
      "a grid with a known knee: found at the lower point of the first step latency outpaces")
  void knee() {
    CapacityDoc c = Capacity.analyze(grid(KNEE_TPUT, KNEE_TTFT), List.of()).orElseThrow();
    assertThat(c.knee()).isEqualTo("concurrency=16");
    assertThat(c.saturated()).isTrue();
    assertThat(c.extendTo()).isNull();
    assertThat(c.steps()).hasSize(7);
    assertThat(c.steps().stream().map(CapacityDoc.Step::from).toList())
        .containsExactly(
            "concurrency=1",
            "concurrency=2",
            "concurrency=4",
            "concurrency=8",
            "concurrency=16",
            "concurrency=32",
            "concurrency=64");
    for (int i = 0; i < 4; i++) {
      CapacityDoc.Step s = c.steps().get(i);
      assertThat(s.latencyOutpacesThroughput()).isFalse();
      assertThat(s.scalingEfficiency().doubleValue()).isCloseTo(1.0, within(1e-9));
    }
    CapacityDoc.Step at = c.steps().get(4);
    assertThat(at.latencyOutpacesThroughput()).isTrue();
    assertThat(at.throughputRatio().doubleValue()).isCloseTo(1.1, within(1e-9));
    assertThat(at.latencyRatio().doubleValue()).isCloseTo(2.0, within(1e-9));
    assertThat(at.scalingEfficiency().doubleValue()).isCloseTo(0.55, within(1e-9));
    // 60 ms more TTFT p99 for 160 more tok/s
    assertThat(at.marginalLatencyPerThroughput().doubleValue())
        .isCloseTo(60.0 / 160.0, within(1e-9));
    assertThat(c.highestSloFeasible()).isNull();
    assertThat(c.statement())
        .contains("knee at concurrency=16 (from it to concurrency=32 TTFT p99 x2.00")
        .contains("no SLO given");
  }

  @Test
  @DisplayName("linear to the end: no knee, the sweep did not saturate, extend to 4x the top")
  void noKnee() {
    CapacityDoc c = Capacity.analyze(grid(x -> 100 * x, x -> 50), List.of()).orElseThrow();
    assertThat(c.knee()).isNull();
    assertThat(c.saturated()).isFalse();
    assertThat(c.extendTo()).isEqualTo("concurrency=512");
    assertThat(c.steps()).allMatch(s -> !s.latencyOutpacesThroughput());
    assertThat(c.statement())
        .startsWith("throughput x128 for x128 the load (concurrency=1 to concurrency=128)")
        .contains("the sweep did not saturate: extend to concurrency=512");
  }

  @Test
  @DisplayName(
      "highest SLO-feasible point with its 95% intervals: met by the whole interval, or the interval"
          + " crosses the limit")
  void sloFeasible() {
    // TTFT p99 at 32 is 120 ms (mean over the five repetitions), 240 ms at 64
    CapacityDoc clear =
        Capacity.analyze(
                grid(KNEE_TPUT, KNEE_TTFT), List.of(new Capacity.Slo(Capacity.LATENCY, "<=", 200)))
            .orElseThrow();
    CapacityDoc.Feasible f = clear.highestSloFeasible();
    assertThat(f).isNotNull();
    assertThat(f.loadPoint()).isEqualTo("concurrency=32");
    assertThat(f.nextPoint()).isEqualTo("concurrency=64");
    assertThat(f.certain()).isTrue();
    CapacityDoc.Estimate t = f.throughput();
    assertThat(t.runs()).isEqualTo(5);
    assertThat(t.mean().doubleValue()).isCloseTo(1760, within(1e-6));
    // sd of 1760 x {-1%, 0, +1%, -0.5%, +0.5%} is 13.9; t(0.975, 4) = 2.776; half-width 17.3
    assertThat(t.ciHigh().doubleValue() - t.mean().doubleValue()).isCloseTo(17.28, within(0.05));
    assertThat(t.mean().doubleValue() - t.ciLow().doubleValue()).isCloseTo(17.28, within(0.05));
    assertThat(f.slos().get(0).status()).isEqualTo("met");
    assertThat(clear.statement()).contains("highest SLO-feasible point concurrency=32 (1.76e+03");

    // 121 ms: the mean (120) meets it, the interval's top (121.18) does not
    CapacityDoc tight =
        Capacity.analyze(
                grid(KNEE_TPUT, KNEE_TTFT), List.of(new Capacity.Slo(Capacity.LATENCY, "<=", 121)))
            .orElseThrow();
    CapacityDoc.Feasible g = tight.highestSloFeasible();
    assertThat(g.loadPoint()).isEqualTo("concurrency=32");
    assertThat(g.certain()).isFalse();
    assertThat(g.slos().get(0).status()).isEqualTo("met_interval_crosses");
    assertThat(g.slos().get(0).observed().ciHigh().doubleValue()).isGreaterThan(121);
    assertThat(tight.statement()).contains("its interval crosses the limit");

    // 10 ms: no point meets it
    CapacityDoc none =
        Capacity.analyze(
                grid(KNEE_TPUT, KNEE_TTFT), List.of(new Capacity.Slo(Capacity.LATENCY, "<=", 10)))
            .orElseThrow();
    assertThat(none.highestSloFeasible()).isNull();
    assertThat(none.statement()).contains("no load point meets every SLO");
  }

  @Test
  @DisplayName("not a grid: one point, a replay, or two load parameters give no capacity answer")
  void notAGrid() {
    Map<String, double[]> v = Map.of(Capacity.THROUGHPUT, new double[] {1});
    assertThat(Capacity.analyze(List.of(new Capacity.Point("concurrency=4", v)), List.of()))
        .isEmpty();
    assertThat(
            Capacity.analyze(
                List.of(new Capacity.Point("replay", v), new Capacity.Point("concurrency=4", v)),
                List.of()))
        .isEmpty();
    assertThat(
            Capacity.analyze(
                List.of(
                    new Capacity.Point("request_rate=2", v),
                    new Capacity.Point("concurrency=4", v)),
                List.of()))
        .isEmpty();
  }

  @Test
  @DisplayName("a request-rate grid extends in its own unit")
  void requestRate() {
    Map<String, double[]> a =
        Map.of(Capacity.THROUGHPUT, new double[] {100}, Capacity.LATENCY, new double[] {40});
    Map<String, double[]> b =
        Map.of(Capacity.THROUGHPUT, new double[] {200}, Capacity.LATENCY, new double[] {41});
    CapacityDoc c =
        Capacity.analyze(
                List.of(
                    new Capacity.Point("request_rate=2.5", b),
                    new Capacity.Point("request_rate=1.25", a)),
                List.of())
            .orElseThrow();
    assertThat(c.extendTo()).isEqualTo("request_rate=10");
    assertThat(Capacity.plain(2.5 * 3)).isEqualTo("7.5");
  }
}
