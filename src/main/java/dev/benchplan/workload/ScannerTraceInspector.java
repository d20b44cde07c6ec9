package dev.benchplan.workload;

import dev.benchplan.trace.TraceReport;
import dev.benchplan.trace.TraceScanOptions;
import dev.benchplan.trace.TraceScanner;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The production {@link TraceInspector}: the project's streaming trace scanner, the same code and
 * report as {@code benchplan trace inspect --format json}.
 */
public final class ScannerTraceInspector implements TraceInspector {
  @Override
  public Inspection inspect(
      Path file,
      int blockSize,
      @Nullable Long maxContext,
      @Nullable Long windowStartMs,
      @Nullable Long windowEndMs) {
    TraceReport report =
        TraceScanner.scan(
            file, new TraceScanOptions(blockSize, maxContext, windowStartMs, windowEndMs));
    return new Inspection(report.toJson(), report.valid());
  }
}
