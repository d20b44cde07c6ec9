package dev.benchplan.smoke;

import dev.benchplan.json.Sha256;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A smoke test that ran and left its artifact on disk.
 *
 * @param artifactPath the absolute path of the artifact
 * @param sha256 the SHA-256 of the artifact's bytes (what the ledger records)
 * @param artifact what the artifact says
 */
public record SmokeOutcome(Path artifactPath, String sha256, SmokeArtifact artifact) {
  public SmokeOutcome {
    Objects.requireNonNull(artifactPath, "artifactPath");
    Objects.requireNonNull(artifact, "artifact");
    if (!artifactPath.isAbsolute()) {
      throw new IllegalArgumentException("artifact path must be absolute: " + artifactPath);
    }
    if (!Sha256.isSha256(sha256)) {
      throw new IllegalArgumentException("not a SHA-256: " + sha256);
    }
  }
}
