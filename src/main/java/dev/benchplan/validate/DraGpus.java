package dev.benchplan.validate;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * GPUs the cluster publishes through Dynamic Resource Allocation: the devices of the NVIDIA DRA
 * driver's ResourceSlices (driver {@code gpu.nvidia.com}) per node, as read by validate's default
 * deployment before it chooses a node. A cluster that does not serve the API (404), a user who may
 * not list ResourceSlices (403) or no slice of that driver: not detected, never an error.
 *
 * @param apiVersion the resource.k8s.io version read (e.g. {@code resource.k8s.io/v1}), or null
 * @param devicesByNode devices per node name (slices without a node name under "(no node)")
 * @param note how it was found, or why not
 */
public record DraGpus(
    @Nullable String apiVersion, Map<String, Integer> devicesByNode, String note) {
  /** The NVIDIA DRA driver's name in a ResourceSlice's {@code spec.driver}. */
  public static final String DRIVER = "gpu.nvidia.com";

  public DraGpus {
    devicesByNode = Map.copyOf(new TreeMap<>(devicesByNode));
    Objects.requireNonNull(note, "note");
  }

  /** Nothing found, and why. */
  public static DraGpus notDetected(String why) {
    return new DraGpus(null, Map.of(), why);
  }

  /** True when at least one device of {@link #DRIVER} is published. */
  public boolean detected() {
    return devicesByNode.values().stream().anyMatch(n -> n > 0);
  }

  /** "node-a 8, node-b 8" in name order. */
  public String perNode() {
    StringBuilder b = new StringBuilder();
    new TreeMap<>(devicesByNode)
        .forEach((n, d) -> b.append(b.length() == 0 ? "" : ", ").append(n).append(' ').append(d));
    return b.toString();
  }

  /**
   * validate's refusal when the default deployment finds no {@code nvidia.com/gpu} to request but
   * DRA publishes GPUs: its DGD requests the device-plugin resource and cannot claim them.
   */
  public String refusal(String noDevicePluginGpu) {
    return "the cluster publishes its GPUs through Dynamic Resource Allocation ("
        + apiVersion
        + " ResourceSlices of driver "
        + DRIVER
        + ": "
        + perNode()
        + "), and "
        + noDevicePluginGpu
        + "; validate's default deployment requests "
        + GpuNode.GPU_RESOURCE
        + " and does not create resource claims: deploy the DGD with its claims yourself and"
        + " validate it with --dgd NS/NAME (nothing was created)";
  }
}
