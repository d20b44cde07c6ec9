package dev.benchplan.analysis.report;

import java.math.BigDecimal;
import java.util.Collection;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Small helpers to build the analysis documents as canonical JSON trees. */
public final class Nodes {
  public static final JsonNodeFactory F = JsonNodeFactory.instance;

  private Nodes() {}

  public static ObjectNode object() {
    return F.objectNode();
  }

  /** Puts a computed double; NaN and infinity become null (JSON has neither). */
  public static void num(ObjectNode o, String key, double v) {
    BigDecimal d = Measured.of(v);
    if (d != null) {
      o.put(key, d);
    } else {
      o.putNull(key);
    }
  }

  /** Adds a computed double to an array. */
  public static void add(ArrayNode a, double v) {
    BigDecimal d = Measured.of(v);
    if (d != null) {
      a.add(d);
    } else {
      a.addNull();
    }
  }

  /** A typed document as a tree (Jackson at the edge: the caller validates or writes it). */
  public static ObjectNode tree(Object doc) {
    return dev.benchplan.json.Json.JSON.valueToTree(doc);
  }

  public static ArrayNode strings(Collection<String> values) {
    ArrayNode a = F.arrayNode();
    values.forEach(a::add);
    return a;
  }

  /** {@code {"path": ..., "sha256": ...}}. */
  public static ObjectNode file(@Nullable String path, @Nullable String sha256) {
    ObjectNode o = object();
    o.put("path", path);
    o.put("sha256", sha256);
    return o;
  }
}
