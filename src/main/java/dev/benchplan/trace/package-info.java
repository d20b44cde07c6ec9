/**
 * Streaming Mooncake-format trace scanning: one pass over the file that validates every row, hashes
 * the exact bytes (SHA-256) and characterises the workload (timestamps, input/output length
 * distributions, hash-block prefix reuse, context-limit overruns).
 *
 * <p>The entry point is {@link dev.benchplan.trace.TraceScanner#scan(java.nio.file.Path,
 * TraceScanOptions)}; it returns a {@link dev.benchplan.trace.TraceReport} whose {@code toJson()}
 * is the {@code trace inspect --format json} document.
 */
package dev.benchplan.trace;
