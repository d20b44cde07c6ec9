package dev.benchplan.render.manifest;

import java.util.Objects;

/** Where the pod reads the trace from. */
public sealed interface TraceVolume {
  /**
   * The trace file itself, carried in a ConfigMap of its own.
   *
   * @param content the trace's exact text (UTF-8)
   */
  record InConfigMap(String content) implements TraceVolume {
    public InConfigMap {
      Objects.requireNonNull(content, "content");
    }
  }

  /**
   * A trace the operator placed on a PVC.
   *
   * @param claim the PVC, mounted read-only
   * @param path the trace file inside the claim
   */
  record OnClaim(String claim, String path) implements TraceVolume {
    public OnClaim {
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(path, "path");
    }
  }
}
