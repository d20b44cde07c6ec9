package dev.benchplan.plan;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A request to run under an existing series plan instead of writing a new one.
 *
 * @param plan the existing plan file
 * @param sha256 the SHA-256 it must hash to
 */
public record ReuseRequest(Path plan, String sha256) {
  public ReuseRequest {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(sha256, "sha256");
  }
}
