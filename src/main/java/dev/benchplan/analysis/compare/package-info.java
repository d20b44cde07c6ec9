/**
 * What a comparison judges: the metrics and their direction, SLOs, Pareto frontiers, and the
 * eligibility of two sets of runs.
 */
package dev.benchplan.analysis.compare;
