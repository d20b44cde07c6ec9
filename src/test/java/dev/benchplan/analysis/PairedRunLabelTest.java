package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.render.PairLabel;
import dev.benchplan.runrecord.RunRecordDocument;
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
 * Issue 13: compare pairs AB/BA runs by the pair run.json records ({@code /pair}, from render's
 * {@code --pair}), not by argument order. Three pairs whose reference throughput differs by +-10%
 * between pairs (the pair effect) and whose candidate is 3% faster within each pair: paired by
 * label the improvement is found whatever order the runs are given in; paired by argument order
 * (the old guess) the same runs given in reverse are inconclusive.
 */
class PairedRunLabelTest {
  @TempDir Path tmp;
  JsonNode series;

  @BeforeEach
  void planSeries() throws Exception {
    series =
        Json.JSON.readTree(
            PlanFixture.Examples.json(
                    PlanFixture.Examples.STATIC, "Is B faster than A?", tmp.resolve("exp"))
                .expectOk()
                .out());
  }

  private Path run(String id, double throughput, long seed, String pairAnnotation)
      throws Exception {
    Path planFile = Path.of(series.path("plan_path").asString());
    return GeneratedRun.forPlan(planFile)
        .throughput(throughput)
        .seed(seed)
        .writeRunDirectory(
            tmp.resolve("runs").resolve(id),
            series.path("series_id").asString(),
            planFile,
            series.path("sha256").asString(),
            RunRecordDocument.Pair.of(pairAnnotation));
  }

  private static JsonNode throughput(CommandHarness.Result r) throws Exception {
    for (JsonNode m : Json.JSON.readTree(r.out()).path("metrics")) {
      if (m.path("metric").asString().equals("output_token_throughput.avg")) {
        return m;
      }
    }
    throw new AssertionError("no throughput row: " + r.out());
  }

  private static CommandHarness.Result compare(List<Path> ref, List<Path> cand, String... extra) {
    List<String> args = new ArrayList<>(List.of("compare", "--format", "json"));
    ref.forEach(p -> args.addAll(List.of("--reference", p.toString())));
    cand.forEach(p -> args.addAll(List.of("--candidate", p.toString())));
    args.addAll(List.of(extra));
    return CommandHarness.run(args.toArray(String[]::new));
  }

  @Test
  @DisplayName(
      "pairs from run.json: paired_t and improved in any argument order; argument-order pairing of the same"
          + " runs reversed is inconclusive")
  void pairsFromRunJson() throws Exception {
    double[] base = {5000, 5500, 4600};
    String[] orders = {"AB", "BA", "AB"};
    List<Path> ref = new ArrayList<>();
    List<Path> cand = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String id = "p" + (i + 1);
      ref.add(run(id + "-a", base[i], 10 + i, id + "/" + orders[i] + "/A"));
      cand.add(run(id + "-b", base[i] * 1.03 + i, 20 + i, id + "/" + orders[i] + "/B"));
    }
    List<Path> reversed = List.of(cand.get(2), cand.get(1), cand.get(0));
    var labelled = compare(ref, reversed);
    assertThat(labelled.exitCode()).as(labelled.err()).isZero();
    JsonNode m = throughput(labelled);
    assertThat(Json.JSON.readTree(labelled.out()).path("paired").asBoolean()).isTrue();
    assertThat(m.at("/effect/method").asString()).isEqualTo("paired_t");
    assertThat(m.path("verdict").asString()).as(m.toString()).isEqualTo("improved");
    assertThat(m.at("/effect/delta_pct").asDouble()).isBetween(2.9, 3.1);

    // the same runs without labels, paired by argument order: misaligned pairs
    List<Path> refPlain = new ArrayList<>();
    List<Path> candPlain = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      refPlain.add(run("q" + i + "-a", base[i], 10 + i, null));
      candPlain.add(run("q" + i + "-b", base[i] * 1.03 + i, 20 + i, null));
    }
    var guessed =
        compare(
            refPlain, List.of(candPlain.get(2), candPlain.get(1), candPlain.get(0)), "--paired");
    assertThat(throughput(guessed).path("verdict").asString()).isEqualTo("inconclusive");
  }

  @Test
  @DisplayName("labels that do not form whole pairs: exit 2 naming the pair and the problem")
  void brokenPairs() throws Exception {
    Path a1 = run("p1-a", 5000, 1, "p1/AB/A");
    Path b1 = run("p1-b", 5150, 2, "p1/AB/B");
    Path b2 = run("p2-b", 5150, 3, "p2/AB/B");
    Path plain = run("x-a", 5000, 4, null);
    var missing = compare(List.of(a1), List.of(b1, b2));
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("pair p2 has no reference run (arm A)");
    var wrongArm = compare(List.of(b1), List.of(a1));
    assertThat(wrongArm.exitCode()).isEqualTo(2);
    assertThat(wrongArm.err()).contains("is arm B of pair p1; the reference side holds arm A");
    var unlabelled = compare(List.of(a1, plain), List.of(b1, b2));
    assertThat(unlabelled.exitCode()).isEqualTo(2);
    assertThat(unlabelled.err()).contains("records no pair in run.json");
  }

  /** render of the series' plan into {@code deploy} with the pair options given. */
  private CommandHarness.Result renderPair(Path deploy, String... pairOptions) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "render",
                "--plan",
                series.path("plan_path").asString(),
                "--plan-sha256",
                series.path("sha256").asString(),
                "--deploy-root",
                deploy.toString()));
    args.addAll(List.of(pairOptions));
    return CommandHarness.run(args.toArray(String[]::new));
  }

  @Test
  @DisplayName(
      "render --pair: the Job carries benchplan.dev/pair; run.json's /pair parses it; bad labels are refused")
  void renderAnnotation() throws Exception {
    Path deploy = Files.createDirectories(tmp.resolve("deploy"));
    renderPair(deploy, "--pair", "p7", "--pair-order", "BA", "--pair-arm", "B").expectOk();
    String perf = Files.readString(deploy.resolve("benchmark/perf.yaml"));
    assertThat(perf).contains("benchplan.dev/pair: p7/BA/B");
    RunRecordDocument.Pair p = RunRecordDocument.Pair.of("p7/BA/B");
    assertThat(p).isEqualTo(new RunRecordDocument.Pair("p7", "BA", "B"));
    assertThat(new PairLabel("p7", "BA", "B").first()).isTrue();
    var half = renderPair(deploy, "--pair", "p7");
    assertThat(half.exitCode()).isEqualTo(2);
    assertThat(half.err()).contains("--pair, --pair-order and --pair-arm go together");
    var bad = renderPair(deploy, "--pair", "p7", "--pair-order", "AA", "--pair-arm", "B");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("--pair-order AA");
  }
}
