package dev.benchplan.workload;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ExitCode;
import java.nio.file.Path;

/**
 * The production {@link TraceInspector}: delegates to the project's trace scanner
 * ({@code dev.benchplan.trace.TraceScanner}, the same code as {@code trace inspect}).
 */
public final class ScannerTraceInspector implements TraceInspector {
  @Override
  public Inspection inspect(Path file, int blockSize, Long maxContext, Long windowStartMs,
      Long windowEndMs) {
    // replaced by the TraceScanner call once the scanner is merged
    throw new BenchplanException(ExitCode.INTERNAL, "trace scanning is not available in this build");
  }
}
