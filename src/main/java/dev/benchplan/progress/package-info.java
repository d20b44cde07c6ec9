/**
 * Progress on stderr: the ports long-running code reports to ({@link
 * dev.benchplan.progress.ProgressSink}, {@link dev.benchplan.progress.RunProgress}) and the one
 * renderer that prints them ({@link dev.benchplan.progress.ProgressRenderer}) in one line format.
 */
package dev.benchplan.progress;
