package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.series.FindingLine;
import dev.benchplan.analysis.series.FindingsLog;
import dev.benchplan.analysis.series.NoiseFloors;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.PlanFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 13: the noise floor a pilot measured for a series, where it is read back. The pilot is made
 * the way a user makes it: a series planned, two single runs analysed (a 4% change without a floor:
 * {@code necessary}), {@code plan --repeat-decision}, three pilot runs (CV 1%) analysed. Then:
 * {@code verify} recomputes a 1-vs-1 comparison that used the pilot's floor from the findings log
 * under the recorded experiment root, as the log was when compare read it; and a findings line
 * written before lines recorded {@code decision_source} is matched to its series through the
 * pilot's plan, or not at all when that plan is absent or names another series.
 */
class PilotNoiseFloorTest {
  @TempDir Path tmp;
  Path exp;
  String seriesId;
  String pilotSeries;
  String pilotAnalysisId;
  Path pilotPlan;
  Path seriesPlan;
  String seriesSha;

  @BeforeEach
  void pilot() throws Exception {
    exp = tmp.resolve("exp");
    JsonNode series = Json.JSON.readTree(plan().expectOk().out());
    seriesId = series.path("series_id").asString();
    seriesPlan = Path.of(series.path("plan_path").asString());
    seriesSha = series.path("sha256").asString();
    analyze("a", run("run-a", 5000, seriesPlan, seriesSha, seriesId, 1));
    Path decision =
        analyze("b", run("run-b", 5200, seriesPlan, seriesSha, seriesId, 1))
            .resolve("repeat_decision.json");
    JsonNode pilot =
        Json.JSON.readTree(
            plan(
                    "--repeat-decision",
                    decision.toString(),
                    "--repeat-decision-sha256",
                    Sha256.ofFile(decision))
                .expectOk()
                .out());
    pilotPlan = Path.of(pilot.path("plan_path").asString());
    pilotSeries = pilot.path("series_id").asString();
    double[] tp = {4950, 5050, 5000};
    Path[] runs = new Path[3];
    for (int i = 0; i < 3; i++) {
      runs[i] =
          run("pilot-" + i, tp[i], pilotPlan, pilot.path("sha256").asString(), pilotSeries, 10 + i);
    }
    pilotAnalysisId =
        Json.JSON
            .readTree(
                Files.readAllBytes(analyze("pilot", runs).resolve("performance_analysis.json")))
            .path("analysis_id")
            .asString();
  }

  private CommandHarness.Result plan(String... extra) {
    return PlanFixture.Examples.json(
        PlanFixture.Examples.STATIC, RepeatDecisionPlanTest.QUESTION, exp, extra);
  }

  /** A benchplan run directory: run.json naming the plan, AIPerf's files under aiperf/. */
  private Path run(
      String id, double throughput, Path plan, String planSha, String series, long seed)
      throws Exception {
    return GeneratedRun.ofPlan(tmp.resolve("runs"), id, throughput, seed, plan, planSha, series);
  }

  private Path analyze(String name, Path... runs) {
    Path out = tmp.resolve(name);
    List<String> args = new ArrayList<>(List.of("analyze"));
    for (Path r : runs) {
      args.add(r.toString());
    }
    args.addAll(
        List.of("--exp-root", exp.toString(), "--report-dir", out.toString(), "--format", "json"));
    CommandHarness.run(args.toArray(String[]::new)).expectOk();
    return out;
  }

  private Path compare(String name) {
    Path out = tmp.resolve(name);
    RepeatDecisionPlanTest.compareSingleRuns(tmp, exp, out);
    return out;
  }

  /** One findings line, as the log holds it. */
  private static String compact(JsonNode n) {
    return Json.JSON
        .writer()
        .without(tools.jackson.databind.SerializationFeature.INDENT_OUTPUT)
        .writeValueAsString(n);
  }

  private Path log() {
    return FindingsLog.path(exp);
  }

