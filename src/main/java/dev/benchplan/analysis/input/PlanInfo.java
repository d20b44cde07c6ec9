package dev.benchplan.analysis.input;

import dev.benchplan.plan.BenchmarkPlan;
import org.jspecify.annotations.Nullable;

/**
 * The plan a benchplan run names in run.json, as found on disk and read by the one plan reader
 * ({@link dev.benchplan.plan.PlanFile}).
 *
 * @param path the plan path recorded in run.json
 * @param recordedSha256 the SHA-256 run.json records
 * @param actualSha256 the SHA-256 of the file now, or null when it cannot be read
 * @param plan the plan, or null when it cannot be read, changed after the run or is not a valid
 *     plan
 * @param problem why the plan cannot be used, or null
 */
public record PlanInfo(
    @Nullable String path,
    String recordedSha256,
    @Nullable String actualSha256,
    @Nullable BenchmarkPlan plan,
    @Nullable String problem) {
  /** The plan's question ({@code /question/text}), or null when the plan was not read. */
  public @Nullable String question() {
    return plan == null ? null : plan.question().text();
  }

  /** True when the plan was read and hashes to what run.json recorded. */
  public boolean verified() {
    return problem == null && plan != null;
  }
}
