package dev.benchplan.validate;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A node as the GPU choice sees it.
 *
 * @param name the node name
 * @param labels its labels
 * @param allocatableGpus allocatable {@code nvidia.com/gpu}
 * @param requestedGpus GPUs requested by the non-terminal pods bound to it
 * @param unschedulable whether it is cordoned
 * @param ready its Ready condition: true, false, or null when it reports none
 * @param taints its taints
 */
public record GpuNode(
    String name,
    Map<String, String> labels,
    long allocatableGpus,
    long requestedGpus,
    boolean unschedulable,
    @Nullable Boolean ready,
    List<NodeTaint> taints) {

  /** The extended resource the NVIDIA device plugin advertises. */
  public static final String GPU_RESOURCE = "nvidia.com/gpu";

  public GpuNode {
    Objects.requireNonNull(name, "name");
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
    if (allocatableGpus < 0 || requestedGpus < 0) {
      throw new IllegalArgumentException("negative GPU count on node " + name);
    }
  }

  /** Allocatable minus requested, never below zero. */
  public long freeGpus() {
    return Math.max(0, allocatableGpus - requestedGpus);
  }

  /**
   * The GPUs a pod holds: the larger of the sum over its containers and the largest init container
   * (init containers run one at a time before the others), as the scheduler counts.
   */
  public static long podGpus(List<Long> containers, List<Long> initContainers) {
    long sum = containers.stream().mapToLong(Long::longValue).sum();
    long init = initContainers.stream().mapToLong(Long::longValue).max().orElse(0);
    return Math.max(sum, init);
  }
}
