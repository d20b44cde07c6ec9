package dev.benchplan.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Nearest-rank percentiles: the value at 1-based rank ceil(p/100 * n) of the sorted values. */
class LengthHistogramTest {

  /** Values 1..n, shuffled, so the rank is the value. */
  private static LengthHistogram oneTo(int n) {
    List<Long> values = new ArrayList<>();
    for (long v = 1; v <= n; v++) {
      values.add(v * 10);
    }
    Collections.shuffle(values, new Random(n));
    LengthHistogram h = new LengthHistogram();
    values.forEach(h::add);
    return h;
  }

  @ParameterizedTest(name = "n = {0}: p50 at rank {1}, p90 {2}, p95 {3}, p99 {4}")
  @CsvSource({
    "1, 1, 1, 1, 1",
    "2, 1, 2, 2, 2",
    "100, 50, 90, 95, 99",
    "101, 51, 91, 96, 100",
  })
  void ranks(int n, int p50, int p90, int p95, int p99) {
    LengthHistogram h = oneTo(n);
    assertThat(h.percentile(50)).isEqualTo(p50 * 10L);
    assertThat(h.percentile(90)).isEqualTo(p90 * 10L);
    assertThat(h.percentile(95)).isEqualTo(p95 * 10L);
    assertThat(h.percentile(99)).isEqualTo(p99 * 10L);
    assertThat(h.percentile(100)).isEqualTo(n * 10L);
    assertThat(h.percentile(1)).isEqualTo(10L * ((n + 99) / 100)); // rank ceil(n / 100)
  }

  @Test
  @DisplayName("the summary: min, max, exact mean, percentiles; nulls when empty")
  void summary() {
    LengthHistogram h = new LengthHistogram();
    assertThat(h.toSummary())
        .isEqualTo(new TraceReport.LengthSummary(0, null, null, null, null, null, null, null));
    h.add(1);
    h.add(2);
    h.add(2);
    h.add(7);
    TraceReport.LengthSummary s = h.toSummary();
    assertThat(s.count()).isEqualTo(4);
    assertThat(s.min()).isEqualTo(1);
    assertThat(s.max()).isEqualTo(7);
    assertThat(s.mean()).isEqualTo(3.0);
    assertThat(s.p50()).isEqualTo(2);
    assertThat(s.p90()).isEqualTo(7);
  }

  @Test
  @DisplayName("lengths beyond the dense range (>= 2^20) and zero are counted exactly")
  void largeValues() {
    LengthHistogram h = new LengthHistogram();
    List<Long> values = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < 1000; i++) {
      long v = i % 3 == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(5000);
      values.add(v);
      h.add(v);
    }
    h.add(0);
    values.add(0L);
    Collections.sort(values);
    for (int p : new int[] {1, 50, 66, 67, 90, 95, 99, 100}) {
      int rank = (int) Math.ceil(p / 100.0 * values.size());
      assertThat(h.percentile(p)).as("p%d", p).isEqualTo(values.get(rank - 1));
    }
    assertThat(h.toSummary().mean())
        .isEqualTo(values.stream().mapToLong(Long::longValue).sum() / (double) values.size());
  }

  @Test
  void rejectsNegativeAndBadPercent() {
    LengthHistogram h = new LengthHistogram();
    assertThatThrownBy(() -> h.add(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> h.percentile(50)).isInstanceOf(IllegalStateException.class);
    h.add(1);
    assertThatThrownBy(() -> h.percentile(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
