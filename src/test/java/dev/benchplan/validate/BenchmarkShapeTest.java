package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BenchmarkShapeTest {
  @ParameterizedTest(name = "{0} worker(s) -> concurrency {1}, {2} requests")
  @CsvSource({"1,16,200", "2,32,256", "4,64,512", "8,128,1024", "16,256,2048"})
  @DisplayName("concurrency = 16 x workers; requests = max(200, 8 x concurrency); warmup = concurrency")
  void scales(int workers, int concurrency, int requests) {
    BenchmarkShape s = new BenchmarkShape(workers, 16, 128, 128);
    assertThat(s.concurrency()).isEqualTo(concurrency);
    assertThat(s.requestCount()).isEqualTo(requests);
    assertThat(s.warmupRequests()).isEqualTo(concurrency);
  }
}
