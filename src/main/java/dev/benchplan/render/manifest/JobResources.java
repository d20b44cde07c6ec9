package dev.benchplan.render.manifest;

import java.util.Objects;

/**
 * The AIPerf container's requests and memory limit (agent-docs/rules/benchmarking/
 * load-generator.md): sized to the load point; no CPU limit, since throttling would distort
 * latency.
 *
 * @param cpuRequest the CPU request, e.g. {@code 2}
 * @param memoryRequest the memory request, e.g. {@code 2304Mi}
 * @param memoryLimit the memory limit, e.g. {@code 4608Mi}
 */
public record JobResources(String cpuRequest, String memoryRequest, String memoryLimit) {
  /** The fixed size of plans written before the load-generator rule. */
  public static final JobResources UNSIZED =
      new JobResources(
          PerfManifests.CPU_REQUEST, PerfManifests.MEMORY_REQUEST, PerfManifests.MEMORY_LIMIT);

  public JobResources {
    Objects.requireNonNull(cpuRequest, "cpuRequest");
    Objects.requireNonNull(memoryRequest, "memoryRequest");
    Objects.requireNonNull(memoryLimit, "memoryLimit");
  }

  /** {@code cpuCores} CPUs and {@code memoryMib} MiB requested; the memory limit twice that. */
  public static JobResources of(int cpuCores, int memoryMib) {
    if (cpuCores < 1 || memoryMib < 1) {
      throw new IllegalArgumentException("cpu and memory must be >= 1");
    }
    return new JobResources(Integer.toString(cpuCores), memoryMib + "Mi", 2L * memoryMib + "Mi");
  }
}
