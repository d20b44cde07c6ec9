/**
 * The analysis of one series against its history: the findings log under the experiment root, noise
 * floor carried forward, comparisons, repeat decision and verdict.
 */
package dev.benchplan.analysis.series;
