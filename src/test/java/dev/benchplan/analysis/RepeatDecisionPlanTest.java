package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 13: {@code plan --repeat-decision} end to end. A series is planned, two single runs of it
 * are analysed (the second changes throughput by 4%, below the 15% small-delta bound, and the
 * series has no noise floor: the decision is {@code necessary}, the pilot), and plan consumes that
 * decision: a new plan with 3 repetitions that names the decision, the series' own plan unchanged.
 * A wrong SHA-256, a decision that is not {@code necessary} and a request that changes a frozen
 * field are blocked with their codes.
 */
class RepeatDecisionPlanTest {
  static final Path EXAMPLES = PlanFixture.Examples.EXAMPLES;
  static final String QUESTION =
      "What output throughput does vllm-agg sustain within the support SLOs?";
  @TempDir Path tmp;
  Path exp;
  JsonNode series;
  Path seriesPlan;
  String seriesPlanSha;

  @BeforeEach
  void planSeries() throws Exception {
    exp = tmp.resolve("exp");
    series = Json.JSON.readTree(plan(EXAMPLES.resolve("workload-static.yaml")).expectOk().out());
    seriesPlan = Path.of(series.path("plan_path").asString());
    seriesPlanSha = series.path("sha256").asString();
  }

  private CommandHarness.Result plan(Path workload, String... extra) {
    return PlanFixture.Examples.json(workload, QUESTION, exp, extra);
  }

  /**
   * A benchplan run directory of the series: run.json naming the plan, AIPerf's files under
   * aiperf/.
   */
  private Path run(String id, double throughput) throws Exception {
    return GeneratedRun.ofPlan(
        tmp.resolve("runs"),
        id,
        throughput,
        1,
        seriesPlan,
        seriesPlanSha,
        series.path("series_id").asString());
  }

  /**
   * compare of the series' two single runs, {@code runs/run-a} against {@code runs/run-b} (1 vs 1),
   * under {@code exp}, into {@code out}: a verdict either way (exit 0 or 1).
   */
  static CommandHarness.Result compareSingleRuns(Path tmp, Path exp, Path out) {
    var r =
        CommandHarness.run(
            "compare",
            "--reference",
            tmp.resolve("runs/run-a").toString(),
            "--candidate",
            tmp.resolve("runs/run-b").toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            out.toString());
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
    return r;
  }

  private Path analyze(Path run, String name) {
    Path out = tmp.resolve(name);
    CommandHarness.run(
            "analyze",
            run.toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            out.toString(),
            "--format",
            "json")
        .expectOk();
    return out.resolve("repeat_decision.json");
  }

