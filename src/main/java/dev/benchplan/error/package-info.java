/**
 * Errors: the exit-code scheme ({@link dev.benchplan.error.ExitCode}), the exception services throw
 * ({@link dev.benchplan.error.BenchplanException}, with an optional {@link
 * dev.benchplan.error.ErrorLocation}), the one mapper from any exception to an {@link
 * dev.benchplan.error.ErrorReport} ({@link dev.benchplan.error.ErrorMapper}), and the one mapper
 * from parser and I/O exceptions to one-line messages ({@link dev.benchplan.error.InputErrors}).
 */
package dev.benchplan.error;
