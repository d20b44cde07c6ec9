package dev.benchplan.plan;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of a successful {@code plan}: a new plan written, or an existing series reused.
 *
 * @param planPath absolute path of the plan file
 * @param sha256 SHA-256 of the plan file
 * @param seriesId the series ID
 * @param planId the plan ID
 * @param workloadSource user_trace, user_static or recipe_proxy
 * @param aiperfVersion the AIPerf version of the series
 * @param warnings what the user should know (also written into a new plan)
 * @param reused true when an existing series plan was reused and nothing was written
 * @param plan the plan the file holds
 */
public record PlanResult(
    Path planPath,
    String sha256,
    String seriesId,
    @Nullable String planId,
    String workloadSource,
    String aiperfVersion,
    List<String> warnings,
    boolean reused,
    BenchmarkPlan plan) {
  public PlanResult {
    Objects.requireNonNull(planPath, "planPath");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(plan, "plan");
    warnings = List.copyOf(warnings);
  }

  /** The plan file as verified: written (or found) with this SHA-256, schema-valid. */
  public VerifiedPlan verified() {
    return new VerifiedPlan(planPath, sha256, plan);
  }
}
