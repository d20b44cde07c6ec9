/**
 * Errors: the exit-code scheme ({@link dev.benchplan.error.ExitCode}), the exception services throw
 * ({@link dev.benchplan.error.BenchplanException}, carrying the {@link
 * dev.benchplan.error.ErrorLocation} its throw site gave), the one mapper from any exception to an
 * {@link dev.benchplan.error.ErrorReport} ({@link dev.benchplan.error.ErrorMapper}, which never
 * reads a place back out of a message or looks at the file system), and the one mapper from parser
 * and I/O exceptions to one-line messages ({@link dev.benchplan.error.InputErrors}).
 */
package dev.benchplan.error;
