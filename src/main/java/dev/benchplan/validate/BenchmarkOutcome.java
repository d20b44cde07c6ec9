package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;

/**
 * The result of running and gating the benchmark.
 *
 * @param verdict the gate's verdict: {@code pass}, {@code fail} or {@code error}
 * @param message the gate's one-line summary (or why the run failed)
 * @param failedStep for {@code error}: {@link ValidateStep#RUN} when the Job or AIPerf failed,
 *     {@link ValidateStep#GATE} when the export could not be judged; null otherwise
 * @param results each constraint with its measured value
 * @param throughput measured output token throughput (tokens/s), or null
 * @param ttftP99 measured time to first token p99 (ms), or null
 * @param runDir the run folder with the AIPerf artifacts and run.json, or null
 */
public record BenchmarkOutcome(
    String verdict, String message, ValidateStep failedStep, List<ConstraintResult> results,
    Double throughput, Double ttftP99, String runDir) {
  public BenchmarkOutcome {
    Objects.requireNonNull(verdict, "verdict");
    results = List.copyOf(results);
    if (!verdict.equals("pass") && !verdict.equals("fail") && !verdict.equals("error")) {
      throw new IllegalArgumentException("verdict must be pass, fail or error, got " + verdict);
    }
  }
}
