package dev.benchplan.verify;

import dev.benchplan.analysis.series.FindingLine;
import dev.benchplan.analysis.series.FindingsLog;
import dev.benchplan.analysis.series.NoiseFloors;
import dev.benchplan.error.BenchplanException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The experiment root a comparison that used a series noise floor is recomputed against: the one
 * {@code noise_floor_source.exp_root} records, with its findings log as it was when compare read
 * it. The log is append-only, so that is its longest prefix whose newest floor for the series is
 * the recorded one ({@code noise_floor_source.analysis_id}, {@code pilot_series_id}, {@code runs});
 * when lines were appended since, the prefix is copied to a temporary root (with the pilot plans
 * the log's older lines need) that {@link #close()} deletes.
 *
 * @param root the experiment root to give compare, or null when there is none ({@code problem})
 * @param temporary true when {@code root} is a temporary copy of the recorded one
 * @param problem why the comparison cannot be recomputed, or null
 */
record NoiseFloorRoot(@Nullable Path root, boolean temporary, @Nullable Finding problem)
    implements AutoCloseable {
  private static final String POINTER = "/noise_floor_source";

  /** Finds the root for the stored comparison (named {@code name} in findings). */
  static NoiseFloorRoot locate(String name, JsonNode stored) {
    JsonNode src = stored.path("noise_floor_source");
    String recorded = src.path("exp_root").asString("");
    Path root = Path.of(recorded);
    Path log = FindingsLog.path(root);
    if (!Files.isDirectory(root) || !Files.isRegularFile(log)) {
      return problem(
          name,
          POINTER + "/exp_root",
          "not recomputed: the series noise floor came from the findings log under "
              + recorded
              + ", which is not there now (looked for "
              + log.toAbsolutePath().normalize()
              + ")");
    }
    List<FindingLine> lines;
    List<String> raw = new ArrayList<>();
    try {
      lines = FindingsLog.read(root);
      for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        if (!l.isBlank()) {
          raw.add(l); // the lines read() parsed, in its order
        }
      }
    } catch (BenchplanException | IOException e) {
      return problem(name, POINTER + "/exp_root", "not recomputed: " + e.getMessage());
    }
    String seriesId = stored.at("/reference/0/run/series_id").asString("");
    // found as compare found it: the --noise-floor it was given, else the pilot chain
    String named = NoiseFloors.argumentOf(src.path("description").asString(null));
    for (int n = lines.size(); n >= 0; n--) {
      Optional<NoiseFloors.Named> c;
      try {
        c =
            named != null
                ? Optional.of(NoiseFloors.explicit(named, lines.subList(0, n), log))
                : NoiseFloors.pilot(lines.subList(0, n), seriesId, root);
      } catch (BenchplanException e) {
        c = Optional.empty(); // not named in this prefix of the log
      }
      if (c.isPresent() && recordedAs(c.get(), src)) {
        return n == lines.size() ? new NoiseFloorRoot(root, false, null) : prefix(root, raw, n);
      }
    }
    return problem(
        name,
        POINTER + "/analysis_id",
        "not recomputed: the findings log "
            + log
            + " holds no noise floor of analysis "
            + src.path("analysis_id").asString("")
            + " for series "
            + seriesId
            + " (a line was removed or rewritten)");
  }

  private static boolean recordedAs(NoiseFloors.Named c, JsonNode src) {
    return c.analysisId().equals(src.path("analysis_id").asString(""))
        && Objects.equals(c.pilotSeriesId(), src.path("pilot_series_id").asString(null))
        && c.description().equals(src.path("description").asString(""));
  }

  /** A temporary root holding the log's first {@code n} lines and the plans they name. */
  private static NoiseFloorRoot prefix(Path root, List<String> raw, int n) {
    Path tmp = null;
    try {
      tmp = Files.createTempDirectory("benchplan-verify-floor");
      Path log = FindingsLog.path(tmp);
      Files.createDirectories(log.getParent());
      Files.write(log, raw.subList(0, n), StandardCharsets.UTF_8);
      // a line written before findings recorded decision_source is matched to its series through
      // its pilot's plan (NoiseFloors.pilot): the plans come along
      Set<String> ids = new LinkedHashSet<>();
      FindingsLog.read(tmp).forEach(l -> ids.add(l.seriesId()));
      for (String id : ids) {
        Path plan = planOf(root, id);
        if (plan != null && Files.isRegularFile(plan)) {
          Path to = Objects.requireNonNull(planOf(tmp, id));
          Files.createDirectories(Objects.requireNonNull(to.getParent()));
          Files.copy(plan, to);
        }
      }
      return new NoiseFloorRoot(tmp, true, null);
    } catch (IOException e) {
      delete(tmp);
      throw BenchplanException.runtime(
          "verify: cannot copy the findings log for the recomputation: " + e.getMessage(), e);
    }
  }

  private static @Nullable Path planOf(Path root, String seriesId) {
    return seriesId.matches("[A-Za-z0-9._-]+")
        ? root.resolve("inputs").resolve("benchmark-plans").resolve(seriesId + ".json")
        : null;
  }

  private static NoiseFloorRoot problem(String name, String pointer, String message) {
    return new NoiseFloorRoot(null, false, new Finding(name, pointer, message));
  }

  @Override
  public void close() {
    if (temporary) {
      delete(root);
    }
  }

  private static void delete(@Nullable Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary copy left behind is harmless: the result does not depend on it
    }
  }
}
