package dev.benchplan.json;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;

/**
 * JSON Schema validation (networknt, draft 2020-12 unless the schema says otherwise) with errors
 * reported as RFC 6901 JSON pointers into the instance.
 */
public final class SchemaValidator {
  private static final ConcurrentHashMap<String, SchemaValidator> BUNDLED =
      new ConcurrentHashMap<>();

  private final String name;
  private final Schema schema;

  private SchemaValidator(String name, JsonNode schemaNode) {
    this.name = name;
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    this.schema = registry.getSchema(schemaNode);
  }

  /** One validation problem: where in the instance, and what was expected. */
  public record Problem(String pointer, String message) {
    @Override
    public String toString() {
      return (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    }
  }

  /** A schema packaged in the jar under {@code schemas/} (the project's own schemas). */
  public static SchemaValidator bundled(String fileName) {
    return BUNDLED.computeIfAbsent(fileName, SchemaValidator::loadBundled);
  }

  private static SchemaValidator loadBundled(String fileName) {
    String resource = "/schemas/" + fileName;
    try (InputStream in = SchemaValidator.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("schema missing from the jar: " + resource);
      }
      return new SchemaValidator(fileName, Json.JSON.readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A schema read from a file (third-party schemas such as AIPerf's config schema). */
  public static SchemaValidator fromFile(Path file) {
    try {
      return new SchemaValidator(file.toString(), Json.JSON.readTree(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read schema: " + e.getMessage(), e);
    }
  }

  /** Validates and returns every problem, sorted by pointer. */
  public List<Problem> validate(JsonNode instance) {
    List<Problem> problems = new ArrayList<>();
    // YAML's .inf and .nan parse as non-finite doubles, whose JSON type the validator calls
    // "unknown"
    nonFinite(instance, "", problems);
    for (Error error : schema.validate(instance)) {
      String pointer = pointer(error.getInstanceLocation());
      if (problems.stream()
          .noneMatch(p -> p.pointer().equals(pointer) && p.message().startsWith(NOT_FINITE))) {
        problems.add(new Problem(pointer, message(error)));
      }
    }
    problems.sort((a, b) -> a.pointer().compareTo(b.pointer()));
    return problems;
  }

  /**
   * Validates and throws an invalid-input error naming the source, the first pointers and what was
   * expected.
   */
  public void requireValid(JsonNode instance, String source) {
    List<Problem> problems = validate(instance);
    if (!problems.isEmpty()) {
      StringBuilder sb = new StringBuilder(source).append(": does not match schema ").append(name);
      int shown = Math.min(problems.size(), 5);
      for (int i = 0; i < shown; i++) {
        sb.append(i == 0 ? ": " : "; ").append(problems.get(i));
      }
      if (problems.size() > shown) {
        sb.append("; and ").append(problems.size() - shown).append(" more");
      }
      throw BenchplanException.invalid(
          ErrorLocation.pointer(source, problems.get(0).pointer()), sb.toString());
    }
  }

  private static final String NOT_FINITE = "not a finite number";

  private static void nonFinite(JsonNode node, String pointer, List<Problem> problems) {
    if (node == null) {
      return;
    }
    if (node.isFloatingPointNumber() && !node.isBigDecimal() && !Double.isFinite(node.asDouble())) {
      problems.add(
          new Problem(
              pointer,
              NOT_FINITE
                  + " ("
                  + (Double.isNaN(node.asDouble()) ? ".nan" : ".inf")
                  + "); expected a finite number"));
    } else if (node.isObject()) {
      for (var e : node.properties()) {
        nonFinite(
            e.getValue(),
            pointer + "/" + e.getKey().replace("~", "~0").replace("/", "~1"),
            problems);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        nonFinite(node.get(i), pointer + "/" + i, problems);
      }
    }
  }

  public String name() {
    return name;
  }

  private static String message(Error error) {
    String m = error.getMessage();
    // networknt prefixes messages with the JSON path of the instance; the pointer says that already
    int colon = m.indexOf(": ");
    if (m.startsWith("$") && colon > 0) {
      m = m.substring(colon + 2);
    }
    String keyword = error.getKeyword();
    return keyword == null ? m : m + " [" + keyword + "]";
  }

  /** An RFC 6901 pointer ("" for the root). */
  static String pointer(NodePath path) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < path.getNameCount(); i++) {
      Object element = path.getElement(i);
      sb.append('/').append(element.toString().replace("~", "~0").replace("/", "~1"));
    }
    return sb.toString();
  }
}
