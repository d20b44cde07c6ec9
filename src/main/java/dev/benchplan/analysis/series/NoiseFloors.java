package dev.benchplan.analysis.series;

import dev.benchplan.analysis.report.NoiseFloorDoc;
import dev.benchplan.analysis.stats.NoiseFloor;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Where a noise floor may come from besides the runs given (issue 31): never from whatever the
 * experiment root happens to hold. Only {@code --noise-floor ID|FILE} (an analysis the user names)
 * or the pilot the series' decision chain names by SHA-256 ({@code plan --repeat-decision}: the
 * pilot plan's {@code decision_source} names the decision file's SHA-256 and the SHA-256 of this
 * series' analysis it came from). A floor applies only to the load point it was measured at.
 */
public final class NoiseFloors {
  /** How a named floor's source begins: {@code named by --noise-floor ARG: ...}. */
  public static final String PREFIX = "named by --noise-floor ";

  private NoiseFloors() {}

  /** The {@code --noise-floor} argument a recorded source names, or null for another source. */
  public static @Nullable String argumentOf(@Nullable String source) {
    if (source == null || !source.startsWith(PREFIX)) {
      return null;
    }
    int colon = source.indexOf(": ", PREFIX.length());
    return colon < 0 ? null : source.substring(PREFIX.length(), colon);
  }

  /**
   * A floor named from outside the runs given.
   *
   * @param description how documents name its source
   * @param analysisId the analysis that measured it
   * @param pilotSeriesId the pilot series that measured it, or null
   * @param candidate the candidate it was measured on
   * @param byLoadPoint load point to metric key to floor
   */
  public record Named(
      String description,
      String analysisId,
      @Nullable String pilotSeriesId,
      String candidate,
      Map<String, Map<String, NoiseFloor>> byLoadPoint) {
    /** The floors at one load point (empty when it was not measured there). */
    public Map<String, NoiseFloor> at(String loadPoint) {
      Map<String, NoiseFloor> m = byLoadPoint.get(loadPoint);
      return m == null ? Map.of() : m;
    }
  }

