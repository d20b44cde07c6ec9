package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BenchmarkShapeTest {
  @ParameterizedTest(name = "{0} worker(s) x 16 -> concurrency {1}, {2} requests")
  @CsvSource({"1,16,1000", "2,32,1000", "4,64,1000", "8,128,1024", "16,256,2048"})
  @DisplayName("per worker: C = 16 x workers; requests = max(1000, 8 x C); warmup = C")
  void perWorker(int workers, int concurrency, int requests) {
    BenchmarkShape s = new BenchmarkShape(workers, 16, 128, 128);
    assertThat(s.concurrency()).isEqualTo(concurrency);
    assertThat(s.requestCount()).isEqualTo(requests);
    assertThat(s.warmupRequests()).isEqualTo(concurrency);
    assertThat(s.basis()).isEqualTo("16 per worker x " + workers + " worker(s)");
  }

  @ParameterizedTest(name = "C = {0} -> {1} requests")
  @CsvSource({"1,1000", "124,1000", "125,1000", "126,1008", "256,2048", "1024,8192", "2048,16384"})
  @DisplayName(
      "AICR's request count: max(1000, 8 x C), the knee at C = 125 (2048 in flight: 16,384)")
  void requestCountFormula(int concurrency, int requests) {
    assertThat(BenchmarkShape.requestCount(concurrency)).isEqualTo(requests);
  }

  @Test
  @DisplayName(
      "per GPU: C = 256 x 8 GPUs = 2048 whatever the worker count; 16,384 requests, 2048 warmup")
  void perGpu() {
    BenchmarkShape s = BenchmarkShape.perGpu(4, 8, 256, 128, 128);
    assertThat(s.concurrency()).isEqualTo(2048);
    assertThat(s.requestCount()).isEqualTo(16_384);
    assertThat(s.warmupRequests()).isEqualTo(2048);
    assertThat(s.basis()).isEqualTo("256 per GPU x 8 GPU(s)");
    assertThat(BenchmarkShape.DATASET_ENTRIES).isEqualTo(100);
    assertThat(BenchmarkShape.SEED).isEqualTo(100);
    assertThat(BenchmarkShape.TEMPERATURE.signum()).isZero();
  }

  @Test
  @DisplayName("a load is per GPU or per worker, never both, and a per-GPU load needs GPUs")
  void oneBasis() {
    assertThatThrownBy(() -> new BenchmarkShape(1, 8, 256, 16, 128, 128))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new BenchmarkShape(1, null, 256, null, 128, 128))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
