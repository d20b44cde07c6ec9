package dev.benchplan.validate;

import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * What validate benchmarks, decided before anything is created: an existing DGD's frontend, or the
 * default deployment as it will be once ready.
 *
 * @param target the frontend to measure (for the default deployment: as planned)
 * @param deployment the default deployment to create, or null for an existing DGD
 * @param dgdDocument the DGD measured: as read from the cluster, or the manifest to deploy
 * @param gpuType the GPU model for the record ({@code nvidia.com/gpu.product}, or {@code unknown})
 * @param gpus the GPUs behind the target
 * @param floorScale AICR's throughput-floor scaling on a partly occupied node, or null
 * @param inputs the inputs with what this choice resolved (the served model, the runtime image)
 */
record TargetChoice(
    FrontendTarget target,
    @Nullable DefaultDeployment deployment,
    ObjectNode dgdDocument,
    String gpuType,
    GpuCount gpus,
    @Nullable FloorScale floorScale,
    ValidateInputs inputs) {
  TargetChoice {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(dgdDocument, "dgdDocument");
    Objects.requireNonNull(gpuType, "gpuType");
    Objects.requireNonNull(gpus, "gpus");
    Objects.requireNonNull(inputs, "inputs");
  }

  /**
   * AICR's rule on a partly occupied node: the throughput floor times free GPUs / node GPUs.
   *
   * @param scale free / node GPUs, below 1
   * @param why the figures, e.g. {@code free / node GPUs 2/8 on node gpu-a}
   */
  record FloorScale(BigDecimal scale, String why) {
    FloorScale {
      Objects.requireNonNull(scale, "scale");
      Objects.requireNonNull(why, "why");
    }
  }
}
