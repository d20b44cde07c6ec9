package dev.benchplan.trace;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import org.jspecify.annotations.Nullable;

/**
 * What a trace scan checks besides the fixed rules.
 *
 * @param blockSize tokens per hash block (Mooncake and AIPerf use 512)
 * @param maxContext a context limit in tokens: rows whose input_length + output_length exceed it
 *     are counted and their first line numbers listed (never dropped); null for no limit
 * @param windowStartMs start of an explicit replay window in trace milliseconds, inclusive; null
 *     for an open start
 * @param windowEndMs end of the replay window, inclusive; null for an open end. The report has a
 *     {@code window} section when either bound is given.
 */
public record TraceScanOptions(
    int blockSize,
    @Nullable Long maxContext,
    @Nullable Long windowStartMs,
    @Nullable Long windowEndMs) {
  /** The window's option ({@code plan --trace-window} is parsed before it gets here). */
  private static final ErrorLocation WINDOW = ErrorLocation.option("--window");

  /** The block size Mooncake traces and AIPerf use. */
  public static final int DEFAULT_BLOCK_SIZE = 512;

  public TraceScanOptions {
    if (blockSize < 1) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--block-size"),
          "--block-size: expected a positive number of tokens, got " + blockSize);
    }
    if (maxContext != null && maxContext < 1) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--max-context"),
          "--max-context: expected a positive number of tokens, got " + maxContext);
    }
    if (windowStartMs != null && windowStartMs < 0) {
      throw BenchplanException.invalid(
          WINDOW,
          "window start: expected a non-negative number of milliseconds, got " + windowStartMs);
    }
    if (windowEndMs != null && windowEndMs < 0) {
      throw BenchplanException.invalid(
          WINDOW, "window end: expected a non-negative number of milliseconds, got " + windowEndMs);
    }
    if (windowStartMs != null && windowEndMs != null && windowEndMs < windowStartMs) {
      throw BenchplanException.invalid(
          WINDOW,
          "window: expected start <= end, got start "
              + windowStartMs
              + " ms, end "
              + windowEndMs
              + " ms");
    }
  }

  /** Block size 512, no context limit, no window. */
  public static TraceScanOptions defaults() {
    return new TraceScanOptions(DEFAULT_BLOCK_SIZE, null, null, null);
  }

  /** These options with a context limit (null for none). */
  public TraceScanOptions withMaxContext(Long limit) {
    return new TraceScanOptions(blockSize, limit, windowStartMs, windowEndMs);
  }

  /** These options with an inclusive replay window (either bound may be null: open). */
  public TraceScanOptions withWindow(Long startMs, Long endMs) {
    return new TraceScanOptions(blockSize, maxContext, startMs, endMs);
  }

  /** True when a replay window was given. */
  public boolean hasWindow() {
    return windowStartMs != null || windowEndMs != null;
  }
}
