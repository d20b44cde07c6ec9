package dev.benchplan.render;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What {@code benchplan render} was asked: the plan and its SHA-256, the deploy root, and the
 * optional run-scoped overrides (null when not given).
 *
 * @param clock and {@code random} choose the run id (fixed in tests)
 */
public record RenderRequest(
    Path plan,
    String planSha256,
    Path deployRoot,
    String namespace,
    String jobName,
    String image,
    String artifacts,
    String traceSource,
    String loadPoint,
    Clock clock,
    RandomGenerator random) {
  public RenderRequest {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(planSha256, "planSha256");
    Objects.requireNonNull(deployRoot, "deployRoot");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(random, "random");
  }
}
