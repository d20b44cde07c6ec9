package dev.benchplan.validate;

import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.MedianGate;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of running and gating the benchmark: the gate's own verdict.
 *
 * @param gate the gate's verdict (pass, fail or error; never skip: validate always gates)
 * @param message the one-line summary (the gate's, or why the run failed)
 * @param failedStep for an error: {@link ValidateStep#RUN} when the Job or AIPerf failed, {@link
 *     ValidateStep#GATE} when the export could not be judged; null otherwise
 * @param runDir the run folder with the AIPerf artifacts and run.json, or null
 * @param repeats with {@code --repeats} above 1: every repeat's verdict and whether they disagree
 *     ({@code gate} is then the median's verdict); null for one measurement
 */
public record BenchmarkOutcome(
    Verdict gate,
    String message,
    @Nullable ValidateStep failedStep,
    String runDir,
    MedianGate.@Nullable Result repeats) {
  /** The outcome of one measurement. */
  public BenchmarkOutcome(
      Verdict gate, String message, @Nullable ValidateStep failedStep, String runDir) {
    this(gate, message, failedStep, runDir, null);
  }

  public BenchmarkOutcome {
    Objects.requireNonNull(gate, "gate");
    Objects.requireNonNull(message, "message");
    if (gate.verdict() == Status.SKIP) {
      throw new IllegalArgumentException("the gate found no constraint to judge");
    }
  }

  /** Pass, fail or error (never skip). */
  public Status verdict() {
    return gate.verdict();
  }

  /** Measured output token throughput (tokens/sec), or null. */
  public @Nullable BigDecimal throughput() {
    return measured(ConstraintReader.THROUGHPUT);
  }

  /** Measured time to first token p99 (ms), or null. */
  public @Nullable BigDecimal ttftP99() {
    return measured(ConstraintReader.TTFT_P99);
  }

  private @Nullable BigDecimal measured(String name) {
    return gate.constraints().stream()
        .filter(c -> c.name().equals(name))
        .map(ConstraintResult::measured)
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(null);
  }
}
