package dev.benchplan.validate;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How many GPUs a DGD's workers hold, and where that figure came from.
 *
 * @param gpus the count, or null when there is no per-GPU figure (GPUs from DRA claims, or no GPU
 *     request at all)
 * @param source where the count came from (e.g. {@code dgd: VllmDecodeWorker 1 x 8 replicas})
 * @param note why there is no count, or null
 */
public record GpuCount(@Nullable Integer gpus, String source, @Nullable String note) {
  public GpuCount {
    Objects.requireNonNull(source, "source");
    if (gpus != null && gpus < 1) {
      throw new IllegalArgumentException("a GPU count is positive, got " + gpus);
    }
  }

  /** Whether there is a per-GPU figure. */
  public boolean known() {
    return gpus != null;
  }
}
