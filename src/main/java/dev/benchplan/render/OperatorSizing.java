package dev.benchplan.render;

import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.LoadGeneratorPlanner;
import org.jspecify.annotations.Nullable;

/**
 * One load point's AIPerf sizing split over the operator's worker pods
 * (agent-docs/rules/benchmarking/load-generator.md, "The operator engine: per pod"). The plan's
 * {@code load_generator.points[]} hold the load's totals; AIPerf's operator runs the workers as N
 * worker pods of at most {@link #WORKERS_PER_POD} workers each, so the AIPerfJob gets the count per
 * pod ({@code benchmark.runtime.workersPerPod}) and the connections per worker, and every pod needs
 * its own CPU and memory by the same formula applied to its workers.
 *
 * @param loadPoint the plan's label of the point
 * @param totalWorkers the plan's workers for the whole load
 * @param totalCpuCores the plan's CPU for the whole load (ceil(0.4 x workers) + 1)
 * @param totalMemoryMib the plan's memory for the whole load (2048 + 256 x workers)
 * @param concurrency the point's concurrency (closed loop), or null
 * @param workerPods worker pods: ceil(total workers / workers per pod)
 * @param workersPerPod workers in each worker pod: min(total, 10)
 * @param connectionsPerWorker connections each worker keeps: ceil(C / total workers) for closed
 *     loop (C spread evenly), else the plan's figure (AIPerf's default 100)
 * @param podCpuCores CPU each worker pod needs: ceil(0.4 x workers per pod) + 1
 * @param podMemoryMib memory each worker pod needs: 2048 + 256 x workers per pod
 */
public record OperatorSizing(
    String loadPoint,
    int totalWorkers,
    int totalCpuCores,
    int totalMemoryMib,
    @Nullable Integer concurrency,
    int workerPods,
    int workersPerPod,
    int connectionsPerWorker,
    int podCpuCores,
    int podMemoryMib) {
  /** Workers per worker pod: AIPerf's operator default (AIPERF_K8S workers_per_pod). */
  public static final int WORKERS_PER_POD = 10;

  /**
   * Splits {@code total} (the plan's sizing of {@code point}, or null in a plan that lists none:
   * then the point's own formula applies) over worker pods.
   */
  public static OperatorSizing split(BenchmarkPlan.@Nullable PointSizing total, LoadPoint point) {
    Integer c = point.concurrency();
    java.math.BigDecimal rate = point.rate();
    int workers;
    String label;
    if (total != null) {
      workers = total.workers();
      label = total.loadPoint();
    } else {
      workers =
          c != null
              ? LoadGeneratorPlanner.workersForConcurrency(c)
              : rate != null ? LoadGeneratorPlanner.workersForRate(rate) : 1;
      label =
          c != null
              ? "concurrency=" + c
              : rate != null ? "request_rate=" + point.describe() : "fixed_schedule";
    }
    workers = Math.max(1, workers);
    int perPod = Math.min(workers, WORKERS_PER_POD);
    int pods = (workers + perPod - 1) / perPod;
    int cpw;
    if (c != null) {
      cpw = Math.max(1, (c + workers - 1) / workers);
    } else if (total != null && total.connectionsPerWorker() != null) {
      cpw = total.connectionsPerWorker();
    } else {
      cpw = AiperfJobContract.DEFAULT_CONNECTIONS_PER_WORKER;
    }
    int totalCpu = total != null ? total.cpuCores() : LoadGeneratorPlanner.cpuCores(workers);
    int totalMem = total != null ? total.memoryMib() : LoadGeneratorPlanner.memoryMib(workers);
    return new OperatorSizing(
        label,
        workers,
        totalCpu,
        totalMem,
        c,
        pods,
        perPod,
        cpw,
        LoadGeneratorPlanner.cpuCores(perPod),
        LoadGeneratorPlanner.memoryMib(perPod));
  }

  /** One line for the AIPerfJob's annotation and render's output. */
  public String describe() {
    return loadPoint
        + ": "
        + totalWorkers
        + " worker(s) in total ("
        + totalCpuCores
        + " CPU, "
        + totalMemoryMib
        + " MiB) = "
        + workerPods
        + " worker pod(s) x "
        + workersPerPod
        + " worker(s), "
        + connectionsPerWorker
        + " connection(s) per worker, "
        + podCpuCores
        + " CPU and "
        + podMemoryMib
        + " MiB per pod";
  }
}
