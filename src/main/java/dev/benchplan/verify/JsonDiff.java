package dev.benchplan.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/** The JSON pointers at which two documents differ, with the old and the new value. */
final class JsonDiff {
  /** One differing leaf (or a whole subtree present on one side only). */
  record Difference(String pointer, String before, String after) {}

  private JsonDiff() {}

  static List<Difference> of(JsonNode before, JsonNode after) {
    List<Difference> out = new ArrayList<>();
    walk("", before, after, out);
    return out;
  }

  private static void walk(String at, JsonNode a, JsonNode b, List<Difference> out) {
    if (a != null && b != null && a.isObject() && b.isObject()) {
      Set<String> names = new TreeSet<>(a.propertyNames());
      names.addAll(b.propertyNames());
      for (String n : names) {
        walk(at + "/" + n.replace("~", "~0").replace("/", "~1"), a.get(n), b.get(n), out);
      }
    } else if (a != null && b != null && a.isArray() && b.isArray()) {
      for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
        walk(at + "/" + i, a.get(i), b.get(i), out);
      }
    } else if (a == null || b == null || !a.equals(b)) {
      out.add(new Difference(at.isEmpty() ? "/" : at, compact(a), compact(b)));
    }
  }

  private static String compact(JsonNode n) {
    String s = n == null ? "absent" : n.toString();
    return s.length() > 120 ? s.substring(0, 117) + "..." : s;
  }
}
