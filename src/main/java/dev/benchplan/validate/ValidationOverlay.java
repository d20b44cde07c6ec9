package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads the inference performance section of an AICR recipe overlay: a {@code RecipeMetadata}
 * document's {@code spec.validation.performance}, or the seed's top-level
 * {@code validation.performance}. Bad content is invalid input (exit 2) naming the JSON pointer.
 */
public final class ValidationOverlay {
  private static final Pattern EXPRESSION =
      Pattern.compile("\\s*(>=|<=|==|!=|>|<|=)?\\s*([-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?)\\s*");

  private ValidationOverlay() {}

  /** Loads the performance request of the overlay at {@code path}. */
  public static PerformanceRequest load(Path path) {
    String text;
    try {
      text = Files.readString(path);
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(path + ": recipe overlay not found");
    } catch (IOException e) {
      throw BenchplanException.invalid(path + ": cannot read the recipe overlay: " + e.getMessage());
    }
    JsonNode root;
    try {
      root = Json.YAML.readTree(text);
    } catch (JacksonException e) {
      throw BenchplanException.invalid(
          path + ": not valid YAML: " + e.getOriginalMessage().lines().findFirst().orElse(""));
    }
    return read(root, path.toString());
  }

  /** Reads the performance request from a parsed overlay; {@code source} names it in messages. */
  public static PerformanceRequest read(JsonNode root, String source) {
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw BenchplanException.invalid(source + ": empty recipe overlay");
    }
    if (!root.isObject()) {
      throw BenchplanException.invalid(source + ": expected a mapping at the top level");
    }
    String base;
    JsonNode validation;
    if ("RecipeMetadata".equals(JsonFields.string(root.path("kind")))) {
      base = "/spec/validation";
      validation = root.path("spec").path("validation");
    } else if (root.has("validation")) {
      base = "/validation";
      validation = root.path("validation");
    } else {
      base = "/spec/validation";
      validation = root.path("spec").path("validation");
    }
    JsonNode perf = validation.path("performance");
    if (perf.isMissingNode() || perf.isNull()) {
      return skip(source, List.of(), source + " has no " + base + "/performance section: the"
          + " inference performance check is not requested");
    }
    if (!perf.isObject()) {
      throw BenchplanException.invalid(source + ": " + base + "/performance: expected a mapping");
    }
    List<String> checks = readChecks(perf.path("checks"), source, base + "/performance/checks");
    boolean listed = checks.stream().anyMatch(PerformanceRequest.CHECK_NAMES::contains);
    List<PerformanceConstraint> constraints =
        readConstraints(perf.path("constraints"), source, base + "/performance/constraints");
    if (!listed) {
      return skip(source, checks, source + ": " + base + "/performance/checks lists neither "
          + String.join(" nor ", PerformanceRequest.CHECK_NAMES)
          + (checks.isEmpty() ? "" : " (it lists " + String.join(", ", checks) + ")"));
    }
    if (constraints.isEmpty()) {
      return skip(source, checks, source + ": " + base + "/performance/constraints has neither "
          + PerformanceConstraint.THROUGHPUT + " nor " + PerformanceConstraint.TTFT_P99
          + ": nothing to gate on");
    }
    return new PerformanceRequest(source, checks, constraints, null);
  }

  private static PerformanceRequest skip(String source, List<String> checks, String reason) {
    return new PerformanceRequest(source, checks, List.of(), reason);
  }

  private static List<String> readChecks(JsonNode node, String source, String pointer) {
    if (node.isMissingNode() || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw BenchplanException.invalid(source + ": " + pointer + ": expected a list of check names");
    }
    List<String> checks = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode c = node.get(i);
      if (!c.isString() || c.asString().isBlank()) {
        throw BenchplanException.invalid(
            source + ": " + pointer + "/" + i + ": expected a check name (string)");
      }
      checks.add(c.asString().trim());
    }
    return checks;
  }

  private static List<PerformanceConstraint> readConstraints(
      JsonNode node, String source, String pointer) {
    if (node.isMissingNode() || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw BenchplanException.invalid(
          source + ": " + pointer + ": expected a list of {name, value} constraints");
    }
    List<PerformanceConstraint> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode c = node.get(i);
      String at = pointer + "/" + i;
      if (!c.isObject()) {
        throw BenchplanException.invalid(source + ": " + at + ": expected {name, value}");
      }
      JsonNode name = c.path("name");
      if (!name.isString() || name.asString().isBlank()) {
        throw BenchplanException.invalid(source + ": " + at + "/name: expected a constraint name");
      }
      String n = name.asString().trim();
      if (!n.equals(PerformanceConstraint.THROUGHPUT) && !n.equals(PerformanceConstraint.TTFT_P99)) {
        continue; // other checks' constraints (e.g. NCCL bandwidth) are not ours to judge
      }
      if (!seen.add(n)) {
        throw BenchplanException.invalid(
            source + ": " + at + "/name: constraint " + n + " is listed twice");
      }
      out.add(parse(n, c.path("value"), source, at + "/value"));
    }
    return out;
  }

  /**
   * Parses one constraint value such as {@code ">= 5000"}; throughput takes only {@code >=}, TTFT
   * p99 only {@code <=}, as AICR requires.
   */
  static PerformanceConstraint parse(String name, JsonNode value, String source, String pointer) {
    String expectedOp = name.equals(PerformanceConstraint.THROUGHPUT) ? ">=" : "<=";
    String example = expectedOp + (name.equals(PerformanceConstraint.THROUGHPUT) ? " 5000" : " 200");
    if (!value.isString()) {
      throw BenchplanException.invalid(source + ": " + pointer + ": expected a string such as '"
          + example + "', got " + describe(value));
    }
    Matcher m = EXPRESSION.matcher(value.asString());
    if (!m.matches()) {
      throw BenchplanException.invalid(source + ": " + pointer + ": expected '" + example
          + "' (operator and a number), got '" + value.asString() + "'");
    }
    String op = m.group(1);
    if (!expectedOp.equals(op)) {
      throw BenchplanException.invalid(source + ": " + pointer + ": " + name + " takes only "
          + expectedOp + " (e.g. '" + example + "'), got '" + value.asString() + "'");
    }
    double threshold = Double.parseDouble(m.group(2));
    if (!(threshold > 0) || !Double.isFinite(threshold)) {
      throw BenchplanException.invalid(source + ": " + pointer + ": " + name
          + " needs a positive threshold, got '" + value.asString() + "'");
    }
    return new PerformanceConstraint(name, op, threshold, PerformanceConstraint.DEFAULT_TOLERANCE);
  }

  private static String describe(JsonNode v) {
    if (v.isMissingNode()) {
      return "nothing";
    }
    return v.getNodeType().toString().toLowerCase(Locale.ROOT) + " " + v;
  }
}
