package dev.benchplan.validate;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The parts of a Kubernetes Service that frontend discovery looks at.
 *
 * @param namespace its namespace
 * @param name its name
 * @param labels its labels
 * @param owners its owner references
 * @param ports its ports
 */
public record ServiceInfo(
    String namespace,
    String name,
    Map<String, String> labels,
    List<Owner> owners,
    List<Port> ports) {

  /** The operator's label naming the component type (frontend, worker, ...). */
  public static final String COMPONENT_TYPE_LABEL = "nvidia.com/dynamo-component-type";

  /** The operator's label naming the DGD a pod or Service belongs to. */
  public static final String DGD_NAME_LABEL = "nvidia.com/dynamo-graph-deployment-name";

  /** An owner reference. */
  public record Owner(String kind, String name, String uid) {}

  /** A Service port. */
  public record Port(String name, int port) {}

  public ServiceInfo {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    owners = owners == null ? List.of() : List.copyOf(owners);
    ports = ports == null ? List.of() : List.copyOf(ports);
  }

  /** The HTTP port: the one named {@code http}, else 8000; -1 when neither exists. */
  public int httpPort() {
    for (Port p : ports) {
      if ("http".equals(p.name())) {
        return p.port();
      }
    }
    for (Port p : ports) {
      if (p.port() == 8000) {
        return 8000;
      }
    }
    return -1;
  }
}
