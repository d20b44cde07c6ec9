package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;

/**
 * The result of plan + render + run + gate for the validate target.
 *
 * @param verdict the gate's verdict: {@code pass}, {@code fail} or {@code error}
 * @param message the gate's one-line summary
 * @param results each constraint with its measured value
 * @param throughput measured output token throughput (tokens/s), or null
 * @param ttftP99 measured time to first token p99 (ms), or null
 * @param evidence where the plan, rendered files and run record are, and the versions used
 */
public record BenchmarkOutcome(
    String verdict, String message, List<ConstraintResult> results, Double throughput, Double ttftP99,
    BenchmarkEvidence evidence) {
  public BenchmarkOutcome {
    Objects.requireNonNull(verdict, "verdict");
    results = List.copyOf(results);
  }
}
