package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One component (v1beta1) or service (v1alpha1) of a DGD, as far as validate needs it.
 *
 * @param name the component name (the key in {@code spec.services}, or {@code name})
 * @param role its role, derived from componentType/type and subComponentType
 * @param replicas desired replicas (1 when unset)
 * @param readyReplicas ready replicas reported in the DGD status, or -1 when not reported
 * @param models served model names found in its command line (after env expansion)
 * @param unresolvedModel a model argument that could not be resolved (e.g. an unknown variable), or
 *     null
 */
public record DgdComponent(
    String name,
    Role role,
    int replicas,
    int readyReplicas,
    List<String> models,
    @Nullable String unresolvedModel) {

  /** What a component does in the graph. */
  public enum Role {
    FRONTEND,
    /** Token-generating worker: aggregated worker or decode worker. */
    WORKER,
    PREFILL,
    OTHER
  }

  public DgdComponent {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    models = List.copyOf(models);
  }

  /** The Service the operator creates for it: {@code <dgd>-<lowercased name, dots as hyphens>}. */
  public String serviceName(String dgdName) {
    return dgdName + "-" + name.toLowerCase(java.util.Locale.ROOT).replace('.', '-');
  }
}