  @Test
  @DisplayName(
      "verify recomputes a 1-vs-1 comparison from the pilot's floor in the findings log under the"
          + " recorded root, as it was when compare read it; an edited floor, a removed line and a"
          + " missing log are named")
  void verifiesComparisonWithSeriesNoiseFloor() throws Exception {
    Path cmp = compare("cmp");
    JsonNode comparison = Json.JSON.readTree(Files.readAllBytes(cmp.resolve("comparison.json")));
    assertThat(comparison.at("/noise_floor_source/analysis_id").asString())
        .isEqualTo(pilotAnalysisId);
    assertThat(comparison.at("/noise_floor_source/exp_root").asString()).isEqualTo(exp.toString());

    var ok = CommandHarness.run("verify", cmp.toString()).expectOk();
    assertThat(ok.out())
        .contains("verified: comparison " + cmp)
        .contains("recomputed from the inputs")
        .doesNotContain("not recomputed");

    // the series' own two runs analysed together afterwards: a floor of the series in the log,
    // which compare never takes unnamed (issue 31): the pilot's chain still names the pilot
    analyze("a-and-b", tmp.resolve("runs/run-a"), tmp.resolve("runs/run-b"));
    NoiseFloors.Named now = NoiseFloors.pilot(FindingsLog.read(exp), seriesId, exp).orElseThrow();
    assertThat(now.analysisId()).isEqualTo(pilotAnalysisId);
    var later = CommandHarness.run("verify", cmp.toString()).expectOk();
    assertThat(later.out()).contains("recomputed from the inputs");

    // the floor it used, edited in the log: the recomputed effects differ and are named
    List<String> original = Files.readAllLines(log(), StandardCharsets.UTF_8);
    List<String> edited = new ArrayList<>();
    for (String line : original) {
      ObjectNode n = (ObjectNode) Json.JSON.readTree(line);
      if (n.path("series_id").asString().equals(pilotSeries)) {
        for (JsonNode f : n.path("noise_floor")) {
          ((ObjectNode) f).put("cv", f.path("cv").asDouble() * 3);
        }
        for (JsonNode point : n.path("noise_floors")) {
          for (JsonNode f : point) {
            ((ObjectNode) f).put("cv", f.path("cv").asDouble() * 3);
          }
        }
      }
      edited.add(compact(n));
    }
    assertThat(edited).isNotEqualTo(original);
    Files.write(log(), edited, StandardCharsets.UTF_8);
    var floorEdited = CommandHarness.run("verify", cmp.toString()).expectExit(1);
    assertThat(floorEdited.out())
        .contains(cmp.resolve("comparison.json") + " /metrics/")
        .contains("recomputed from the inputs: recorded ");

    // the pilot's line removed: no line holds the floor the comparison names
    Files.write(
        log(),
        original.stream()
            .filter(l -> !l.contains("\"series_id\":\"" + pilotSeries + "\""))
            .toList(),
        StandardCharsets.UTF_8);
    assertThat(Files.readAllLines(log())).hasSize(original.size() - 1);
    var removed = CommandHarness.run("verify", cmp.toString()).expectExit(1);
    assertThat(removed.out())
        .contains(
            cmp.resolve("comparison.json")
                + " /noise_floor_source/analysis_id: not recomputed: the findings log "
                + log()
                + " holds no noise floor of analysis "
                + pilotAnalysisId
                + " for series "
                + seriesId);
    Files.write(log(), original, StandardCharsets.UTF_8);
    CommandHarness.run("verify", cmp.toString()).expectOk();

    // the findings log gone from the root (the runs' plans, inputs too, stay): named with the
    // path verify looked for, as JSON too
    Files.move(log().getParent(), exp.resolve("analysis-moved"));
    var moved = CommandHarness.run("verify", cmp.toString(), "--format", "json").expectExit(1);
    JsonNode out = Json.JSON.readTree(moved.out());
    assertThat(out.at("/findings/0/pointer").asString()).isEqualTo("/noise_floor_source/exp_root");
    assertThat(out.at("/findings/0/message").asString())
        .isEqualTo(
            "not recomputed: the series noise floor came from the findings log under "
                + exp
                + ", which is not there now (looked for "
                + log().toAbsolutePath().normalize()
                + ")");
  }

