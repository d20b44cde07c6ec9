package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.util.Map;

/**
 * The default deployment's node choice, aware of GPUs allocated by DRA: when no node has a free
 * {@code nvidia.com/gpu} but the NVIDIA DRA driver publishes GPUs, validate refuses plainly (exit
 * 2, before anything is created) and names {@code --dgd} as the way, instead of failing as if the
 * cluster had no GPU (exit 3). A cluster with free device-plugin GPUs is chosen from as before,
 * without asking for ResourceSlices.
 */
public final class DraNodeChoice {
  private DraNodeChoice() {}

  /** {@link GpuNodeChoice#choose}, or the DRA refusal when only DRA-published GPUs exist. */
  public static GpuNodeChoice choose(ValidateCluster cluster, Map<String, String> selector) {
    try {
      return GpuNodeChoice.choose(cluster.gpuNodes(), selector);
    } catch (BenchplanException e) {
      if (e.exitCode() != ExitCode.RUNTIME) {
        throw e;
      }
      DraGpus dra = cluster.draGpus();
      if (!dra.detected()) {
        throw e;
      }
      throw BenchplanException.invalid(dra.refusal(e.getMessage()));
    }
  }
}
