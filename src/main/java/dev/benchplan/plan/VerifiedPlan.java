package dev.benchplan.plan;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A series plan read by {@link PlanFile#verify}: its bytes hash to the SHA-256 the caller named,
 * and it passes the plan schema and the cross-field rules.
 *
 * @param path the plan file, absolute and normalised
 * @param sha256 its SHA-256 (lowercase hex)
 * @param plan the typed plan
 */
public record VerifiedPlan(Path path, String sha256, BenchmarkPlan plan) {
  public VerifiedPlan {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(sha256, "sha256");
    Objects.requireNonNull(plan, "plan");
  }

  /**
   * The anchor every relative path in the plan resolves against: the experiment root ({@code
   * <root>/inputs/benchmark-plans/<plan>}), or the plan's folder when it lies elsewhere.
   */
  public Path folder() {
    Path root = PlanPaths.expRootOf(path);
    if (root != null) {
      return root;
    }
    Path parent = path.getParent();
    return parent != null ? parent : Path.of(""); // a bare file name lies in the working directory
  }

  /** The frontend's base URL ({@code /deployment/endpoint_url}) without a trailing slash. */
  public String endpointUrl() {
    String url = plan.deployment().endpointUrl();
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
