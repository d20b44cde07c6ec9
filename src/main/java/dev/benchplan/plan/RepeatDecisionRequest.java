package dev.benchplan.plan;

import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code plan --repeat-decision FILE --repeat-decision-sha256 SHA}: an analysis's {@code
 * repeat_decision.json} that pre-authorizes the noise-floor pilot of the series it names.
 *
 * @param file the decision file
 * @param sha256 the SHA-256 it must hash to
 */
public record RepeatDecisionRequest(Path file, String sha256) {
  public RepeatDecisionRequest {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sha256, "sha256");
  }
}
