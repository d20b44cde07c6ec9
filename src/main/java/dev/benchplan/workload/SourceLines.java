package dev.benchplan.workload;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.ObjectMapper;

/**
 * Maps JSON pointers of a parsed YAML or JSON document to the 1-based line where each value (or its
 * key) starts, so errors found on the tree can name the line a person edits.
 */
public final class SourceLines {
  private static final SourceLines NONE = new SourceLines(Map.of());
  private final Map<String, Integer> lines;

  private SourceLines(Map<String, Integer> lines) {
    this.lines = lines;
  }

  /** No line information (documents built in code). */
  public static SourceLines none() {
    return NONE;
  }

  /** Scans the document once with the mapper's streaming parser; unparsable input maps nothing. */
  public static SourceLines scan(ObjectMapper mapper, byte[] content) {
    Map<String, Integer> map = new HashMap<>();
    try (JsonParser p = mapper.createParser(content)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
          continue;
        }
        // a property name token already carries the property's pointer: its line is the key's line
        map.putIfAbsent(
            p.streamReadContext().pathAsPointer().toString(), p.currentTokenLocation().getLineNr());
      }
    } catch (JacksonException e) {
      // the caller reports the parse error itself; partial line info is still useful
    }
    return new SourceLines(Collections.unmodifiableMap(map));
  }

  /** The line of the value at pointer, or of its nearest ancestor that has one; -1 when unknown. */
  public int lineOf(String pointer) {
    String p = pointer;
    while (true) {
      Integer line = lines.get(p);
      if (line != null && line > 0) {
        return line;
      }
      if (p.isEmpty()) {
        return -1;
      }
      int slash = p.lastIndexOf('/');
      p = slash <= 0 ? "" : p.substring(0, slash);
    }
  }
}
