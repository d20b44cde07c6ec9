package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;

/**
 * How the cluster serves DynamoGraphDeployments, found through API discovery.
 *
 * @param group the API group ({@code nvidia.com})
 * @param servedVersions the versions of the group that serve {@code dynamographdeployments}; empty
 *     when the CRD is not installed
 */
public record DgdApi(String group, List<String> servedVersions) {
  /** The DGD CRD's group. */
  public static final String GROUP = "nvidia.com";

  /** The DGD resource's plural name. */
  public static final String PLURAL = "dynamographdeployments";

  /** The DGD kind. */
  public static final String KIND = "DynamoGraphDeployment";

  /** The map-of-services form (Dynamo 0.9 and earlier; deprecated later). */
  public static final String V1ALPHA1 = "v1alpha1";

  /** The list-of-components form (Dynamo 1.x). */
  public static final String V1BETA1 = "v1beta1";

  public DgdApi {
    Objects.requireNonNull(group, "group");
    servedVersions = List.copyOf(servedVersions);
  }

  /** Whether the CRD is installed (some version serves the resource). */
  public boolean installed() {
    return !servedVersions.isEmpty();
  }

  /**
   * The version validate writes: v1alpha1 while the cluster serves it (the form AICR's template
   * uses), v1beta1 when only that is served, else the first served version.
   */
  public String version() {
    if (servedVersions.contains(V1ALPHA1)) {
      return V1ALPHA1;
    }
    if (servedVersions.contains(V1BETA1)) {
      return V1BETA1;
    }
    if (servedVersions.isEmpty()) {
      throw new IllegalStateException("the DGD CRD is not installed");
    }
    return servedVersions.get(0);
  }

  /** {@code group/version} of {@link #version()}. */
  public String apiVersion() {
    return group + "/" + version();
  }
}
