package dev.benchplan.trace;

import java.util.List;
import java.util.Map;

/**
 * Writes a tree of maps, lists, strings, numbers, booleans and nulls as JSON in the layout of
 * Jackson's default pretty printer, without loading Jackson: {@code trace inspect} is called
 * hundreds of times by agents, and Jackson's classes cost a good part of its start-up.
 */
final class PrettyJson {
  private final StringBuilder out = new StringBuilder(4096);

  private PrettyJson() {}

  /** The JSON text of {@code value} (no trailing newline). */
  static String write(Object value) {
    PrettyJson w = new PrettyJson();
    w.value(value, 0);
    return w.out.toString();
  }

  private void value(Object v, int depth) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof String s) {
      string(s);
    } else if (v instanceof Map<?, ?> m) {
      object(m, depth);
    } else if (v instanceof List<?> l) {
      array(l, depth);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Boolean) {
      out.append(v);
    } else if (v instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new IllegalArgumentException("JSON has no " + d);
      }
      out.append(d.doubleValue());
    } else {
      throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
    }
  }

  private void object(Map<?, ?> m, int depth) {
    if (m.isEmpty()) {
      out.append("{ }");
      return;
    }
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      out.append(first ? "" : ",");
      first = false;
      newline(depth + 1);
      string((String) e.getKey());
      out.append(" : ");
      value(e.getValue(), depth + 1);
    }
    newline(depth);
    out.append('}');
  }

  /** Arrays stay on one line, as Jackson's fixed-space array indenter writes them. */
  private void array(List<?> l, int depth) {
    if (l.isEmpty()) {
      out.append("[ ]");
      return;
    }
    out.append("[ ");
    for (int i = 0; i < l.size(); i++) {
      out.append(i == 0 ? "" : ", ");
      value(l.get(i), depth);
    }
    out.append(" ]");
  }

  private void newline(int depth) {
    out.append('\n');
    for (int i = 0; i < depth; i++) {
      out.append("  ");
    }
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04X", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
