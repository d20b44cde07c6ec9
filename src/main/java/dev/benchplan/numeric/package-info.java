/**
 * Numeric building blocks shared by the run diagnostics and the analysis: {@link
 * dev.benchplan.numeric.RadixSort} sorts per-request columns into the order {@link
 * java.util.Arrays#sort} gives, for less CPU in a short-lived process.
 */
package dev.benchplan.numeric;