  @Test
  @DisplayName(
      "pilot run dirs -> analyze -> repeat_decision.json (necessary) -> plan: 3 repetitions, decision named,"
          + " the series' plan unchanged")
  void endToEnd() throws Exception {
    Path first = analyze(run("run-a", 5000), "a");
    assertThat(Json.JSON.readTree(Files.readAllBytes(first)).path("decision").asString())
        .isEqualTo("not_needed");
    Path decision = analyze(run("run-b", 5200), "b");
    JsonNode d = Json.JSON.readTree(Files.readAllBytes(decision));
    assertThat(d.path("decision").asString()).as(d.toString()).isEqualTo("necessary");
    assertThat(d.path("series_id").asString()).isEqualTo(series.path("series_id").asString());
    assertThat(d.at("/plan/sha256").asString()).isEqualTo(seriesPlanSha);

    var r =
        plan(
            EXAMPLES.resolve("workload-static.yaml"),
            "--repeat-decision",
            decision.toString(),
            "--repeat-decision-sha256",
            Sha256.ofFile(decision));
    r.expectOk();
    JsonNode out = Json.JSON.readTree(r.out());
    Path pilotPlan = Path.of(out.path("plan_path").asString());
    assertThat(pilotPlan).isNotEqualTo(seriesPlan);
    assertThat(Sha256.ofFile(seriesPlan))
        .as("the decided-for series' plan is never changed")
        .isEqualTo(seriesPlanSha);
    JsonNode pilot = Json.JSON.readTree(Files.readAllBytes(pilotPlan));
    assertThat(SchemaValidator.bundled("benchmark-plan.schema.json").validate(pilot)).isEmpty();
    assertThat(pilot.at("/run_policy/repetitions").asInt()).isEqualTo(3);
    assertThat(pilot.at("/run_policy/repeat_decision").asString()).isEqualTo("necessary");
    assertThat(pilot.at("/run_policy/pilot").asBoolean()).isTrue();
    JsonNode src = pilot.at("/run_policy/decision_source");
    assertThat(src.path("series_id").asString()).isEqualTo(series.path("series_id").asString());
    assertThat(src.path("sha256").asString()).isEqualTo(Sha256.ofFile(decision));
    assertThat(src.path("plan_sha256").asString()).isEqualTo(seriesPlanSha);
    assertThat(src.path("path").asString())
        .doesNotStartWith("/"); // relative to the experiment root
    assertThat(src.path("load_point").asString()).isEqualTo("concurrency=16");
    assertThat(pilot.path("series_id").asString())
        .isNotEqualTo(series.path("series_id").asString());

    // the pilot runs (3 at the decided load point, CV 1%) are analysed: they measure a noise floor
    String pilotSeries = pilot.path("series_id").asString();
    String pilotSha = out.path("sha256").asString();
    List<String> pilotArgs = new ArrayList<>(List.of("analyze"));
    double[] tp = {4950, 5050, 5000};
    for (int i = 0; i < 3; i++) {
      pilotArgs.add(
          GeneratedRun.ofPlan(
                  tmp.resolve("runs"),
                  "pilot-" + i,
                  tp[i],
                  10 + i,
                  pilotPlan,
                  pilotSha,
                  pilotSeries)
              .toString());
    }
    pilotArgs.addAll(
        List.of(
            "--exp-root",
            exp.toString(),
            "--report-dir",
            tmp.resolve("pilot-analysis").toString(),
            "--format",
            "json"));
    CommandHarness.run(pilotArgs.toArray(String[]::new)).expectOk();
    JsonNode pilotAnalysis =
        Json.JSON.readTree(
            Files.readAllBytes(tmp.resolve("pilot-analysis/performance_analysis.json")));
    String pilotAnalysisId = pilotAnalysis.path("analysis_id").asString();
    assertThat(pilotAnalysis.at("/series/0/noise_floor/source").asString())
        .startsWith("this analysis: 3 runs");

    // the ORIGINAL series' next analysis uses that floor, and names the pilot it came from
    Path c = analyze(run("run-c", 5100), "c");
    JsonNode ca =
        Json.JSON.readTree(Files.readAllBytes(c.resolveSibling("performance_analysis.json")));
    assertThat(SchemaValidator.bundled("performance-analysis.schema.json").validate(ca)).isEmpty();
    JsonNode floor = ca.at("/series/0/noise_floor");
    assertThat(floor.path("source").asString())
        .as(floor.toString())
        .startsWith("pilot series " + pilotSeries);
    assertThat(floor.path("pilot").path("series_id").asString()).isEqualTo(pilotSeries);
    assertThat(floor.path("pilot").path("analysis_id").asString()).isEqualTo(pilotAnalysisId);
    assertThat(floor.path("pilot").path("runs").asInt()).isEqualTo(3);
    assertThat(floor.path("pilot").path("load_point").asString()).isEqualTo("concurrency=16");
    JsonNode cv = floor.path("metrics").path("output_token_throughput.avg");
    assertThat(cv.path("cv").asDouble()).isCloseTo(0.01, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(cv.path("cv_ci_high").asDouble()).isGreaterThan(cv.path("cv").asDouble());
    // -1.9% against the previous run (5200): inside the pilot's 1-vs-1 MDE (about 7.6%), so it is
    // noise, not a small delta that needs yet another pilot
    JsonNode tpCmp = null;
    for (JsonNode x : ca.at("/series/0/comparisons")) {
      if (x.path("against").asString().equals("previous_valid")
          && x.path("metric").asString().equals("output_token_throughput.avg")) {
        tpCmp = x;
      }
    }
    assertThat(tpCmp).as(ca.at("/series/0/comparisons").toString()).isNotNull();
    assertThat(tpCmp.path("mde_pct").asDouble()).isBetween(5.0, 10.0);
    assertThat(tpCmp.path("assessment").asString()).isEqualTo("within_noise");
    assertThat(ca.at("/series/0/repeat_decision/decision").asString()).isEqualTo("not_justified");

    // compare of the original series' single runs (1 vs 1) draws its interval from the pilot's
    // floor
    Path cmpDir = tmp.resolve("cmp");
    var cmp = compareSingleRuns(tmp, exp, cmpDir);
    assertThat(cmp.out()).contains("noise floor: pilot series " + pilotSeries);
    JsonNode comparison = Json.JSON.readTree(Files.readAllBytes(cmpDir.resolve("comparison.json")));
    assertThat(SchemaValidator.bundled("comparison.schema.json").validate(comparison)).isEmpty();
    JsonNode src2 = comparison.path("noise_floor_source");
    assertThat(src2.path("pilot_series_id").asString()).isEqualTo(pilotSeries);
    assertThat(src2.path("analysis_id").asString()).isEqualTo(pilotAnalysisId);
    assertThat(src2.path("runs").asInt()).isEqualTo(3);
    JsonNode effect = null;
    for (JsonNode m : comparison.path("metrics")) {
      if (m.path("metric").asString().equals("output_token_throughput.avg")) {
        effect = m.path("effect");
      }
    }
    assertThat(effect).isNotNull();
    assertThat(effect.path("method").asString()).isEqualTo("series_noise_floor");
    assertThat(effect.path("mde_source").asString()).isEqualTo("series_noise_floor");
    assertThat(comparison.at("/repeat_decision/decision").asString()).isNotEqualTo("necessary");
  }

  @Test
  @DisplayName(
      "a decision whose SHA-256 differs, one that is not necessary, or a request that changes a frozen field:"
          + " exit 2 with the blocker code, nothing written")
  void blocked() throws Exception {
    Path notNeeded = analyze(run("run-a", 5000), "a");
    Path necessary = analyze(run("run-b", 5200), "b");
    Path plans = seriesPlan.getParent();
    long before;
    try (var s = Files.list(plans)) {
      before = s.count();
    }

    var wrongSha =
        plan(
            EXAMPLES.resolve("workload-static.yaml"),
            "--repeat-decision",
            necessary.toString(),
            "--repeat-decision-sha256",
            "0".repeat(64));
    assertThat(wrongSha.exitCode()).isEqualTo(2);
    assertThat(wrongSha.err()).contains("REPEAT_DECISION_SHA256_MISMATCH");

    var notNecessary =
        plan(
            EXAMPLES.resolve("workload-static.yaml"),
            "--repeat-decision",
            notNeeded.toString(),
            "--repeat-decision-sha256",
            Sha256.ofFile(notNeeded));
    assertThat(notNecessary.exitCode()).isEqualTo(2);
    assertThat(notNecessary.err()).contains("REPEAT_DECISION_NOT_NECESSARY").contains("not_needed");

    Path changed = tmp.resolve("workload-longer.yaml");
    Files.writeString(
        changed,
        Files.readString(EXAMPLES.resolve("workload-static.yaml"))
            .replace("output_tokens: 128", "output_tokens: 256")
            .replace("dgd_path: dgd.yaml", "dgd_path: " + EXAMPLES.resolve("dgd.yaml")));
    var otherSeries =
        plan(
            changed,
            "--repeat-decision",
            necessary.toString(),
            "--repeat-decision-sha256",
            Sha256.ofFile(necessary));
    assertThat(otherSeries.exitCode()).as(otherSeries.err()).isEqualTo(2);
    assertThat(otherSeries.err())
        .contains("REPEAT_DECISION_SERIES_MISMATCH")
        .contains("/workload/synthetic");

    var onlyOne =
        CommandHarness.run(
            PlanFixture.Examples.args(
                    PlanFixture.Examples.STATIC,
                    QUESTION,
                    exp,
                    "--repeat-decision",
                    necessary.toString())
                .toArray(String[]::new));
    assertThat(onlyOne.exitCode()).isEqualTo(2);
    assertThat(onlyOne.err()).contains("--repeat-decision-sha256");
    try (var s = Files.list(plans)) {
      assertThat(s.count()).as("nothing written").isEqualTo(before);
    }
  }
}
