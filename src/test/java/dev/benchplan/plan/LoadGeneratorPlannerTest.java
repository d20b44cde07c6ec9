package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.rules.RuleLog;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The sizing table and the engine decision of agent-docs/rules/benchmarking/load-generator.md. */
class LoadGeneratorPlannerTest {
  @ParameterizedTest(name = "concurrency {0} -> {1} workers, {2} CPU, {3} MiB")
  @CsvSource({
    "1,1,2,2304",
    "16,1,2,2304",
    "100,1,2,2304",
    "1024,11,6,4864",
    "3200,32,14,10240",
    "4096,41,18,12544"
  })
  @DisplayName("closed loop: workers ceil(C/100), CPU ceil(0.4 w)+1, memory 2048+256 w MiB")
  void closedLoop(int c, int workers, int cpu, int mib) {
    int w = LoadGeneratorPlanner.workersForConcurrency(c);
    assertThat(w).isEqualTo(workers);
    assertThat(LoadGeneratorPlanner.cpuCores(w)).isEqualTo(cpu);
    assertThat(LoadGeneratorPlanner.memoryMib(w)).isEqualTo(mib);
  }

  @ParameterizedTest(name = "rate {0} -> {1} workers, {2} CPU, {3} MiB")
  @CsvSource({
    "10,1,2,2304",
    "500,10,5,4608",
    "5000,100,41,27648",
    "0.5,1,2,2304",
    "50.01,2,2,2560"
  })
  @DisplayName("open loop: workers ceil(rate/50), at least 1")
  void openLoop(String rate, int workers, int cpu, int mib) {
    int w = LoadGeneratorPlanner.workersForRate(new BigDecimal(rate));
    assertThat(w).isEqualTo(workers);
    assertThat(LoadGeneratorPlanner.cpuCores(w)).isEqualTo(cpu);
    assertThat(LoadGeneratorPlanner.memoryMib(w)).isEqualTo(mib);
  }

  private static BenchmarkPlan.Experiment closed(Integer... points) {
    return new BenchmarkPlan.Experiment(
        "capacity",
        "closed_loop",
        List.of(points),
        null,
        null,
        40960L,
        16,
        null,
        1800,
        600,
        100,
        "request_count+limit_cap",
        points.length,
        null,
        40960L,
        null,
        null);
  }

  @Test
  @DisplayName("auto: job while every point fits one pod (<= 32 workers), aiperf-operator past it")
  void auto() {
    RuleLog log = new RuleLog();
    BenchmarkPlan.LoadGenerator small =
        LoadGeneratorPlanner.plan(closed(16, 3200), null, List.of(), null, log).orElseThrow();
    assertThat(small.engine()).isEqualTo("job");
    assertThat(small.requested()).isEqualTo("auto");
    assertThat(small.reason()).contains("32 AIPerf worker(s)").contains("one pod");
    assertThat(small.points())
        .extracting(BenchmarkPlan.PointSizing::loadPoint)
        .containsExactly("concurrency=16", "concurrency=3200");
    assertThat(small.points())
        .extracting(BenchmarkPlan.PointSizing::connectionsPerWorker)
        .containsOnlyNulls();
    BenchmarkPlan.LoadGenerator big =
        LoadGeneratorPlanner.plan(closed(16, 4096), null, List.of(), EngineRequest.AUTO, log)
            .orElseThrow();
    assertThat(big.engine()).isEqualTo("aiperf-operator");
    assertThat(big.reason()).contains("41 AIPerf worker(s)");
    assertThat(big.points())
        .extracting(BenchmarkPlan.PointSizing::connectionsPerWorker)
        .containsOnly(100);
    assertThat(log.blocked()).isFalse();
  }

  @Test
  @DisplayName(
      "--engine job past one pod is ENGINE_NEEDS_OPERATOR naming aiperf-operator; within it, job")
  void job() {
    RuleLog log = new RuleLog();
    assertThat(LoadGeneratorPlanner.plan(closed(4096), null, List.of(), EngineRequest.JOB, log))
        .isEmpty();
    assertThat(log.blockers())
        .singleElement()
        .satisfies(
            b -> {
              assertThat(b.code()).isEqualTo("ENGINE_NEEDS_OPERATOR");
              assertThat(b.message())
                  .contains("--engine aiperf-operator")
                  .contains("41 AIPerf worker(s)")
                  .contains("(rule: benchmarking/load-generator.md)");
            });
    RuleLog ok = new RuleLog();
    assertThat(
            LoadGeneratorPlanner.plan(closed(3200), null, List.of(), EngineRequest.JOB, ok)
                .orElseThrow()
                .engine())
        .isEqualTo("job");
  }

  @Test
  @DisplayName("--engine aiperf-operator is taken for any load, and recorded as requested")
  void operator() {
    BenchmarkPlan.LoadGenerator lg =
        LoadGeneratorPlanner.plan(
                closed(16), null, List.of(), EngineRequest.AIPERF_OPERATOR, new RuleLog())
            .orElseThrow();
    assertThat(lg.engine()).isEqualTo("aiperf-operator");
    assertThat(lg.requested()).isEqualTo("aiperf-operator");
    assertThat(lg.reason()).startsWith("requested with --engine aiperf-operator");
  }
}
