package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;

/**
 * What the overlay asks of the inference performance check: whether it runs, with which
 * constraints, and, when it does not run, why.
 *
 * @param source where the constraints came from (the overlay path, or {@code defaults})
 * @param checks the checks the overlay lists under {@code validation.performance.checks}
 * @param constraints the inference constraints found (empty when none)
 * @param skipReason null when the check runs; otherwise why it is skipped
 */
public record PerformanceRequest(
    String source, List<String> checks, List<PerformanceConstraint> constraints, String skipReason) {
  /** The check names that select this check: AICR's merged name and the seed's name. */
  public static final List<String> CHECK_NAMES = List.of("inference-perf", "inference-throughput");

  public PerformanceRequest {
    Objects.requireNonNull(source, "source");
    checks = List.copyOf(checks);
    constraints = List.copyOf(constraints);
    if (skipReason == null && constraints.isEmpty()) {
      throw new IllegalArgumentException("a check that runs needs at least one constraint");
    }
  }

  /** Whether the check runs. */
  public boolean runs() {
    return skipReason == null;
  }

  /** Validate without an overlay: the check runs with the default constraints. */
  public static PerformanceRequest defaults() {
    return new PerformanceRequest(
        "defaults", List.of("inference-perf"), PerformanceConstraint.defaults(), null);
  }
}
