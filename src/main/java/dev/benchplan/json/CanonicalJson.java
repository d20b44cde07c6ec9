package dev.benchplan.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Canonical JSON: keys sorted by code point, two-space indent, UTF-8, LF, one trailing newline,
 * integers as plain digits and other numbers in a fixed plain form, so equal content hashes equal.
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  /** The canonical UTF-8 bytes of a tree. */
  public static byte[] bytes(JsonNode node) {
    StringBuilder sb = new StringBuilder(1024);
    write(node, sb, 0);
    sb.append('\n');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The canonical form of any value Jackson can turn into a tree. */
  public static byte[] bytes(Object value) {
    JsonNode tree = Json.JSON.valueToTree(value);
    return bytes(tree);
  }

  private static void write(JsonNode node, StringBuilder sb, int depth) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      sb.append("null");
    } else if (node.isObject()) {
      ObjectNode obj = (ObjectNode) node;
      List<String> names = new ArrayList<>(obj.propertyNames());
      if (names.isEmpty()) {
        sb.append("{}");
        return;
      }
      Collections.sort(names);
      sb.append("{\n");
      for (int i = 0; i < names.size(); i++) {
        indent(sb, depth + 1);
        quote(names.get(i), sb);
        sb.append(": ");
        write(obj.get(names.get(i)), sb, depth + 1);
        sb.append(i + 1 < names.size() ? ",\n" : "\n");
      }
      indent(sb, depth);
      sb.append('}');
    } else if (node.isArray()) {
      if (node.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append("[\n");
      for (int i = 0; i < node.size(); i++) {
        indent(sb, depth + 1);
        write(node.get(i), sb, depth + 1);
        sb.append(i + 1 < node.size() ? ",\n" : "\n");
      }
      indent(sb, depth);
      sb.append(']');
    } else if (node.isString()) {
      quote(node.asString(), sb);
    } else if (node.isBoolean()) {
      sb.append(node.asBoolean());
    } else if (node.isIntegralNumber()) {
      BigInteger value = node.bigIntegerValue();
      sb.append(value.toString());
    } else if (node.isNumber()) {
      sb.append(formatDecimal(node.decimalValue()));
    } else {
      throw new IllegalArgumentException(
          "not representable in canonical JSON: " + node.getNodeType());
    }
  }

  /** A decimal in plain notation with trailing zeros removed; integral values keep ".0". */
  static String formatDecimal(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    String plain = stripped.toPlainString();
    return plain.contains(".") ? plain : plain + ".0";
  }

  private static void indent(StringBuilder sb, int depth) {
    for (int i = 0; i < depth; i++) {
      sb.append("  ");
    }
  }

  static void quote(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
