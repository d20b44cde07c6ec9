package dev.benchplan.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a plan needs from an applied DynamoGraphDeployment manifest: its identity and the Secret
 * names it references (so the benchmark can reference the same ones by name, never by value).
 *
 * @param apiVersion e.g. {@code nvidia.com/v1alpha1}
 * @param kind must be {@code DynamoGraphDeployment}
 * @param name metadata.name
 * @param secretNames Secrets referenced anywhere in it (envFromSecret, secretKeyRef, secretRef,
 *     secretName, imagePullSecrets), sorted
 */
public record DgdManifest(
    @Nullable String apiVersion,
    @Nullable String kind,
    @Nullable String name,
    List<String> secretNames) {
  public DgdManifest {
    secretNames = List.copyOf(secretNames);
  }

  /** Reads the fields from a parsed manifest; missing fields are null. */
  public static DgdManifest of(JsonNode manifest) {
    TreeSet<String> secrets = new TreeSet<>();
    collectSecrets(manifest, null, secrets);
    return new DgdManifest(
        text(manifest.path("apiVersion")),
        text(manifest.path("kind")),
        text(manifest.at("/metadata/name")),
        new ArrayList<>(secrets));
  }

  /** True when this is a DynamoGraphDeployment of the nvidia.com group. */
  public boolean isDgd() {
    return "DynamoGraphDeployment".equals(kind)
        && apiVersion != null
        && apiVersion.startsWith("nvidia.com/");
  }

  private static void collectSecrets(JsonNode node, @Nullable String key, TreeSet<String> out) {
    if (node.isObject()) {
      for (String name : node.propertyNames()) {
        JsonNode child = node.get(name);
        if ((name.equals("envFromSecret") || name.equals("secretName")) && child.isString()) {
          out.add(child.asString());
        } else if ((name.equals("secretKeyRef") || name.equals("secretRef"))
            && child.path("name").isString()) {
          out.add(child.get("name").asString());
        } else if (name.equals("imagePullSecrets") && child.isArray()) {
          for (JsonNode ref : child) {
            if (ref.path("name").isString()) {
              out.add(ref.get("name").asString());
            }
          }
        }
        collectSecrets(child, name, out);
      }
    } else if (node.isArray()) {
      for (JsonNode child : node) {
        collectSecrets(child, key, out);
      }
    }
  }

  private static @Nullable String text(JsonNode n) {
    return n.isString() ? n.asString() : null;
  }
}
