package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import dev.benchplan.testing.TestFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class CompareCommandTest {
  @TempDir Path tmp;

  List<String> side(String flag, String prefix, int n, double throughput, double ttft, long seed)
      throws Exception {
    List<String> args = new ArrayList<>();
    args.add(flag);
    double[] jitter = {1.0, 1.01, 0.99};
    for (int i = 0; i < n; i++) {
      args.add(
          new GeneratedRun()
              .throughput(throughput * jitter[i % 3])
              .ttft(ttft)
              .seed(seed + i)
              .write(tmp.resolve(prefix + i))
              .toString());
    }
    return args;
  }

  static String[] args(List<String> a, List<String> b, String... rest) {
    List<String> all = new ArrayList<>(List.of("compare"));
    all.addAll(a);
    all.addAll(b);
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }

  @Test
  @DisplayName(
      "an obvious throughput regression (3 vs 3) is regressed, exit 1, with a JSON document matching its schema")
  void obviousRegression() throws Exception {
    var r =
        CommandHarness.run(
                args(
                    side("--reference", "ref", 3, 5000, 100, 1),
                    side("--candidate", "cand", 3, 4000, 100, 10),
                    "--format",
                    "json",
                    "--report-dir",
                    tmp.resolve("report").toString()))
            .expectExit(1);
    JsonNode c = dev.benchplan.testing.JsonDocuments.assertStdout("compare", r.out());
    assertThat(SchemaValidator.bundled("comparison.schema.json").validate(c)).isEmpty();
    assertThat(dev.benchplan.testing.JsonDocuments.assertFiles("compare", tmp.resolve("report")))
        .isEqualTo(2);
    assertThat(c.path("verdict").asString()).isEqualTo("regressed");
    JsonNode tput = find(c, "output_token_throughput.avg");
    assertThat(tput.path("verdict").asString()).isEqualTo("regressed");
    assertThat(tput.path("effect").path("delta_pct").asDouble())
        .isCloseTo(-20.0, org.assertj.core.data.Offset.offset(0.01));
    assertThat(tput.path("effect").path("method").asString()).isEqualTo("welch_t");
    assertThat(tmp.resolve("report/comparison.json")).exists();
    assertThat(tmp.resolve("report/report.html")).exists();
    assertThat(tmp.resolve("report/plots/throughput.svg")).exists();
    assertThat(Files.readString(tmp.resolve("report/summary.md")))
        .contains("| concurrency=16 | output_token_throughput.avg (gated)");
  }

  @Test
  @DisplayName(
      "a change far below the noise (0.05%, 3 vs 3) is never improved or regressed; exit 0")
  void tinyChange() throws Exception {
    var r =
        CommandHarness.run(
                args(
                    side("--reference", "ref", 3, 5000, 100, 1),
                    side("--candidate", "cand", 3, 5002.5, 100, 1),
                    "--format",
                    "json"))
            .expectOk();
    JsonNode c = Json.JSON.readTree(r.out());
    for (JsonNode m : c.path("metrics")) {
      assertThat(m.path("verdict").asString())
          .as(m.path("metric").asString())
          .isIn("no_change", "inconclusive");
    }
  }

  @Test
  @DisplayName(
      "1 vs 1 without a noise floor: inconclusive, repeat_decision necessary naming the series pilot")
  void oneVsOne() throws Exception {
    var r =
        CommandHarness.run(
                args(
                    side("--reference", "ref", 1, 5000, 100, 1),
                    side("--candidate", "cand", 1, 4900, 100, 2),
                    "--format",
                    "json"))
            .expectOk();
    JsonNode c = Json.JSON.readTree(r.out());
    assertThat(c.path("verdict").asString()).isEqualTo("inconclusive");
    assertThat(c.path("repeat_decision").path("decision").asString()).isEqualTo("necessary");
    assertThat(c.path("repeat_decision").path("rationale").asString())
        .startsWith("series noise-floor pilot (n=3 total)");
  }

  @Test
  @DisplayName(
      "1 vs 1 with the series noise floor from --exp-root: a 20% drop is regressed; a 0.2% change is no_change")
  void noiseFloorFromSeries() throws Exception {
    double[] tp = {4950, 5050, 5000};
    for (int i = 0; i < 3; i++) {
      new GeneratedRun().throughput(tp[i]).seed(30 + i).write(tmp.resolve("pilot/run_000" + i));
    }
    Path exp = tmp.resolve("exp");
    CommandHarness.run(
            "analyze",
            tmp.resolve("pilot").toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            tmp.resolve("pilot-out").toString())
        .expectOk();
    Path ref = new GeneratedRun().throughput(5000).seed(40).write(tmp.resolve("ref"));
    Path worse = new GeneratedRun().throughput(4000).seed(41).write(tmp.resolve("worse"));
    Path same = new GeneratedRun().throughput(5010).seed(40).write(tmp.resolve("same"));
    // the floor in the experiment root decides nothing unless named (issue 31)
    JsonNode unnamed =
        Json.JSON.readTree(
            CommandHarness.run(
                    "compare",
                    "--reference",
                    ref.toString(),
                    "--candidate",
                    worse.toString(),
                    "--exp-root",
                    exp.toString(),
                    "--format",
                    "json")
                .expectOk()
                .out());
    assertThat(find(unnamed, "output_token_throughput.avg").path("verdict").asString())
        .isEqualTo("inconclusive");
    String pilotId =
        Json.JSON
            .readTree(tmp.resolve("pilot-out/performance_analysis.json").toFile())
            .path("analysis_id")
            .asString();
    JsonNode bad =
        Json.JSON.readTree(
            CommandHarness.run(
                    "compare",
                    "--reference",
                    ref.toString(),
                    "--candidate",
                    worse.toString(),
                    "--exp-root",
                    exp.toString(),
                    "--noise-floor",
                    pilotId,
                    "--format",
                    "json")
                .expectExit(1)
                .out());
    JsonNode t = find(bad, "output_token_throughput.avg");
    assertThat(t.path("effect").path("method").asString()).isEqualTo("series_noise_floor");
    assertThat(t.path("effect").path("mde_source").asString()).isEqualTo("series_noise_floor");
    assertThat(t.path("verdict").asString()).isEqualTo("regressed");
    JsonNode ok =
        Json.JSON.readTree(
            CommandHarness.run(
                    "compare",
                    "--reference",
                    ref.toString(),
                    "--candidate",
                    same.toString(),
                    "--exp-root",
                    exp.toString(),
                    "--noise-floor",
                    pilotId,
                    "--format",
                    "json")
                .expectOk()
                .out());
    assertThat(find(ok, "output_token_throughput.avg").path("verdict").asString())
        .isEqualTo("no_change");
  }

  @Test
  @DisplayName("a different AIPerf version or ISL is exit 2 naming the field, nothing written")
  void ineligible() throws Exception {
    Path a = new GeneratedRun().write(tmp.resolve("a"));
    Path b = new GeneratedRun().version("0.14.0").isl(2000).write(tmp.resolve("b"));
    var r =
        CommandHarness.run(
                "compare",
                "--reference",
                a.toString(),
                "--candidate",
                b.toString(),
                "--report-dir",
                tmp.resolve("report").toString())
            .expectExit(2);
    assertThat(r.err())
        .contains("not eligible")
        .contains("aiperf_version differs: reference 0.13.0, candidate 0.14.0")
        .contains("isl differs: reference 1000, candidate 2000");
    assertThat(r.err().lines().count()).isEqualTo(1);
    assertThat(tmp.resolve("report")).doesNotExist();
  }

  @Test
  @DisplayName(
      "an invalid run (duplicate request ids) that leaves a side with no valid run at its load"
          + " point makes the comparison ineligible, exit 2")
  void invalidRunIneligible() throws Exception {
    Path a = new GeneratedRun().write(tmp.resolve("a"));
    GeneratedRun bad = new GeneratedRun();
    bad.duplicateIds = true;
    Path b = bad.write(tmp.resolve("b"));
    var r =
        CommandHarness.run("compare", "--reference", a.toString(), "--candidate", b.toString())
            .expectExit(2);
    assertThat(r.err())
        .contains("no valid candidate run at concurrency=16")
        .contains("candidate run b is invalid under the audit")
        .contains("duplicate_request_ids");
  }

  @Test
  @DisplayName("paired AB/BA repeats are analysed as paired differences")
  void paired() throws Exception {
    List<String> ref = new ArrayList<>(List.of("--reference"));
    List<String> cand = new ArrayList<>(List.of("--candidate"));
    double[] day = {5000, 5400, 4700};
    for (int i = 0; i < 3; i++) {
      ref.add(new GeneratedRun().throughput(day[i]).seed(i).write(tmp.resolve("r" + i)).toString());
      cand.add(
          new GeneratedRun()
              .throughput(day[i] * 0.97)
              .seed(10 + i)
              .write(tmp.resolve("c" + i))
              .toString());
    }
    JsonNode unpaired =
        Json.JSON.readTree(CommandHarness.run(args(ref, cand, "--format", "json")).out());
    JsonNode pairedRun =
        Json.JSON.readTree(
            CommandHarness.run(args(ref, cand, "--paired", "--format", "json"))
                .expectExit(1)
                .out());
    assertThat(find(unpaired, "output_token_throughput.avg").path("verdict").asString())
        .isEqualTo("inconclusive");
    JsonNode p = find(pairedRun, "output_token_throughput.avg");
    assertThat(p.path("effect").path("method").asString()).isEqualTo("paired_t");
    assertThat(p.path("verdict").asString()).isEqualTo("regressed");
  }

  @Test
  @DisplayName(
      "real data: the concurrency-1 export against itself in another directory is inconclusive (1 vs 1);"
          + " concurrency 1 vs 2 is exit 2 naming the load point")
  void realData() {
    Path single = SharedData.require("aiperf/profile_export_aiperf.json");
    Path c1 = SharedData.require("aiperf/sweep-qwen3-0.6b/concurrency1");
    Path c2 = SharedData.require("aiperf/sweep-qwen3-0.6b/concurrency2");
    var r =
        CommandHarness.run(
                "compare", "--reference", single.toString(), "--candidate", c1.toString())
            .expectOk();
    assertThat(r.out())
        .startsWith("compare: INCONCLUSIVE (exit 0)")
        .contains("repeat_decision: necessary");
    var bad =
        CommandHarness.run("compare", "--reference", c1.toString(), "--candidate", c2.toString())
            .expectExit(2);
    assertThat(bad.err())
        .contains("load_point differs: reference [concurrency=1], candidate [concurrency=2]");
  }

  @Test
  @DisplayName("bad input: a missing RUN and a bad --mde are exit 2 with one line")
  void badInput() throws Exception {
    Path a = new GeneratedRun().write(tmp.resolve("a"));
    var r =
        CommandHarness.run(
                "compare",
                "--reference",
                a.toString(),
                "--candidate",
                tmp.resolve("nope").toString())
            .expectExit(2);
    assertThat(r.err())
        .isEqualTo(
            "benchplan: "
                + tmp.resolve("nope")
                + ": not found or not a directory; expected a"
                + " benchplan run directory (benchmark/runs/<run-id>/) or an AIPerf artifact directory\n");
    for (String mde : new String[] {"0", "100", "-5", "abc", "NaN", "1e999"}) {
      var m =
          CommandHarness.run(
                  "compare", "--reference", a.toString(), "--candidate", a.toString(), "--mde", mde)
              .expectExit(2);
      assertThat(m.err())
          .as(mde)
          .startsWith("benchplan: Invalid value for option '--mde': '" + mde + "'")
          .endsWith("expected a number greater than 0 and below 100\n")
          .hasLineCount(1);
    }
  }

  @Test
  @DisplayName(
      "copies of one run on each side (zero spread) and a 0.01% drop: inconclusive with a pilot"
          + " repeat_decision, exit 0, never regressed")
  void copiedRunsAreNoSpread() throws Exception {
    Path ref = new GeneratedRun().throughput(5000).seed(1).write(tmp.resolve("ref-1"));
    Path cand = new GeneratedRun().throughput(4999.5).seed(1).write(tmp.resolve("cand-1"));
    TestFiles.copyTree(ref, tmp.resolve("ref-2"));
    TestFiles.copyTree(cand, tmp.resolve("cand-2"));
    var r =
        CommandHarness.run(
                "compare",
                "--reference",
                ref.toString(),
                tmp.resolve("ref-2").toString(),
                "--candidate",
                cand.toString(),
                tmp.resolve("cand-2").toString(),
                "--format",
                "json")
            .expectExit(0);
    JsonNode c = Json.JSON.readTree(r.out());
    JsonNode tput = find(c, "output_token_throughput.avg");
    assertThat(tput.path("effect").path("delta_pct").asDouble())
        .isCloseTo(-0.01, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(tput.path("verdict").asString()).as(tput.toString()).isEqualTo("inconclusive");
    assertThat(tput.path("effect").path("method").asString()).isEqualTo("none");
    assertThat(c.path("verdict").asString()).isEqualTo("inconclusive");
    assertThat(c.at("/repeat_decision/decision").asString()).isEqualTo("necessary");
    assertThat(c.at("/repeat_decision/rationale").asString()).contains("identical runs");
  }

  static JsonNode find(JsonNode c, String metric) {
    for (JsonNode m : c.path("metrics")) {
      if (m.path("metric").asString().equals(metric)) {
        return m;
      }
    }
    throw new AssertionError("no " + metric);
  }
}
