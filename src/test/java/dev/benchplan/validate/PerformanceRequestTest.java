package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.gate.Constraint;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerformanceRequestTest {
  @TempDir Path dir;

  PerformanceRequest load(String constraints) throws Exception {
    Path p = dir.resolve("o.yaml");
    Files.writeString(
        p,
        "validation: {performance: {checks: [inference-perf], constraints: ["
            + constraints
            + "]}}");
    return ValidationOverlay.load(p);
  }

  @Test
  @DisplayName(
      "partly occupied node: AICR's floor x free/node GPUs (50000 x 6/8 = 37500); TTFT never scaled")
  void floorScaling() throws Exception {
    PerformanceRequest r =
        load(
            "{name: inference-throughput, value: \">= 50000\"},"
                + " {name: inference-ttft-p99, value: \"<= 2000\"}");
    PerformanceRequest scaled =
        r.forLoad(6, null, new BigDecimal("0.75"), "free / node GPUs 6/8 on node a");
    assertThat(scaled.throughputFloor().threshold()).isEqualByComparingTo("37500");
    assertThat(scaled.throughputFloor().origin()).contains("50000 scaled by free / node GPUs 6/8");
    assertThat(scaled.constraints().get(1).threshold()).isEqualByComparingTo("2000");
    assertThat(r.forLoad(8, null, BigDecimal.ONE, "whole node").throughputFloor().threshold())
        .isEqualByComparingTo("50000");
  }

  @Test
  @DisplayName(
      "inference-throughput-per-gpu: gated as N x GPUs; alone it is something to gate on; without a GPU"
          + " count it is exit 2")
  void perGpu() throws Exception {
    PerformanceRequest r = load("{name: inference-throughput-per-gpu, value: \">= 6000\"}");
    assertThat(r.runs()).isTrue();
    Constraint c = r.perGpuFloor();
    assertThat(c.threshold()).isEqualByComparingTo("6000");
    assertThat(c.metric()).isEqualTo("output_token_throughput");
    PerformanceRequest eight = r.forLoad(8, null, null, null);
    assertThat(eight.perGpuFloor().threshold()).isEqualByComparingTo("48000");
    assertThat(eight.perGpuFloor().origin()).contains("6000 per GPU x 8 GPUs");
    assertThatThrownBy(() -> r.forLoad(null, "its GPUs come from DRA claims", null, null))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            dir.resolve("o.yaml")
                + ": /validation/performance/constraints/0: inference-throughput-per-gpu needs a"
                + " GPU count, but its GPUs come from DRA claims")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    assertThatThrownBy(() -> load("{name: inference-throughput-per-gpu, value: \"<= 6000\"}"))
        .hasMessage(
            dir.resolve("o.yaml")
                + ": /validation/performance/constraints/0: inference-throughput-per-gpu takes only"
                + " >= (as AICR requires), got <=");
  }
}
