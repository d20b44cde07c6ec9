package dev.benchplan.validate;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real DGD CRD's OpenAPI schema for one version, made strict: every object that lists its
 * properties (and does not preserve unknown fields) rejects others, so a field the API server would
 * silently prune fails the test instead.
 */
public final class CrdSchemas {
  public static final String V090 =
      "dynamo/v0.9.0/deploy/helm/charts/crds/templates/nvidia.com_dynamographdeployments.yaml";
  static final String MAIN =
      "dynamo/main-2026-08-21/deploy/operator/config/crd/bases/nvidia.com_dynamographdeployments.yaml";
  private static final Map<String, SchemaValidator> CACHE = new ConcurrentHashMap<>();

  private CrdSchemas() {}

  public static SchemaValidator strict(String crd, String version, Path tmp) throws IOException {
    String key = crd + "#" + version;
    SchemaValidator v = CACHE.get(key);
    if (v != null) {
      return v;
    }
    JsonNode doc = Json.YAML.readTree(Files.readString(SharedData.require(crd)));
    JsonNode schema = null;
    for (JsonNode ver : doc.path("spec").path("versions").values()) {
      if (version.equals(ver.path("name").asString())) {
        schema = ver.path("schema").path("openAPIV3Schema");
      }
    }
    if (schema == null) {
      throw new IllegalArgumentException(crd + " has no version " + version);
    }
    ObjectNode s = (ObjectNode) schema.deepCopy();
    strict(s);
    s.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    Path file = tmp.resolve("crd-" + version + "-" + Integer.toHexString(crd.hashCode()) + ".json");
    Files.writeString(file, Json.JSON.writeValueAsString(s));
    v = SchemaValidator.fromFile(file);
    CACHE.put(key, v);
    return v;
  }

  private static void strict(JsonNode n) {
    if (n instanceof ObjectNode o) {
      if (o.has("properties")
          && !o.has("additionalProperties")
          && !o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
        o.put("additionalProperties", false);
      }
      for (JsonNode child : o.values()) {
        strict(child);
      }
    } else if (n != null && n.isArray()) {
      for (JsonNode child : n.values()) {
        strict(child);
      }
    }
  }
}
