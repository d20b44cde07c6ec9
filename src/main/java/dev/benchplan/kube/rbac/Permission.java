package dev.benchplan.kube.rbac;

import dev.benchplan.kube.KubeCall;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One (verb, resource) pair a command needs, where, and the table row that needs it.
 *
 * @param verb the verb
 * @param group the API group ("" for core)
 * @param resource the resource
 * @param subresource the subresource, or null
 * @param namespace the namespace, or null for all namespaces / cluster-scoped
 * @param resourceName the one object, or null
 * @param row the table row
 */
public record Permission(
    String verb,
    String group,
    String resource,
    @Nullable String subresource,
    @Nullable String namespace,
    @Nullable String resourceName,
    KubeCall row) {
  public Permission {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(row, "row");
  }

  /** {@code resource[/sub][.group]}, as kubectl names it. */
  public String resourceRef() {
    return resource
        + (subresource == null ? "" : "/" + subresource)
        + (group.isEmpty() ? "" : "." + group);
  }

  /** The same permission, ignoring the row (for de-duplication). */
  public String key() {
    return verb + " " + resourceRef() + " " + namespace + " " + resourceName;
  }

  /** One line: {@code list pods in namespace bench (run watch: the Job's pod)}. */
  public String describe() {
    String where =
        row.clusterScopedResource()
            ? (resourceName == null ? "" : " named " + resourceName)
            : namespace == null ? " in all namespaces" : " in namespace " + namespace;
    return verb + " " + resourceRef() + where + " (" + row.step() + ")";
  }

  /** As {@code kubectl auth can-i} asks. */
  public String canI() {
    return "kubectl auth can-i "
        + verb
        + " "
        + resourceRef()
        + (resourceName == null ? "" : "/" + resourceName)
        + (row.clusterScopedResource()
            ? ""
            : namespace == null ? " --all-namespaces" : " -n " + namespace);
  }
}
