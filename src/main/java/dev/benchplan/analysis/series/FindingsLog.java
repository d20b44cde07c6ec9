package dev.benchplan.analysis.series;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code <EXP_ROOT>/analysis/performance_findings.jsonl}: one line per analysis, appended, never
 * rewritten. It is the series history later analyses and comparisons read (baseline, previous
 * valid, best prior, the noise floor carried forward).
 */
public final class FindingsLog {
  public static final String FILE = "performance_findings.jsonl";

  private FindingsLog() {}

  /** The log's path under an experiment root. */
  public static Path path(Path expRoot) {
    return expRoot.resolve("analysis").resolve(FILE);
  }

  /**
   * Every earlier finding (empty when the log does not exist); a bad line is invalid input. Jackson
   * stays here, at the file edge: each line is parsed, checked and read into a {@link FindingLine}.
   */
  public static List<FindingLine> read(Path expRoot) {
    Path p = path(expRoot);
    List<FindingLine> out = new ArrayList<>();
    if (!Files.isRegularFile(p)) {
      return out;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(p), p + ": cannot read: " + e.getMessage(), e);
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        JsonNode n = Json.JSON.readTree(lines.get(i));
        if (!n.isObject() || !n.path("series_id").isString()) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(p, "/series_id").withLine(i + 1),
              p + ": line " + (i + 1) + ": /series_id: expected a finding object with a series_id");
        }
        out.add(
            Json.JSON
                .treeToValue(n, FindingLine.class)
                .withLoadPoints(numbers(n.path("load_points"))));
      } catch (JacksonException e) {
        throw BenchplanException.invalid(
            ErrorLocation.line(p, i + 1),
            p + ": line " + (i + 1) + ": not valid JSON: " + InputErrors.describe(e),
            e);
      }
    }
    return out;
  }

  /**
   * {@code load_points} as the line holds them: an integral number stays a {@code Long}, any other
   * a {@code Double}, so a history copied into a later analysis writes the same bytes as before.
   */
  private static Map<String, Map<String, @Nullable Number>> numbers(JsonNode points) {
    Map<String, Map<String, @Nullable Number>> out = new LinkedHashMap<>();
    for (String lp : points.propertyNames()) {
      Map<String, @Nullable Number> m = new LinkedHashMap<>();
      JsonNode metrics = points.path(lp);
      for (String k : metrics.propertyNames()) {
        JsonNode v = metrics.path(k);
        Number n = null;
        if (v.isIntegralNumber()) {
          n = Long.valueOf(v.longValue());
        } else if (v.isNumber()) {
          n = Double.valueOf(v.doubleValue());
        }
        m.put(k, n);
      }
      out.put(lp, m);
    }
    return out;
  }

  /** Appends one line (a single write with O_APPEND: earlier lines are never touched). */
  public static void append(Path expRoot, FindingLine finding) {
    Path p = path(expRoot);
    byte[] line =
        (Json.JSON
                    .writer()
                    .without(tools.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(finding)
                + "\n")
            .getBytes(StandardCharsets.UTF_8);
    try {
      Files.createDirectories(p.getParent());
      try (OutputStream out =
          Files.newOutputStream(p, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
        out.write(line);
      }
    } catch (IOException e) {
      throw BenchplanException.runtime(
          ErrorLocation.file(p), p + ": cannot append the finding: " + e.getMessage(), e);
    }
  }
}
