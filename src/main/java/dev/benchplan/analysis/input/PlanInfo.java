package dev.benchplan.analysis.input;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The plan a benchplan run names in run.json, as found on disk.
 *
 * @param path the plan path recorded in run.json
 * @param recordedSha256 the SHA-256 run.json records
 * @param actualSha256 the SHA-256 of the file now, or null when it cannot be read
 * @param plan the parsed plan, or null
 * @param problem why the plan cannot be used, or null
 */
public record PlanInfo(
    @Nullable String path,
    String recordedSha256,
    @Nullable String actualSha256,
    @Nullable ObjectNode plan,
    @Nullable String problem) {
  /**
   * The plan's question ({@code /question/text}), or null when the plan was not read or has none.
   */
  public @Nullable String question() {
    return plan == null ? null : plan.path("question").path("text").asString(null);
  }

  /** True when the plan was read and hashes to what run.json recorded. */
  public boolean verified() {
    return problem == null && plan != null;
  }
}
