/**
 * The command line, on top of every other package: the picocli commands (one per {@code benchplan}
 * subcommand, from {@link dev.benchplan.cli.BenchplanCommand}), their option converters, and the
 * one output path ({@link dev.benchplan.cli.CommandOutput} printed as text or JSON by {@link
 * dev.benchplan.cli.Printer}); nothing outside this package depends on it.
 */
package dev.benchplan.cli;
