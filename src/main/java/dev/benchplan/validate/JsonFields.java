package dev.benchplan.validate;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Typed reads of optional fields in Kubernetes-style documents: a wrong type reads as absent. */
final class JsonFields {
  private JsonFields() {}

  /** The string at {@code node}, or null when it is absent or not a string. */
  static String string(JsonNode node) {
    return node != null && node.isString() ? node.stringValue() : null;
  }

  /** The integer at {@code node}, or {@code fallback} when absent or not an integer. */
  static int integer(JsonNode node, int fallback) {
    if (node == null) {
      return fallback;
    }
    if (node.isIntegralNumber() && node.canConvertToInt()) {
      return node.intValue();
    }
    if (node.isString()) {
      try {
        return Integer.parseInt(node.stringValue().trim());
      } catch (NumberFormatException e) {
        return fallback;
      }
    }
    return fallback;
  }

  /** The strings of an array node (non-strings skipped); empty when absent. */
  static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node != null && node.isArray()) {
      for (JsonNode n : node.values()) {
        if (n.isString()) {
          out.add(n.stringValue());
        }
      }
    }
    return out;
  }
}
