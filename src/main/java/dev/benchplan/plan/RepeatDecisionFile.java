package dev.benchplan.plan;

import dev.benchplan.json.JsonInput;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleLog;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The repeat decision {@code plan --repeat-decision} consumes
 * (agent-docs/rules/benchmarking/comparison-uncertainty.md): the file must hash to the SHA-256
 * given with it, match {@code schemas/repeat-decision.schema.json}, say {@code necessary} with a
 * pilot block, and name a series whose plan is under the experiment root with the SHA-256 the
 * decision records. The pilot plan then differs from that series' plan only in the run policy (and,
 * for a grid, in running the one load point the decision names): series-boundaries.md.
 */
final class RepeatDecisionFile {
  static final String SCHEMA = "repeat-decision.schema.json";

  /** What a decision file must hold, for messages. */
  static final String EXPECTED = "a repeat_decision.json object written by analyze or compare";

  /** The frozen fields a pilot changes by design. */
  static final List<String> RUN_POLICY =
      List.of("/run_policy/repetitions", "/run_policy/repeat_decision");

  /** The frozen fields of the load axis: a pilot of a grid runs one of its points. */
  static final List<String> LOAD_AXIS =
      List.of("/experiment/concurrency", "/experiment/request_rate");

  private RepeatDecisionFile() {}

  /**
   * A verified {@code necessary} decision.
   *
   * @param file the decision file
   * @param sha256 its verified SHA-256
   * @param seriesId the series it names
   * @param planSha256 the SHA-256 of the plan it names
   * @param analysisSha256 the analysis it came from
   * @param repetitions the approved repetitions
   * @param loadPoint the pilot's load point, e.g. {@code concurrency=16}, or null
   * @param rationale the decision's rationale
   * @param workload for a decision on plain AIPerf runs (no plan): the workload they recorded, else
   *     a missing node
   */
  record Approved(
      Path file,
      String sha256,
      String seriesId,
      @Nullable String planSha256,
      String analysisSha256,
      int repetitions,
      @Nullable String loadPoint,
      String rationale,
      JsonNode workload) {}

  /** Reads and checks a decision file; logs a blocker and returns empty when it cannot be used. */
  static Optional<Approved> read(RepeatDecisionRequest req, RuleLog log) {
    String at = "--repeat-decision " + req.file();
    if (!Sha256.isSha256(req.sha256())) {
      log.block(
          BlockerCode.REPEAT_DECISION_INVALID,
          "--repeat-decision-sha256 "
              + req.sha256()
              + ": expected 64 lowercase hex digits (the SHA-256 of "
              + req.file()
              + ")");
      return Optional.empty();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(req.file());
    } catch (IOException e) {
      log.block(
          BlockerCode.REPEAT_DECISION_INVALID,
          at
              + ": cannot be read ("
              + e.getMessage()
              + "); give the repeat_decision.json that analyze or compare wrote");
      return Optional.empty();
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(req.sha256())) {
      log.block(
          BlockerCode.REPEAT_DECISION_SHA256_MISMATCH,
          at
              + " hashes to "
              + actual
              + ", --repeat-decision-sha256 says "
              + req.sha256()
              + ": it is not the decision that was"
              + " reviewed");
      return Optional.empty();
    }
    JsonInput.Parsed parsed = JsonInput.parse(bytes);
    JsonNode d = parsed.tree();
    if (d == null) {
      // an empty, null or non-object file in the user's terms, not the schema validator's
      log.block(BlockerCode.REPEAT_DECISION_INVALID, at + ": " + parsed.explain(EXPECTED));
      return Optional.empty();
    }
    List<SchemaValidator.Problem> problems = SchemaValidator.bundled(SCHEMA).validate(d);
    if (!problems.isEmpty()) {
      log.block(
          BlockerCode.REPEAT_DECISION_INVALID,
          at + ": does not match " + SCHEMA + " at " + problems.get(0));
      return Optional.empty();
    }
    if (!d.path("decision").asString().equals("necessary") || !d.path("pilot").isObject()) {
      log.block(
          BlockerCode.REPEAT_DECISION_NOT_NECESSARY,
          at
              + ": /decision is "
              + d.path("decision").asString()
              + (d.path("pilot").isObject() ? "" : " with no /pilot")
              + " ("
              + d.path("rationale").asString()
              + "); only a `necessary` decision with a pilot"
              + " block pre-authorizes more runs");
      return Optional.empty();
    }
    JsonNode pilot = d.path("pilot");
    return Optional.of(
        new Approved(
            req.file(),
            actual,
            d.path("series_id").asString(),
            d.path("plan").path("sha256").asString(null),
            d.path("source").path("analysis_sha256").asString(),
            pilot.path("repetitions").asInt(),
            pilot.path("load_point").asString(null),
            d.path("rationale").asString(),
            d.path("workload")));
  }

