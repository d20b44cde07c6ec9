package dev.benchplan.workload;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A validated user workload (agent-docs/rules/execution/user-workload.md). Values are the user's,
 * exactly; null means unknown.
 *
 * @param document the document it was read from (path, SHA-256, lines)
 * @param profileName profile.name
 * @param profileType chat, agentic or custom
 * @param modelSource model.source, or null
 * @param modelRevision model.revision, or null
 * @param hardware GPUs by SKU (may be empty)
 * @param kubeContext kubernetes.kube_context, or null
 * @param namespace kubernetes.namespace, or null
 * @param dgdPath deployment.dgd_path resolved against the workload's folder, or null
 * @param dgdSha256 deployment.dgd_sha256, or null
 * @param origin deployment.origin, or null
 * @param traffic the traffic section (never null; fields may be null)
 * @param slos every objective, normalized (may be empty)
 * @param supportingTraces artifacts.supporting_traces resolved against the workload's folder
 */
public record UserWorkload(
    InputDocument document,
    String profileName,
    String profileType,
    @Nullable String modelSource,
    @Nullable String modelRevision,
    List<GpuAllocation> hardware,
    @Nullable String kubeContext,
    @Nullable String namespace,
    @Nullable Path dgdPath,
    @Nullable String dgdSha256,
    @Nullable String origin,
    Traffic traffic,
    List<Slo> slos,
    List<SupportingTrace> supportingTraces) {
  public UserWorkload {
    Objects.requireNonNull(document, "document");
    Objects.requireNonNull(profileName, "profileName");
    Objects.requireNonNull(profileType, "profileType");
    Objects.requireNonNull(traffic, "traffic");
    hardware = List.copyOf(hardware);
    slos = List.copyOf(slos);
    supportingTraces = List.copyOf(supportingTraces);
  }

  /**
   * A trace listed in the workload.
   *
   * @param path resolved absolute path
   * @param pointer where it was listed, e.g. {@code /artifacts/supporting_traces/0}
   */
  public record SupportingTrace(Path path, String pointer) {}
}
