package dev.benchplan.workload;

import java.util.Objects;

/**
 * GPUs of one SKU (mixed SKUs stay separate entries).
 *
 * @param gpuType the SKU, e.g. {@code H100-SXM5-80GB}
 * @param gpuCount how many, at least 1
 */
public record GpuAllocation(String gpuType, int gpuCount) {
  public GpuAllocation {
    Objects.requireNonNull(gpuType, "gpuType");
    if (gpuType.isBlank()) {
      throw new IllegalArgumentException("gpu_type must not be blank");
    }
    if (gpuCount < 1) {
      throw new IllegalArgumentException("gpu_count must be at least 1, got " + gpuCount);
    }
  }
}