  /**
   * {@code --noise-floor ID|FILE}: a performance_analysis.json file, or an analysis id in the
   * findings log; anything else is invalid input (exit 2).
   */
  public static Named explicit(String arg, List<FindingLine> history, Path log) {
    Path file = Path.of(arg);
    if (Files.isRegularFile(file)) {
      return fromFile(arg, file);
    }
    FindingLine found = null;
    for (FindingLine h : history) {
      if (h.analysisId().equals(arg)) {
        found = h;
      }
    }
    if (found == null) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--noise-floor"),
          "--noise-floor "
              + arg
              + ": neither a performance_analysis.json file nor an analysis id in "
              + log);
    }
    Map<String, Map<String, NoiseFloor>> by = new LinkedHashMap<>();
    Map<String, Map<String, NoiseFloorDoc>> floors = found.noiseFloors();
    if (floors != null) {
      floors.forEach(
          (lp, m) -> {
            Map<String, NoiseFloor> f = new LinkedHashMap<>();
            m.forEach((k, v) -> f.put(k, v.toFloor(k)));
            by.put(lp, f);
          });
    }
    if (by.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--noise-floor"),
          "--noise-floor "
              + arg
              + ": analysis "
              + arg
              + " measured no noise floor at a known load point (n >= 2 runs of one candidate at"
              + " one load point)");
    }
    return new Named(
        PREFIX
            + arg
            + ": analysis "
            + found.analysisId()
            + " of series "
            + found.seriesId()
            + ", candidate "
            + found.candidateName(),
        found.analysisId(),
        null,
        found.candidateName(),
        by);
  }

  private static Named fromFile(String arg, Path file) {
    JsonNode doc;
    try {
      doc = Json.JSON.readTree(Files.readAllBytes(file));
    } catch (IOException | JacksonException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          "--noise-floor " + arg + ": not a readable performance_analysis.json: " + e.getMessage(),
          e);
    }
    if (!"performance_analysis".equals(doc.path("kind").asString(null))) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/kind"),
          "--noise-floor " + arg + ": /kind: expected performance_analysis");
    }
    JsonNode chosen = null;
    int withFloor = 0;
    for (JsonNode s : doc.path("series")) {
      if (s.at("/noise_floor/load_points").size() > 0) {
        chosen = chosen == null ? s : chosen;
        withFloor++;
      }
    }
    if (chosen == null || withFloor > 1) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/series"),
          "--noise-floor "
              + arg
              + ": /series: expected exactly one series and candidate with a noise floor per load"
              + " point, found "
              + withFloor);
    }
    Map<String, Map<String, NoiseFloor>> by = new LinkedHashMap<>();
    JsonNode points = chosen.at("/noise_floor/load_points");
    for (String lp : points.propertyNames()) {
      Map<String, NoiseFloor> f = new LinkedHashMap<>();
      JsonNode metrics = points.path(lp).path("metrics");
      for (String k : metrics.propertyNames()) {
        f.put(k, Json.JSON.treeToValue(metrics.path(k), NoiseFloorDoc.class).toFloor(k));
      }
      by.put(lp, f);
    }
    String candidate = chosen.at("/candidate/name").asString("unknown");
    String analysisId = doc.path("analysis_id").asString("");
    return new Named(
        PREFIX
            + arg
            + ": analysis "
            + analysisId
            + " of series "
            + chosen.path("series_id").asString()
            + ", candidate "
            + candidate,
        analysisId,
        null,
        candidate,
        by);
  }

  /**
   * The floor of the pilot decided for {@code seriesId}, when its decision chain checks out: the
   * pilot's plan under {@code expRoot} ({@code run_policy.decision_source}, which {@code plan
   * --repeat-decision} wrote after checking the decision file against its SHA-256) names this
   * series and that decision's SHA-256, and the pilot's finding names the same SHA-256 (a line
   * written before findings recorded it is matched through the plan alone). The newest such pilot
   * wins; its floor applies at the load points it ran.
   */
  public static Optional<Named> pilot(
      List<FindingLine> history, String seriesId, @Nullable Path expRoot) {
    if (expRoot == null) {
      return Optional.empty();
    }
    Named found = null;
    for (FindingLine h : history) {
      if (h.seriesId().equals(seriesId) || !h.seriesId().matches("[A-Za-z0-9._-]+")) {
        continue;
      }
      FindingLine.DecisionSourceRef ds = h.decisionSource();
      if (ds != null && !seriesId.equals(ds.seriesId())) {
        continue;
      }
      JsonNode chain = planDecision(expRoot, h.seriesId());
      String decisionSha = chain == null ? null : chain.path("sha256").asString(null);
      if (chain == null
          || decisionSha == null
          || !seriesId.equals(chain.path("series_id").asString(null))
          || (ds != null && !decisionSha.equals(ds.sha256()))) {
        continue;
      }
      String decidedPoint =
          ds != null && ds.loadPoint() != null
              ? ds.loadPoint()
              : chain.path("load_point").asString(null);
      Map<String, Map<String, NoiseFloor>> by = new LinkedHashMap<>();
      Map<String, Map<String, NoiseFloorDoc>> perPoint = h.noiseFloors();
      if (perPoint != null) {
        perPoint.keySet().forEach(lp -> by.put(lp, h.floorsAt(lp)));
      } else if (decidedPoint != null && !h.floors().isEmpty()) {
        // an older pilot line: its one floor was measured at the load point its decision named
        by.put(decidedPoint, h.floors());
      }
      if (by.isEmpty()) {
        continue;
      }
      int runs =
          by.values().stream()
              .flatMap(m -> m.values().stream())
              .mapToInt(NoiseFloor::runs)
              .max()
              .orElse(0);
      found =
          new Named(
              "pilot series "
                  + h.seriesId()
                  + " decided for this series (analysis "
                  + h.analysisId()
                  + ", n = "
                  + runs
                  + ", decision sha256 "
                  + decisionSha.substring(0, Math.min(12, decisionSha.length()))
                  + ", at "
                  + String.join(", ", by.keySet())
                  + ")",
              h.analysisId(),
              h.seriesId(),
              h.candidateName(),
              by);
    }
    return Optional.ofNullable(found);
  }

  /** The pilot plan's {@code /run_policy/decision_source}, or null when absent or unreadable. */
  private static @Nullable JsonNode planDecision(Path expRoot, String pilotSeries) {
    Path plan = expRoot.resolve("inputs").resolve("benchmark-plans").resolve(pilotSeries + ".json");
    if (!Files.isRegularFile(plan)) {
      return null;
    }
    try {
      JsonNode ds = Json.JSON.readTree(Files.readAllBytes(plan)).at("/run_policy/decision_source");
      return ds.isObject() ? ds : null;
    } catch (IOException | JacksonException e) {
      // an unreadable plan names no decision: the chain does not check out
      return null;
    }
  }
}
