package dev.benchplan.analysis.series;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
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

  /** Every earlier finding (empty when the log does not exist); a bad line is invalid input. */
  public static List<JsonNode> read(Path expRoot) {
    Path p = path(expRoot);
    List<JsonNode> out = new ArrayList<>();
    if (!Files.isRegularFile(p)) {
      return out;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw BenchplanException.invalid(p + ": cannot read: " + e.getMessage(), e);
    }
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        JsonNode n = Json.JSON.readTree(lines.get(i));
        if (!n.isObject() || !n.path("series_id").isString()) {
          throw BenchplanException.invalid(
              p + ": line " + (i + 1) + ": /series_id: expected a finding object with a series_id");
        }
        out.add(n);
      } catch (JacksonException e) {
        throw BenchplanException.invalid(
            p + ": line " + (i + 1) + ": not valid JSON: " + e.getOriginalMessage(), e);
      }
    }
    return out;
  }

  /**
   * The noise floor a series carries forward: the last finding of {@code seriesId} with a non-empty
   * {@code noise_floor}, as {@code analysis_id} and metric to floor; empty when there is none.
   */
  public static java.util.Optional<Carried> lastNoiseFloor(
      List<JsonNode> history, String seriesId) {
    return history.stream()
        .filter(
            h ->
                h.path("series_id").asString().equals(seriesId)
                    && h.path("noise_floor").isObject()
                    && !h.path("noise_floor").isEmpty())
        .reduce((a, b) -> b)
        .map(
            h -> {
              java.util.Map<String, dev.benchplan.analysis.stats.NoiseFloor> floors =
                  new java.util.LinkedHashMap<>();
              JsonNode nf = h.path("noise_floor");
              for (String key : nf.propertyNames()) {
                floors.put(key, dev.benchplan.analysis.report.NoiseFloorDoc.read(key, nf.get(key)));
              }
              return new Carried(h.path("analysis_id").asString(), floors);
            });
  }

  /**
   * A noise floor carried forward.
   *
   * @param analysisId the analysis that measured it
   * @param floors metric key to floor, in the order written
   */
  public record Carried(
      String analysisId, java.util.Map<String, dev.benchplan.analysis.stats.NoiseFloor> floors) {}

  /** Appends one line (a single write with O_APPEND: earlier lines are never touched). */
  public static void append(Path expRoot, JsonNode finding) {
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
      throw BenchplanException.runtime(p + ": cannot append the finding: " + e.getMessage(), e);
    }
  }
}
