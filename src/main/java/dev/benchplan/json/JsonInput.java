package dev.benchplan.json;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one reader of a JSON document that must be one object (a plan, run.json, verdict.json, a
 * repeat decision, a render manifest, an AIPerf export): an empty or whitespace-only file, {@code
 * null} or an array at the top level, or text that does not parse is said in the user's terms
 * ({@code <file>: empty file; expected <what the tool wanted>}), never as a parser's or schema
 * validator's words ("no content to map", "unknown found, object expected").
 */
public final class JsonInput {
  private JsonInput() {}

  /**
   * One parse: the object, or what is wrong with the document.
   *
   * @param tree the top-level object, or null when there is a problem
   * @param problem what is wrong, e.g. {@code empty file}, {@code an array at the top level},
   *     {@code not valid JSON at line 3, column 7: ...}; null when {@code tree} is there
   * @param error the parser's exception when the text does not parse
   */
  public record Parsed(
      @Nullable ObjectNode tree, @Nullable String problem, @Nullable JacksonException error) {

    /**
     * The problem and what was expected, for a finding or a blocker: {@code <problem>; expected X}.
     */
    public String explain(String expected) {
      return (problem == null ? "" : problem) + "; expected " + expected;
    }

    /**
     * The object, or invalid input (exit 2): {@code [what ]<file>: <problem>; expected <expected>};
     * text that does not parse names its line and column ({@link InputErrors#unparsable}).
     */
    public ObjectNode orThrow(@Nullable String what, Object file, String expected) {
      if (tree != null) {
        return tree;
      }
      if (error != null) {
        throw InputErrors.unparsable(what, file, error);
      }
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          (what == null ? "" : what + " ") + file + ": " + explain(expected));
    }
  }

  /** Parses {@code bytes} as strict JSON ({@link Json#JSON}). */
  public static Parsed parse(byte[] bytes) {
    return parse(Json.JSON.readerFor(JsonNode.class), bytes);
  }

  /** Parses {@code bytes} with {@code reader} (e.g. one keeping decimals exact). */
  public static Parsed parse(ObjectReader reader, byte[] bytes) {
    String blank = blank(bytes);
    if (blank != null) {
      return new Parsed(null, blank, null);
    }
    JsonNode n;
    try {
      n = reader.readValue(bytes);
    } catch (JacksonException e) {
      ErrorLocation at = InputErrors.locate(e, "");
      String where =
          at.line() == null
              ? ""
              : " at line " + at.line() + (at.column() == null ? "" : ", column " + at.column());
      return new Parsed(null, "not valid JSON" + where + ": " + InputErrors.describe(e), e);
    }
    if (n instanceof ObjectNode o) {
      return new Parsed(o, null, null);
    }
    return new Parsed(null, topLevel(n), null);
  }

  /**
   * {@code empty file} or {@code whitespace only} when {@code bytes} hold no document, else null.
   */
  public static @Nullable String blank(byte[] bytes) {
    if (bytes.length == 0) {
      return "empty file";
    }
    for (byte b : bytes) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return null;
      }
    }
    return "whitespace only";
  }

  /**
   * A value as an error message names it: {@code an object}, {@code an array}, {@code the string
   * "no"}, {@code the number 5000}, {@code true}, {@code null}; {@code nothing} when absent.
   */
  public static String describe(@Nullable JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "nothing";
    }
    return switch (n.getNodeType()) {
      case OBJECT, POJO -> "an object";
      case ARRAY -> "an array";
      case STRING -> "the string " + n;
      case NUMBER -> "the number " + n;
      case BOOLEAN, NULL -> n.toString();
      default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }

  /** What stands at the top level instead of an object, e.g. {@code an array at the top level}. */
  public static String topLevel(@Nullable JsonNode n) {
    if (n == null || n.isMissingNode()) {
      return "no document";
    }
    String kind =
        switch (n.getNodeType()) {
          case NULL -> "null";
          case ARRAY -> "an array";
          case STRING -> "a string";
          case NUMBER -> "a number";
          case BOOLEAN -> n.asBoolean() ? "true" : "false";
          default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    return kind + " at the top level";
  }
}
