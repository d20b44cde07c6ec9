package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.LoadGeneratorPlanner;
import java.math.BigDecimal;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The operator engine's split of the plan's total sizing over worker pods (load-generator.md). */
class OperatorSizingTest {
  private static BenchmarkPlan.PointSizing planned(String label, int workers) {
    return new BenchmarkPlan.PointSizing(
        label,
        workers,
        LoadGeneratorPlanner.cpuCores(workers),
        LoadGeneratorPlanner.memoryMib(workers),
        100);
  }

  @ParameterizedTest(
      name =
          "C = {0}: {1} workers = {2} pod(s) x {3}, {4} connections/worker, {5} CPU / {6} MiB per pod")
  @CsvSource({
    "1,    1,  1, 1,  1,   2, 2304",
    "16,   1,  1, 1,  16,  2, 2304",
    "100,  1,  1, 1,  100, 2, 2304",
    "150,  2,  1, 2,  75,  2, 2560",
    "1024, 11, 2, 10, 94,  5, 4608",
    "3200, 32, 4, 10, 100, 5, 4608",
    "4096, 41, 5, 10, 100, 5, 4608",
    "20000, 200, 20, 10, 100, 5, 4608"
  })
  @DisplayName("closed loop: totals from the plan, split per worker pod")
  void closedLoop(int c, int workers, int pods, int perPod, int cpw, int podCpu, int podMem) {
    BenchmarkPlan.PointSizing total =
        planned("concurrency=" + c, LoadGeneratorPlanner.workersForConcurrency(c));
    OperatorSizing s = OperatorSizing.split(total, new LoadPoint(c, null));
    assertThat(s.totalWorkers()).isEqualTo(workers);
    assertThat(s.workerPods()).isEqualTo(pods);
    assertThat(s.workersPerPod()).isEqualTo(perPod);
    assertThat(s.connectionsPerWorker()).isEqualTo(cpw);
    assertThat(s.podCpuCores()).isEqualTo(podCpu);
    assertThat(s.podMemoryMib()).isEqualTo(podMem);
    // the totals stay the plan's, and the pods carry every worker and every connection
    assertThat(s.totalCpuCores()).isEqualTo(total.cpuCores());
    assertThat(s.totalMemoryMib()).isEqualTo(total.memoryMib());
    assertThat(s.workerPods() * s.workersPerPod()).isGreaterThanOrEqualTo(workers);
    assertThat((s.workerPods() - 1) * s.workersPerPod()).isLessThan(workers);
    assertThat((long) s.connectionsPerWorker() * workers).isGreaterThanOrEqualTo(c);
    assertThat((long) (s.connectionsPerWorker() - 1) * workers).isLessThan(c);
  }

  @Test
  @DisplayName(
      "open loop at 5000 req/s: 100 workers = 10 pods x 10, the plan's connections per worker")
  void openLoop() {
    OperatorSizing s =
        OperatorSizing.split(
            planned("request_rate=5000", 100), new LoadPoint(null, new BigDecimal("5000")));
    assertThat(s.workerPods()).isEqualTo(10);
    assertThat(s.workersPerPod()).isEqualTo(10);
    assertThat(s.connectionsPerWorker()).isEqualTo(100);
    assertThat(s.totalCpuCores()).isEqualTo(41);
    assertThat(s.totalMemoryMib()).isEqualTo(27648);
    assertThat(s.podCpuCores()).isEqualTo(5);
    assertThat(s.podMemoryMib()).isEqualTo(4608);
    assertThat(s.describe())
        .isEqualTo(
            "request_rate=5000: 100 worker(s) in total (41 CPU, 27648 MiB) = 10 worker"
                + " pod(s) x 10 worker(s), 100 connection(s) per worker, 5 CPU and 4608 MiB per pod");
  }

  @Test
  @DisplayName("a plan without sizing: the point's own formula")
  void noPlanSizing() {
    OperatorSizing s = OperatorSizing.split(null, new LoadPoint(2048, null));
    assertThat(s.totalWorkers()).isEqualTo(21);
    assertThat(s.workerPods()).isEqualTo(3);
    assertThat(s.connectionsPerWorker()).isEqualTo(98);
    assertThat(s.loadPoint()).isEqualTo("concurrency=2048");
  }
}