  @Test
  @DisplayName(
      "a pilot's findings line without decision_source (written before lines recorded it) finds"
          + " its series through the pilot's plan under the experiment root; without the root, the"
          + " plan, or with a plan naming another series it carries no floor")
  void olderLineWithoutDecisionSource() throws Exception {
    List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
    int at = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (Json.JSON.readTree(lines.get(i)).path("series_id").asString().equals(pilotSeries)) {
        at = i;
      }
    }
    assertThat(at).as("the pilot's line").isEqualTo(lines.size() - 1);
    ObjectNode pilotLine = (ObjectNode) Json.JSON.readTree(lines.get(at));
    assertThat(pilotLine.at("/decision_source/series_id").asString()).isEqualTo(seriesId);
    assertThat(pilotLine.path("noise_floor").isEmpty()).isFalse();
    pilotLine.remove("decision_source");
    lines.set(at, compact(pilotLine));
    Files.write(log(), lines, StandardCharsets.UTF_8);
    List<FindingLine> history = FindingsLog.read(exp);
    assertThat(history.get(at).decisionSource()).isNull();

    // the pilot's plan under the root names the series it was decided for
    Path plan = exp.resolve("inputs/benchmark-plans").resolve(pilotSeries + ".json");
    assertThat(plan).exists();
    assertThat(plan.toRealPath()).isEqualTo(pilotPlan.toRealPath());
    NoiseFloors.Named found = NoiseFloors.pilot(history, seriesId, exp).orElseThrow();
    assertThat(found.analysisId()).isEqualTo(pilotAnalysisId);
    assertThat(found.pilotSeriesId()).isEqualTo(pilotSeries);
    assertThat(found.byLoadPoint()).hasSize(1);
    assertThat(found.description()).startsWith("pilot series " + pilotSeries + " decided for this");

    // and the series' next analysis uses it, end to end
    Path c = analyze("c", run("run-c", 5100, seriesPlan, seriesSha, seriesId, 1));
    JsonNode ca = Json.JSON.readTree(Files.readAllBytes(c.resolve("performance_analysis.json")));
    assertThat(ca.at("/series/0/noise_floor/source").asString())
        .startsWith("pilot series " + pilotSeries);
    assertThat(ca.at("/series/0/noise_floor/pilot/analysis_id").asString())
        .isEqualTo(pilotAnalysisId);

    // refused: no root to read the plan from, the plan gone, a plan naming another series, a plan
    // that is not JSON
    assertThat(NoiseFloors.pilot(history, seriesId, null)).isEmpty();
    byte[] planBytes = Files.readAllBytes(plan);
    Files.delete(plan);
    assertThat(NoiseFloors.pilot(history, seriesId, exp)).isEmpty();
    ObjectNode other = (ObjectNode) Json.JSON.readTree(planBytes);
    ((ObjectNode) other.at("/run_policy/decision_source")).put("series_id", "another-series");
    Files.writeString(plan, Json.JSON.writeValueAsString(other));
    assertThat(NoiseFloors.pilot(history, seriesId, exp)).isEmpty();
    assertThat(NoiseFloors.pilot(history, "another-series", exp))
        .hasValueSatisfying(f -> assertThat(f.pilotSeriesId()).isEqualTo(pilotSeries));
    // a decision SHA-256 in the plan other than the one the pilot's finding names: no chain
    ObjectNode otherSha = (ObjectNode) Json.JSON.readTree(planBytes);
    ((ObjectNode) otherSha.at("/run_policy/decision_source")).put("sha256", "f".repeat(64));
    Files.writeString(plan, Json.JSON.writeValueAsString(otherSha));
    assertThat(NoiseFloors.pilot(FindingsLog.read(exp).subList(0, at + 1), seriesId, exp))
        .as("the line without decision_source is matched through the plan alone")
        .isPresent();
    Files.writeString(plan, "{not json");
    assertThat(NoiseFloors.pilot(history, seriesId, exp)).isEmpty();
  }
}
