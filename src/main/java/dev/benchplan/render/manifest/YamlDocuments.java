package dev.benchplan.render.manifest;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Writes and reads multi-document YAML from Jackson trees. Strings that look like numbers are
 * quoted (an env value "600" must stay a string for Kubernetes), so every document reads back to
 * the same values; {@link #write} checks that before returning.
 */
public final class YamlDocuments {
  /** The shared YAML mapper with numeric-looking strings always quoted. */
  public static final YAMLMapper MAPPER = Json.YAML;

  private YamlDocuments() {}

  /**
   * The UTF-8 text of the documents, separated by {@code ---}, after a comment header.
   *
   * @param header comment lines (without {@code #}); none may hold a line break
   */
  public static byte[] write(List<String> header, List<? extends JsonNode> documents) {
    StringBuilder sb = new StringBuilder();
    for (String line : header) {
      if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
        throw new IllegalArgumentException("a comment line holds a line break");
      }
      sb.append(line.isEmpty() ? "#" : "# " + line).append('\n');
    }
    for (int i = 0; i < documents.size(); i++) {
      if (i > 0) {
        sb.append("---\n");
      }
      sb.append(MAPPER.writeValueAsString(documents.get(i)));
    }
    String text = sb.toString();
    List<JsonNode> back = read(text);
    boolean same = back.size() == documents.size();
    for (int i = 0; same && i < back.size(); i++) {
      // canonical bytes compare values, not Java number types (an int read back for a long)
      same = Arrays.equals(CanonicalJson.bytes(back.get(i)), CanonicalJson.bytes(documents.get(i)));
    }
    if (!same) {
      throw new IllegalStateException("YAML output does not read back to the same documents");
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Every document of a multi-document YAML text (comments dropped). */
  public static List<JsonNode> read(String text) {
    List<JsonNode> docs = new ArrayList<>();
    try (JsonParser parser = MAPPER.createParser(text);
        MappingIterator<JsonNode> it = MAPPER.readValues(parser, JsonNode.class)) {
      while (it.hasNext()) {
        JsonNode n = it.next();
        if (n != null && !n.isNull() && !n.isMissingNode()) {
          docs.add(n);
        }
      }
    }
    return docs;
  }

  /** Convenience: a new empty object node. */
  public static ObjectNode object() {
    return Json.JSON.createObjectNode();
  }
}
