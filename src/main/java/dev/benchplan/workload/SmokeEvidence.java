package dev.benchplan.workload;

import dev.benchplan.json.Sha256;
import java.util.Objects;

/**
 * Proof that the deployed endpoint serves before anything is planned
 * (agent-docs/rules/execution/deployment-ledger.md).
 */
public sealed interface SmokeEvidence permits SmokeEvidence.Artifact, SmokeEvidence.InClusterReadiness {
  /** {@code smoke_artifact} or {@code in_cluster_readiness}, as recorded in the plan. */
  String kind();

  /**
   * A smoke-test artifact written by {@code benchplan smoke}, checked to exist, to hash to the
   * recorded SHA-256 and to say {@code success: true}. The only kind a ledger file can carry.
   *
   * @param path absolute path of the artifact
   * @param sha256 its SHA-256 (verified)
   * @param model the model the smoke test asked for
   * @param url the URL it reached
   * @param timestamp when it ran (ISO-8601 UTC), or null
   * @param timing what the smoke request measured, or null when the artifact does not say
   */
  record Artifact(String path, String sha256, String model, String url, String timestamp,
      SmokeTiming timing) implements SmokeEvidence {
    public Artifact {
      Objects.requireNonNull(path, "path");
      if (!Sha256.isSha256(sha256)) {
        throw new IllegalArgumentException("smoke artifact sha256 must be 64 hex characters");
      }
    }

    @Override
    public String kind() {
      return "smoke_artifact";
    }
  }

  /**
   * Readiness proven inside the cluster by the benchmark itself: the AIPerf Job waits until a real
   * completion succeeds before it measures. Only for plans built in code by a caller that deploys
   * the candidate itself (e.g. {@code benchplan validate}); recorded as such in the plan.
   *
   * @param declaredBy who declares it, e.g. {@code benchplan validate}
   * @param description how readiness is proven, in one sentence
   */
  record InClusterReadiness(String declaredBy, String description) implements SmokeEvidence {
    public InClusterReadiness {
      Objects.requireNonNull(declaredBy, "declaredBy");
      Objects.requireNonNull(description, "description");
      if (declaredBy.isBlank() || description.isBlank()) {
        throw new IllegalArgumentException("in-cluster readiness needs who declares it and how");
      }
    }

    @Override
    public String kind() {
      return "in_cluster_readiness";
    }
  }
}
