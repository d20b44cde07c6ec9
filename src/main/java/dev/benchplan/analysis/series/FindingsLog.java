package dev.benchplan.analysis.series;

import dev.benchplan.analysis.stats.NoiseFloor;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
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
import java.util.Optional;
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
            p + ": line " + (i + 1) + ": not valid JSON: " + e.getOriginalMessage(),
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

  /**
   * The noise floor a series carries forward: the last finding with a non-empty {@code noise_floor}
   * that is either of {@code seriesId} itself or of a pilot series decided for it ({@code plan
   * --repeat-decision}: the pilot's finding records its plan's {@code decision_source}, or, for a
   * line written before it did, the pilot's plan under {@code expRoot} does); empty when there is
   * none.
   *
   * @param expRoot the experiment root whose {@code inputs/benchmark-plans/} hold the pilot plans,
   *     or null to trust the finding lines alone
   */
  public static Optional<Carried> lastNoiseFloor(
      List<FindingLine> history, String seriesId, @Nullable Path expRoot) {
    Carried found = null;
    for (FindingLine h : history) {
      if (h.noiseFloor().isEmpty()) {
        continue;
      }
      String pilotFor = h.seriesId().equals(seriesId) ? null : decidedFor(h, expRoot);
      if (!h.seriesId().equals(seriesId) && !seriesId.equals(pilotFor)) {
        continue;
      }
      FindingLine.DecisionSourceRef ds = h.decisionSource();
      FindingLine.PilotRef via = h.noiseFloorPilot();
      if (pilotFor == null && via != null) {
        // the series carried on a floor its pilot measured: name the pilot, not the carrier
        found = new Carried(via.analysisId(), h.floors(), via.seriesId(), via.loadPoint());
        continue;
      }
      found =
          new Carried(
              h.analysisId(),
              h.floors(),
              pilotFor == null ? null : h.seriesId(),
              pilotFor == null || ds == null ? null : ds.loadPoint());
    }
    return Optional.ofNullable(found);
  }

  /**
   * The series a finding's pilot was decided for: its {@code decision_source}, else the plan of its
   * series under {@code expRoot} ({@code run_policy.decision_source.series_id}); null for none.
   */
  private static @Nullable String decidedFor(FindingLine line, @Nullable Path expRoot) {
    FindingLine.DecisionSourceRef ds = line.decisionSource();
    if (ds != null) {
      return ds.seriesId();
    }
    if (expRoot == null || !line.seriesId().matches("[A-Za-z0-9._-]+")) {
      return null;
    }
    Path plan =
        expRoot.resolve("inputs").resolve("benchmark-plans").resolve(line.seriesId() + ".json");
    if (!Files.isRegularFile(plan)) {
      return null;
    }
    try {
      return Json.JSON
          .readTree(Files.readAllBytes(plan))
          .at("/run_policy/decision_source/series_id")
          .asString(null);
    } catch (IOException | JacksonException e) {
      // an unreadable plan names no series: the line is simply not a pilot for this one
      return null;
    }
  }

  /**
   * A noise floor carried forward.
   *
   * @param analysisId the analysis that measured it
   * @param floors metric key to floor, in the order written
   * @param pilotSeriesId the pilot series that measured it for this series ({@code plan
   *     --repeat-decision}), or null when the series measured it itself
   * @param pilotLoadPoint the load point the decision named for that pilot, or null
   */
  public record Carried(
      String analysisId,
      Map<String, NoiseFloor> floors,
      @Nullable String pilotSeriesId,
      @Nullable String pilotLoadPoint) {
    /** The runs behind the floor (the most any metric had). */
    public int runs() {
      return floors.values().stream().mapToInt(NoiseFloor::runs).max().orElse(0);
    }

    /** How the documents name the source. */
    public String describe() {
      return pilotSeriesId == null
          ? "carried forward from analysis " + analysisId
          : "pilot series "
              + pilotSeriesId
              + " decided for this series (analysis "
              + analysisId
              + ", n = "
              + runs()
              + ")";
    }
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
