package dev.benchplan.aiperf.config;

import java.util.Objects;

/** Where the prompts come from: synthetic lengths, or a Mooncake trace file in the pod. */
public sealed interface Dataset {
  /**
   * Synthetic prompts with normally distributed input and requested output lengths.
   *
   * @param entries unique prompts generated (each measured request gets its own when possible, so a
   *     warm prefix cache cannot inflate results)
   */
  record Synthetic(int islMean, int islStddev, int oslMean, int oslStddev, long entries)
      implements Dataset {
    public Synthetic {
      if (islMean < 1 || oslMean < 1) {
        throw new IllegalArgumentException("ISL and OSL must be >= 1");
      }
      if (islStddev < 0 || oslStddev < 0) {
        throw new IllegalArgumentException("stddev must be >= 0");
      }
      if (entries < 1) {
        throw new IllegalArgumentException("entries must be >= 1");
      }
    }
  }

  /** A Mooncake-format JSONL trace at {@code path} inside the pod. */
  record MooncakeTrace(String path) implements Dataset {
    public MooncakeTrace {
      Objects.requireNonNull(path, "path");
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("in-pod trace path must be absolute: " + path);
      }
    }
  }
}
