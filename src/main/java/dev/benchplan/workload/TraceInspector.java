package dev.benchplan.workload;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Inspects a Mooncake-format trace: the seam between planning and the trace scanner ({@code
 * dev.benchplan.trace.TraceScanner}), so plans can be built and tested with any inspector.
 */
@FunctionalInterface
public interface TraceInspector {
  /**
   * Scans the trace.
   *
   * @param file the trace
   * @param blockSize tokens per hash block (512 for Mooncake traces)
   * @param maxContext the served context limit, or null when unknown
   * @param windowStartMs start of an explicit replay window (inclusive), or null
   * @param windowEndMs end of the window (inclusive), or null
   * @return the full report, as {@code trace inspect --format json} prints it
   * @throws dev.benchplan.error.BenchplanException (exit 2) when the file is missing or unreadable
   */
  Inspection inspect(
      Path file,
      int blockSize,
      @Nullable Long maxContext,
      @Nullable Long windowStartMs,
      @Nullable Long windowEndMs);

  /**
   * A trace report.
   *
   * @param report the JSON report ({@code trace inspect --format json} keys, plus {@code window})
   * @param valid true when the trace has no problems
   */
  record Inspection(ObjectNode report, boolean valid) {
    public Inspection {
      java.util.Objects.requireNonNull(report, "report");
    }
  }
}
