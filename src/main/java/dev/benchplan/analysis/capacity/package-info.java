/**
 * The capacity answer of a load grid: scaling efficiency between neighbouring load points, the knee
 * (where latency grows faster than throughput), the highest SLO-feasible point with its 95%
 * intervals, and whether the sweep saturated. Self-contained: it takes numbers per load point and
 * returns a {@link dev.benchplan.analysis.capacity.CapacityDoc}.
 */
@NullMarked
package dev.benchplan.analysis.capacity;

import org.jspecify.annotations.NullMarked;
