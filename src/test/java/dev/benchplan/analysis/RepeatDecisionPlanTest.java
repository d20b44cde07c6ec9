package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
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
 * Issue 13: {@code plan --repeat-decision} end to end. A series is planned, two single runs of it
 * are analysed (the second changes throughput by 4%, below the 15% small-delta bound, and the
 * series has no noise floor: the decision is {@code necessary}, the pilot), and plan consumes that
 * decision: a new plan with 3 repetitions that names the decision, the series' own plan unchanged.
 * A wrong SHA-256, a decision that is not {@code necessary} and a request that changes a frozen
 * field are blocked with their codes.
 */
class RepeatDecisionPlanTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
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
    List<String> args =
        new ArrayList<>(
            List.of(
                "plan",
                "--workload",
                workload.toString(),
                "--ledger",
                EXAMPLES.resolve("deployment-ledger.yaml").toString(),
                "--question",
                QUESTION,
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                exp.toString(),
                "--format",
                "json"));
    args.addAll(List.of(extra));
    return CommandHarness.run(args.toArray(String[]::new));
  }

  /**
   * A benchplan run directory of the series: run.json naming the plan, AIPerf's files under
   * aiperf/.
   */
  private Path run(String id, double throughput) throws Exception {
    JsonNode p = Json.JSON.readTree(Files.readAllBytes(seriesPlan));
    Path dir = tmp.resolve("runs").resolve(id);
    GeneratedRun g =
        new GeneratedRun()
            .throughput(throughput)
            .requests(p.at("/experiment/request_count").asInt())
            .concurrency(p.at("/experiment/concurrency/0").asInt());
    g.isl = p.at("/workload/synthetic/isl").asInt();
    g.osl = p.at("/workload/synthetic/osl").asInt();
    g.write(dir.resolve("aiperf"));
    ObjectNode rec = Json.JSON.createObjectNode();
    rec.put("run_id", id);
    rec.put("series_id", series.path("series_id").asString());
    rec.putObject("plan").put("path", seriesPlan.toString()).put("sha256", seriesPlanSha);
    rec.put("load_point", "concurrency=" + g.concurrency);
    Files.writeString(dir.resolve("run.json"), Json.JSON.writeValueAsString(rec));
    return dir;
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
            "plan",
            "--workload",
            EXAMPLES.resolve("workload-static.yaml").toString(),
            "--ledger",
            EXAMPLES.resolve("deployment-ledger.yaml").toString(),
            "--question",
            QUESTION,
            "--exp-root",
            exp.toString(),
            "--repeat-decision",
            necessary.toString());
    assertThat(onlyOne.exitCode()).isEqualTo(2);
    assertThat(onlyOne.err()).contains("--repeat-decision-sha256");
    try (var s = Files.list(plans)) {
      assertThat(s.count()).as("nothing written").isEqualTo(before);
    }
  }
}
