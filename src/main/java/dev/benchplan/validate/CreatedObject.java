package dev.benchplan.validate;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An object validate created (or is about to create), so that cleanup can delete exactly it.
 *
 * @param apiVersion e.g. {@code v1}, {@code batch/v1}, {@code nvidia.com/v1alpha1}
 * @param kind e.g. {@code Namespace}, {@code DynamoGraphDeployment}, {@code ConfigMap}, {@code Job}
 * @param namespace its namespace, null for a Namespace
 * @param name its name
 * @param labelKey a label the object must carry to be deleted (proof that this run made it)
 * @param labelValue that label's value
 */
public record CreatedObject(
    String apiVersion,
    String kind,
    @Nullable String namespace,
    String name,
    String labelKey,
    @Nullable String labelValue) {
  public CreatedObject {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(labelKey, "labelKey");
    Objects.requireNonNull(labelValue, "labelValue");
  }

  /** {@code Kind namespace/name}. */
  public String describe() {
    return kind + " " + (namespace == null ? "" : namespace + "/") + name;
  }
}