  /**
   * Checks that the pilot plan continues the decided series: the series' plan exists under the
   * experiment root with the SHA-256 the decision records, and the draft differs from it only in
   * the run policy and, for a grid, in running the decision's load point.
   */
  static void checkSeries(Approved a, JsonNode draft, Path expRoot, RuleLog log) {
    String at = "--repeat-decision " + a.file();
    if (a.planSha256() == null && a.workload().isObject()) {
      checkWorkload(a, draft, at, log);
      return;
    }
    if (a.planSha256() == null) {
      log.block(
          BlockerCode.REPEAT_DECISION_SERIES_MISMATCH,
          at
              + ": /plan is null (an analysis of"
              + " plain AIPerf directories, series "
              + a.seriesId()
              + "): a pilot continues a planned"
              + " series; analyze the series' own run directories");
      return;
    }
    Path seriesPlan = SeriesStore.planPath(expRoot, a.seriesId());
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(seriesPlan);
    } catch (IOException e) {
      log.block(
          BlockerCode.REPEAT_DECISION_SERIES_MISMATCH,
          at
              + ": series "
              + a.seriesId()
              + " has no plan under --exp-root ("
              + seriesPlan
              + " cannot be read): plan the pilot in"
              + " the experiment root of the series it measures");
      return;
    }
    String sha = Sha256.hex(bytes);
    if (!sha.equals(a.planSha256())) {
      log.block(
          BlockerCode.REPEAT_DECISION_SERIES_MISMATCH,
          at
              + ": /plan/sha256 is "
              + a.planSha256()
              + ", the plan of series "
              + a.seriesId()
              + " ("
              + seriesPlan
              + ") hashes to "
              + sha
              + ": the decision was made on another plan");
      return;
    }
    JsonNode existing = PlanJson.parse(bytes);
    List<String> differing = new ArrayList<>();
    for (String p : SeriesIdentity.differences(existing, draft)) {
      if (RUN_POLICY.contains(p) || (LOAD_AXIS.contains(p) && pointOf(existing, draft, p))) {
        continue;
      }
      differing.add(SeriesIdentity.describe(existing, draft, p));
    }
    otherLoadPoint(a, draft).ifPresent(differing::add);
    blockIfDiffering(
        log,
        at
            + ": the pilot must repeat series "
            + a.seriesId()
            + " unchanged except its run policy; differing frozen field(s): ",
        differing);
  }

  /** The draft field each recorded workload field of plain AIPerf runs must match. */
  private static final java.util.Map<String, String> WORKLOAD_POINTERS =
      java.util.Map.of(
          "isl", "/workload/synthetic/isl",
          "isl_stddev", "/workload/synthetic/isl_stddev",
          "osl", "/workload/synthetic/osl",
          "osl_stddev", "/workload/synthetic/osl_stddev",
          "model", "/deployment/served_model",
          "endpoint_type", "/endpoint/type",
          "streaming", "/endpoint/streaming",
          "aiperf_version", "/aiperf/version");

  /**
   * A decision on plain AIPerf runs has no series plan: the pilot plan must measure what the runs
   * recorded in AIPerf's own input config (each field they recorded) at the decision's load point.
   */
  private static void checkWorkload(Approved a, JsonNode draft, String at, RuleLog log) {
    List<String> differing = new ArrayList<>();
    for (String field : new java.util.TreeSet<>(WORKLOAD_POINTERS.keySet())) {
      String recorded = a.workload().path(field).asString(null);
      if (recorded == null || recorded.equals("not recorded")) {
        continue;
      }
      JsonNode mine = draft.at(WORKLOAD_POINTERS.get(field));
      if (!sameValue(recorded, mine)) {
        differing.add(
            WORKLOAD_POINTERS.get(field)
                + " ("
                + recorded
                + " in the runs' input config, "
                + (mine.isMissingNode() ? "absent" : mine.toString())
                + " in this plan)");
      }
    }
    otherLoadPoint(a, draft).ifPresent(differing::add);
    blockIfDiffering(
        log,
        at
            + ": the pilot must repeat the workload the plain AIPerf runs of series "
            + a.seriesId()
            + " recorded (/workload); differing: ",
        differing);
  }

  /** The difference of a draft that does not run the decision's load point, if it does not. */
  private static Optional<String> otherLoadPoint(Approved a, JsonNode draft) {
    String point = a.loadPoint();
    if (point == null || runs(draft, point)) {
      return Optional.empty();
    }
    return Optional.of(
        "load point: the decision's pilot runs "
            + point
            + ", this plan "
            + draft.at("/experiment/concurrency")
            + draft.at("/experiment/request_rate"));
  }

  /** {@code REPEAT_DECISION_SERIES_MISMATCH}: {@code lead} and the differences, when there are. */
  private static void blockIfDiffering(RuleLog log, String lead, List<String> differing) {
    if (!differing.isEmpty()) {
      log.block(BlockerCode.REPEAT_DECISION_SERIES_MISMATCH, lead + String.join("; ", differing));
    }
  }

  private static boolean sameValue(String recorded, JsonNode mine) {
    if (mine.isNumber()) {
      try {
        return new BigDecimal(recorded).compareTo(mine.decimalValue()) == 0;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return mine.isValueNode() && recorded.equals(mine.asString());
  }

  /**
   * One noise-floor pilot per load point that needs one (comparison-uncertainty.md): a plan under
   * the experiment root already decided from another decision for the same series and load point is
   * {@code PILOT_ONCE_PER_LOAD_POINT}. The same decision planned again is the same pilot.
   */
  static void checkOnePilotPerLoadPoint(Approved a, Path expRoot, RuleLog log) {
    Path dir = SeriesStore.planPath(expRoot, "x").getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      return;
    }
    List<Path> plans;
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      plans = s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      return; // no readable plans: no earlier pilot to find
    }
    for (Path p : plans) {
      JsonNode ds;
      try {
        ds = PlanJson.parse(Files.readAllBytes(p)).at("/run_policy/decision_source");
      } catch (IOException | RuntimeException e) {
        continue; // not a plan this rule can read: it names no pilot
      }
      if (ds.isObject()
          && a.seriesId().equals(ds.path("series_id").asString(null))
          && java.util.Objects.equals(
              a.loadPoint() == null ? "" : a.loadPoint(), ds.path("load_point").asString(""))
          && !a.sha256().equals(ds.path("sha256").asString(null))) {
        log.block(
            BlockerCode.PILOT_ONCE_PER_LOAD_POINT,
            "--repeat-decision "
                + a.file()
                + ": series "
                + a.seriesId()
                + " already has a noise-floor pilot"
                + (a.loadPoint() == null ? "" : " at " + a.loadPoint())
                + " ("
                + p
                + ", decided by "
                + ds.path("path").asString("")
                + "): one pilot per load point that needs one; use its floor (--noise-floor)");
        return;
      }
    }
  }

  /**
   * True when the draft runs one point of the existing plan's grid on the axis at {@code pointer}.
   */
  private static boolean pointOf(JsonNode existing, JsonNode draft, String pointer) {
    JsonNode mine = draft.at(pointer);
    if (!mine.isArray() || mine.size() != 1) {
      return false;
    }
    for (JsonNode v : existing.at(pointer)) {
      if (v.isNumber() && v.decimalValue().compareTo(mine.get(0).decimalValue()) == 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when the draft's one load point is {@code loadPoint} ({@code concurrency=16}, {@code
   * request_rate=2.5}).
   */
  private static boolean runs(JsonNode draft, String loadPoint) {
    int eq = loadPoint.indexOf('=');
    if (eq < 0) {
      return false;
    }
    String axis = loadPoint.substring(0, eq);
    JsonNode points =
        draft.at(
            axis.equals("request_rate") ? "/experiment/request_rate" : "/experiment/concurrency");
    try {
      BigDecimal want = new BigDecimal(loadPoint.substring(eq + 1).strip());
      return points.isArray()
          && points.size() == 1
          && points.get(0).decimalValue().compareTo(want) == 0;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
