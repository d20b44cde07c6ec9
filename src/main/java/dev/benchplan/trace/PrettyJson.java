package dev.benchplan.trace;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Writes a tree of maps, lists, strings, numbers, booleans and nulls as JSON text in the layout of
 * Jackson's default pretty printer (the one {@code Printer} uses), without loading Jackson: {@code
 * trace inspect} is called hundreds of times by agents, and loading and initialising Jackson's
 * databind for one report cost about a quarter of its start-up. Tests check the text against
 * Jackson's for real and odd reports.
 */
final class PrettyJson {
  private final StringBuilder out = new StringBuilder(4096);

  private PrettyJson() {}

  /** The JSON text of {@code value} (no trailing newline). */
  static String write(@Nullable Object value) {
    PrettyJson w = new PrettyJson();
    w.value(value, 0);
    return w.out.toString();
  }

  private void value(@Nullable Object v, int depth) {
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
      out.append(d.doubleValue()); // Double.toString, as Jackson writes a double by default
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
      if (!first) {
        out.append(',');
      }
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
      if (i > 0) {
        out.append(", ");
      }
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

  /** A JSON string as Jackson escapes it: the short escapes, other controls as \\u00XX. */
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
            out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
}
