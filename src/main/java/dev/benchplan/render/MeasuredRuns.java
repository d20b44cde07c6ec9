package dev.benchplan.render;

import dev.benchplan.json.Json;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every measured run one Job executes, and how: the load points (in the plan's order), the
 * repetitions of each, and the mechanism. Annotated on the Job ({@link JobContract#MEASURED_RUNS})
 * so {@code run} knows what to expect and records it in run.json.
 *
 * @param points the load points, each with its folder in the artifact tree (null folder for a Job
 *     of one point: AIPerf writes straight into the run's artifact folder)
 * @param repetitions measured runs per load point (the plan's run_policy.repetitions)
 * @param pilot true for the series' noise-floor pilot (n = 3)
 * @param mechanism how the runs execute ({@link #SINGLE}, {@link #MULTI_RUN}, {@link #SEQUENCE},
 *     {@link #SEQUENCE_MULTI_RUN})
 */
public record MeasuredRuns(List<Point> points, int repetitions, boolean pilot, String mechanism) {
  /** One AIPerf invocation, one measured run. */
  public static final String SINGLE = "aiperf-single-run";

  /** One AIPerf invocation repeating its run through the native config's multiRun.numRuns. */
  public static final String MULTI_RUN = "aiperf-multi-run";

  /** One AIPerf invocation per load point, one after another inside one Job. */
  public static final String SEQUENCE = "job-sequence";

  /** {@link #SEQUENCE}, each invocation repeating through multiRun.numRuns. */
  public static final String SEQUENCE_MULTI_RUN = "job-sequence+aiperf-multi-run";

  /**
   * One load point of the Job.
   *
   * @param loadPoint the point as printed ({@code 16}), or null for a fixed-schedule replay
   * @param directory its folder in the artifact tree, or null when the Job measures one point
   */
  public record Point(@Nullable String loadPoint, @Nullable String directory) {}

  public MeasuredRuns {
    points = List.copyOf(points);
    Objects.requireNonNull(mechanism, "mechanism");
    if (points.isEmpty() || repetitions < 1) {
      throw new IllegalArgumentException("at least one point and one repetition");
    }
  }

  /** The runs for {@code points} measured {@code repetitions} times each. */
  public static MeasuredRuns of(List<LoadPoint> points, int repetitions, boolean pilot) {
    boolean several = points.size() > 1;
    List<Point> out =
        points.stream()
            .map(p -> new Point(p.describe(), several ? p.directoryName() : null))
            .toList();
    String mechanism =
        several
            ? (repetitions > 1 ? SEQUENCE_MULTI_RUN : SEQUENCE)
            : (repetitions > 1 ? MULTI_RUN : SINGLE);
    return new MeasuredRuns(out, repetitions, pilot, mechanism);
  }

  /** Load points times repetitions. */
  public int count() {
    return points.size() * repetitions;
  }

  /** True when the Job runs AIPerf once per point ({@code BENCHPLAN_RUN_DIRS}). */
  public boolean sequence() {
    return points.size() > 1;
  }

  /** The annotation's JSON text. */
  public String toJson() {
    ObjectNode n = Json.JSON.createObjectNode();
    n.put("mechanism", mechanism);
    n.put("repetitions", repetitions);
    n.put("pilot", pilot);
    ArrayNode a = n.putArray("points");
    for (Point p : points) {
      ObjectNode o = a.addObject();
      o.put("load_point", p.loadPoint());
      o.put("directory", p.directory());
    }
    return Json.JSON.writeValueAsString(n).replaceAll("\\s*\\n\\s*", " ");
  }

  /** Reads the annotation's JSON text; throws IllegalArgumentException when it is not one. */
  public static MeasuredRuns parse(String json) {
    JsonNode n = Json.JSON.readTree(json);
    List<Point> points = new java.util.ArrayList<>();
    for (JsonNode p : n.path("points")) {
      points.add(
          new Point(p.path("load_point").asString(null), p.path("directory").asString(null)));
    }
    return new MeasuredRuns(
        points,
        n.path("repetitions").asInt(0),
        n.path("pilot").asBoolean(false),
        n.path("mechanism").asString(""));
  }
}
