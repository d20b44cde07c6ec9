package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Comparison verdicts a team can ship on (issue 31), on the generated series of {@link
 * ComparisonSeries}: errors as a metric of their own, and exit codes CI can trust.
 */
class VerdictsTest {
  @TempDir Path tmp;

  private static String[] compare(List<Path> reference, List<Path> candidate, String... rest) {
    List<String> args = new ArrayList<>(List.of("compare", "--reference"));
    reference.forEach(p -> args.add(p.toString()));
    args.add("--candidate");
    candidate.forEach(p -> args.add(p.toString()));
    args.addAll(List.of(rest));
    return args.toArray(String[]::new);
  }

  @Test
  @DisplayName(
      "the repetition with 12 of 400 requests failed (3%) is invalid with count and limit, excluded"
          + " and listed; compare shows the error row per side and load point")
  void erroringRunExcludedAndListed() throws Exception {
    List<Path> ref = ComparisonSeries.writePlain(tmp, "before", ComparisonSeries.ERROR_POINT);
    List<Path> cand = ComparisonSeries.writePlain(tmp, "after", ComparisonSeries.ERROR_POINT);
    JsonNode c = compareJson(ref, cand);
    assertThat(c.path("excluded")).hasSize(1);
    JsonNode x = c.path("excluded").get(0);
    assertThat(x.path("side").asString()).isEqualTo("candidate");
    assertThat(x.path("run").asString()).contains("c64-r2");
    assertThat(x.path("load_point").asString()).isEqualTo("concurrency=64");
    assertThat(x.path("reasons").get(0).asString())
        .startsWith("error_rate: 12 of 400 requests failed (3%), limit 1%")
        .endsWith("over the limit");
    // the candidate's valid runs only are compared: 2, the reference's 3
    JsonNode tput = row(c, "output_token_throughput.avg");
    assertThat(tput.path("reference_values")).hasSize(3);
    assertThat(tput.path("candidate_values")).hasSize(2);
    assertThat(c.path("errors")).hasSize(1);
    JsonNode e = c.path("errors").get(0);
    assertThat(e.path("load_point").asString()).isEqualTo("concurrency=64");
    assertThat(e.at("/reference/errors").asInt()).isZero();
    assertThat(e.at("/reference/requests").asInt()).isEqualTo(1200);
    assertThat(e.at("/candidate/errors").asInt()).isEqualTo(12);
    assertThat(e.at("/candidate/requests").asInt()).isEqualTo(1200);
    assertThat(e.at("/candidate/rate").asDouble()).isEqualTo(0.01);
    assertThat(e.at("/candidate/limit").asDouble()).isEqualTo(0.01);
    assertThat(e.at("/candidate/over_limit")).hasSize(1);
    String text = CommandHarness.run(compare(ref, cand)).out();
    assertThat(text)
        .containsPattern("concurrency=64 +error_rate \\(limit 1%\\) +lower +0% +1%")
        .contains("0/1200 vs 12/1200")
        .contains("over limit: run(s) excluded")
        .containsPattern("excluded: candidate run \\S*c64-r2 \\(concurrency=64\\): invalid");
    assertThat(Files.readString(tmp.resolve("rep/summary.md")))
        .contains("| concurrency=64 | error_rate (limit 1%) | 0% | 1% |")
        .contains("Excluded (invalid under the audit): candidate run");
    assertThat(Files.readString(tmp.resolve("rep/report.html")))
        .containsPattern(
            "<tr><td>concurrency=64</td><td>error_rate \\(limit 1%\\)</td><td>lower</td>"
                + "<td>0%</td><td>1%</td><td></td><td>0/1200 vs 12/1200</td>.*over limit: run\\(s\\)"
                + " excluded")
        .contains("<p>Excluded (invalid under the audit): candidate run");
  }

  @Test
  @DisplayName("the audit applies the error-rate limit per run, the same rule as gate")
  void auditErrorRate() throws Exception {
    Path bad = ComparisonSeries.run("after", 64, 2).write(tmp.resolve("bad"));
    Path ok = ComparisonSeries.run("after", 64, 1).write(tmp.resolve("ok"));
    var a =
        CommandHarness.run(
                "analyze",
                bad.toString(),
                ok.toString(),
                "--exp-root",
                tmp.resolve("exp").toString(),
                "--report-dir",
                tmp.resolve("an").toString())
            .expectOk();
    assertThat(a.out()).containsPattern("bad +concurrency=64 +invalid");
    JsonNode audit = Json.JSON.readTree(tmp.resolve("an/runs/bad/benchmark_audit.json").toFile());
    assertThat(audit.path("status").asString()).isEqualTo("invalid");
    JsonNode okAudit = Json.JSON.readTree(tmp.resolve("an/runs/ok/benchmark_audit.json").toFile());
    assertThat(okAudit.path("status").asString()).isEqualTo("valid");
    assertThat(okAudit.toString()).contains("0 of 400 requests failed (0%), limit 1%");
    // gate, on the same export with its default limit, fails it too
    var g =
        CommandHarness.run(
            "gate",
            "--results",
            bad.resolve("profile_export_aiperf.json").toString(),
            "--min-throughput",
            "1");
    assertThat(g.exitCode()).as(g.out() + g.err()).isEqualTo(1);
  }

  @Test
  @DisplayName("a side with no valid run at a load point is exit 2, naming the load point and why")
  void noValidRunAtALoadPoint() throws Exception {
    Path bad = ComparisonSeries.run("after", 64, 2).write(tmp.resolve("bad"));
    Path ref = ComparisonSeries.run("before", 64, 1).write(tmp.resolve("ref"));
    var r = CommandHarness.run(compare(List.of(ref), List.of(bad))).expectExit(2);
    assertThat(r.err())
        .contains("no valid candidate run at concurrency=64")
        .contains("error_rate: 12 of 400 requests failed");
  }

  @Test
  @DisplayName(
      "1 vs 1: exit 0 says nothing could be decided; --fail-on inconclusive exits 1 and says why")
  void failOnInconclusive() throws Exception {
    List<Path> pair = ComparisonSeries.writePair(tmp);
    var plain = CommandHarness.run(compare(List.of(pair.get(0)), List.of(pair.get(1))));
    assertThat(plain.exitCode()).isZero();
    assertThat(plain.out())
        .startsWith("compare: INCONCLUSIVE (exit 0)")
        .contains(
            "exit 0: no gated metric regressed, but nothing could be decided: every gated metric"
                + " is inconclusive (concurrency=4 output_token_throughput.avg, concurrency=4"
                + " time_to_first_token.p99 (not estimable)); --fail-on inconclusive makes this"
                + " exit 1");
    var strict =
        CommandHarness.run(
            compare(
                List.of(pair.get(0)),
                List.of(pair.get(1)),
                "--fail-on",
                "inconclusive",
                "--format",
                "json"));
    assertThat(strict.exitCode()).isEqualTo(1);
    JsonNode c = Json.JSON.readTree(strict.out());
    assertThat(c.path("exit_code").asInt()).isEqualTo(1);
    assertThat(c.path("fail_on").asString()).isEqualTo("inconclusive");
    assertThat(c.path("exit_reason").asString())
        .isEqualTo(
            "--fail-on inconclusive: gated metric(s) inconclusive: concurrency=4"
                + " output_token_throughput.avg, concurrency=4 time_to_first_token.p99 (not"
                + " estimable)");
  }

  @Test
  @DisplayName("the generated series: the +8% throughput at concurrency 16 is decided (3 vs 3)")
  void generatedThroughputChange() throws Exception {
    List<Path> ref = ComparisonSeries.writePlain(tmp, "before", ComparisonSeries.THROUGHPUT_POINT);
    List<Path> cand = ComparisonSeries.writePlain(tmp, "after", ComparisonSeries.THROUGHPUT_POINT);
    var r = CommandHarness.run(compare(ref, cand, "--format", "json"));
    JsonNode c = Json.JSON.readTree(r.out());
    JsonNode tput = row(c, "output_token_throughput.avg");
    assertThat(tput.path("verdict").asString()).as(tput.toString()).isEqualTo("improved");
    assertThat(tput.at("/effect/delta_pct").asDouble()).isBetween(4.0, 12.0);
    assertThat(c.path("exit_reason").asString()).isNotBlank();
  }

  private static String[] analyze(Path exp, List<Path> runs, String... rest) {
    List<String> args = new ArrayList<>(List.of("analyze"));
    runs.forEach(p -> args.add(p.toString()));
    args.addAll(List.of("--exp-root", exp.toString(), "--format", "json"));
    args.addAll(List.of(rest));
    return args.toArray(String[]::new);
  }

  private static JsonNode analysisOf(CommandHarness.Result r) throws Exception {
    JsonNode out = Json.JSON.readTree(r.out());
    return Json.JSON.readTree(
        Path.of(out.path("output_dir").asString()).resolve("performance_analysis.json").toFile());
  }

  @Test
  @DisplayName(
      "two sibling single runs (before, after) never make a noise floor: analyze reports each"
          + " candidate on its own, and the next compare of the pair decides nothing")
  void siblingSingleRunsNeverMakeAFloor() throws Exception {
    List<Path> pair = ComparisonSeries.writePair(tmp);
    Path exp = tmp.resolve("exp");
    JsonNode a = analysisOf(CommandHarness.run(analyze(exp, pair)).expectOk());
    assertThat(a.path("series")).hasSize(2);
    for (JsonNode s : a.path("series")) {
      assertThat(s.at("/noise_floor/load_points")).isEmpty();
      assertThat(s.at("/noise_floor/metrics")).isEmpty();
      assertThat(s.path("series_id_source").asString()).startsWith("auto-derived");
    }
    assertThat(a.at("/series/0/candidate/name").asString()).isEqualTo("unknown (before)");
    assertThat(a.at("/series/1/candidate/name").asString()).isEqualTo("unknown (after)");
    assertThat(a.at("/series/0/series_id").asString())
        .isEqualTo(a.at("/series/1/series_id").asString());
    var r =
        CommandHarness.run(
            compare(
                List.of(pair.get(0)),
                List.of(pair.get(1)),
                "--exp-root",
                exp.toString(),
                "--format",
                "json"));
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode c = Json.JSON.readTree(r.out());
    assertThat(c.path("noise_floor").isNull()).isTrue();
    assertThat(row(c, "output_token_throughput.avg").path("verdict").asString())
        .isEqualTo("inconclusive");
    assertThat(row(c, "time_to_first_token.p50").path("verdict").asString())
        .isEqualTo("inconclusive");
    assertThat(c.at("/repeat_decision/decision").asString()).isEqualTo("necessary");
  }

  @Test
  @DisplayName(
      "compare gives the same verdicts and exit code with a fresh and with a pre-populated"
          + " experiment root")
  void sameVerdictsWithAnyExpRoot() throws Exception {
    List<Path> before = ComparisonSeries.writePlain(tmp, "before");
    List<Path> after = ComparisonSeries.writePlain(tmp, "after");
    List<Path> pair = ComparisonSeries.writePair(tmp);
    Path fresh = tmp.resolve("fresh");
    Path full = tmp.resolve("full");
    // fill one root with analyses: each build with its repetitions (floors at every point), the
    // pair, and the builds pooled under one label
    CommandHarness.run(analyze(full, before, "--label", "before=" + tmp.resolve("before")))
        .expectOk();
    CommandHarness.run(analyze(full, pair)).expectOk();
    List<Path> both = new ArrayList<>(before);
    both.addAll(after);
    CommandHarness.run(analyze(full, both, "--label", "all=" + tmp)).expectOk();
    List<Path> ref = before.subList(3, 9); // concurrency 4 and 16
    List<Path> cand = after.subList(3, 9);
    for (List<List<Path>> sides :
        List.of(List.of(ref, cand), List.of(List.of(pair.get(0)), List.of(pair.get(1))))) {
      var a =
          CommandHarness.run(
              compare(
                  sides.get(0), sides.get(1), "--exp-root", fresh.toString(), "--format", "json"));
      var b =
          CommandHarness.run(
              compare(
                  sides.get(0), sides.get(1), "--exp-root", full.toString(), "--format", "json"));
      assertThat(b.exitCode()).isEqualTo(a.exitCode());
      JsonNode ca = Json.JSON.readTree(a.out());
      JsonNode cb = Json.JSON.readTree(b.out());
      assertThat(cb.path("metrics")).isEqualTo(ca.path("metrics"));
      assertThat(cb.path("verdict")).isEqualTo(ca.path("verdict"));
      assertThat(cb.path("noise_floor")).isEqualTo(ca.path("noise_floor"));
    }
  }

  @Test
  @DisplayName(
      "a floor measured at concurrency 1 never decides concurrency 64; named with --noise-floor"
          + " it decides concurrency 1 only")
  void floorOfOneLoadPointOnly() throws Exception {
    List<Path> before = ComparisonSeries.writePlain(tmp, "before", 1);
    Path exp = tmp.resolve("exp");
    JsonNode a =
        analysisOf(
            CommandHarness.run(analyze(exp, before, "--label", "before=" + tmp.resolve("before")))
                .expectOk());
    assertThat(a.path("series")).hasSize(1);
    assertThat(a.at("/series/0/noise_floor/load_points").propertyNames())
        .containsExactly("concurrency=1");
    assertThat(a.at("/series/0/noise_floor/load_points/concurrency=1/source").asString())
        .isEqualTo("this analysis: 3 runs of candidate before at concurrency=1");
    String id = a.path("analysis_id").asString();
    Path c64b = ComparisonSeries.run("before", 64, 1).write(tmp.resolve("one/b64"));
    Path c64a = ComparisonSeries.run("after", 64, 1).write(tmp.resolve("one/a64"));
    JsonNode at64 =
        Json.JSON.readTree(
            CommandHarness.run(
                    compare(
                        List.of(c64b),
                        List.of(c64a),
                        "--noise-floor",
                        id,
                        "--exp-root",
                        exp.toString(),
                        "--format",
                        "json"))
                .out());
    assertThat(at64.path("noise_floor").isNull()).isTrue();
    JsonNode t64 = row(at64, "output_token_throughput.avg");
    assertThat(t64.at("/effect/method").asString()).isEqualTo("none");
    assertThat(t64.path("verdict").asString()).isEqualTo("inconclusive");
    Path c1b = ComparisonSeries.run("before", 1, 1).write(tmp.resolve("one/b1"));
    Path c1a = ComparisonSeries.run("after", 1, 1).write(tmp.resolve("one/a1"));
    for (String named :
        List.of(
            id,
            Path.of(
                    Json.JSON
                        .readTree(
                            CommandHarness.run(
                                    analyze(
                                        tmp.resolve("exp2"),
                                        before,
                                        "--label",
                                        "before=" + tmp.resolve("before")))
                                .expectOk()
                                .out())
                        .path("output_dir")
                        .asString())
                .resolve("performance_analysis.json")
                .toString())) {
      JsonNode at1 =
          Json.JSON.readTree(
              CommandHarness.run(
                      compare(
                          List.of(c1b),
                          List.of(c1a),
                          "--noise-floor",
                          named,
                          "--exp-root",
                          exp.toString(),
                          "--format",
                          "json"))
                  .out());
      assertThat(row(at1, "output_token_throughput.avg").at("/effect/method").asString())
          .isEqualTo("series_noise_floor");
      assertThat(at1.at("/noise_floor_source/description").asString())
          .startsWith("named by --noise-floor " + named + ": analysis ");
    }
    // without a label the three folders are three candidates: no floor at all
    JsonNode unlabelled =
        analysisOf(CommandHarness.run(analyze(tmp.resolve("exp3"), before)).expectOk());
    assertThat(unlabelled.path("series")).hasSize(3);
    for (JsonNode s : unlabelled.path("series")) {
      assertThat(s.at("/noise_floor/load_points")).isEmpty();
    }
  }

  @Test
  @DisplayName(
      "p99 of 400-request runs is never improved/regressed/no_change: inconclusive with the"
          + " estimability reason on the row; a short steady state is flagged on the row")
  void caveatsOnTheVerdictRow() throws Exception {
    List<Path> ref = new ArrayList<>(ComparisonSeries.writePlain(tmp, "before", 4));
    List<Path> cand = new ArrayList<>(ComparisonSeries.writePlain(tmp, "after", 4));
    ref.add(ComparisonSeries.run("before", 64, 1).write(tmp.resolve("b64")));
    ref.add(ComparisonSeries.run("before", 64, 3).write(tmp.resolve("b64-3")));
    cand.add(ComparisonSeries.run("after", 64, 1).write(tmp.resolve("a64")));
    cand.add(ComparisonSeries.run("after", 64, 3).write(tmp.resolve("a64-3")));
    JsonNode c = compareJson(ref, cand);
    int p99Rows = 0;
    for (JsonNode m : c.path("metrics")) {
      if (m.path("metric").asString().endsWith(".p99")) {
        p99Rows++;
        assertThat(m.path("verdict").asString()).as(m.toString()).isEqualTo("inconclusive");
        assertThat(m.path("caveats").get(0).asString())
            .startsWith("not_estimable: p99 needs 1,000 measured requests per run")
            .contains("a run here has 400");
      }
    }
    // TTFT p99 (gated, the true +30% at concurrency 4) and request latency p99, at both points
    assertThat(p99Rows).isGreaterThanOrEqualTo(4);
    // throughput is undecided inside the noise band at both points: the decision names them,
    // the largest change first
    java.util.Map<String, Double> band = new java.util.HashMap<>();
    for (JsonNode m : c.path("metrics")) {
      if (m.path("gated").asBoolean()
          && m.path("verdict").asString().equals("inconclusive")
          && !m.path("caveats").toString().contains("not_estimable")) {
        band.merge(
            m.path("load_point").asString(),
            m.at("/effect/delta_pct").asDouble(),
            (x, y) -> Math.abs(y) > Math.abs(x) ? y : x);
      }
    }
    assertThat(band).containsOnlyKeys("concurrency=4", "concurrency=64");
    String expected =
        band.entrySet().stream()
            .sorted((x, y) -> Double.compare(Math.abs(y.getValue()), Math.abs(x.getValue())))
            .map(
                e -> String.format(java.util.Locale.ROOT, "%s (%+.1f%%)", e.getKey(), e.getValue()))
            .collect(java.util.stream.Collectors.joining(", "));
    assertThat(c.at("/repeat_decision/decision").asString()).isEqualTo("not_justified");
    assertThat(c.at("/repeat_decision/rationale").asString())
        .contains("inside the noise band at " + expected + " (the largest change first)");
    JsonNode p50 = row(c, "time_to_first_token.p50", "concurrency=4");
    assertThat(p50.path("verdict").asString()).isEqualTo("regressed");
    for (JsonNode m : c.path("metrics")) {
      boolean short64 = m.path("load_point").asString().equals("concurrency=64");
      assertThat(m.path("caveats").toString().contains("steady_state_short: 400 measured requests"))
          .as(m.toString())
          .isEqualTo(short64);
    }
    String text = CommandHarness.run(compare(ref, cand)).out();
    assertThat(text)
        .contains("    ! not_estimable: p99 needs 1,000 measured requests per run")
        .contains(
            "caveat at concurrency=64: steady_state_short: 400 measured requests in a run,"
                + " fewer than 8 x C = 512");
    assertThat(Files.readString(tmp.resolve("rep/summary.md")))
        .contains("| verdict | caveats |")
        .contains("not_estimable: p99 needs 1,000");
    assertThat(Files.readString(tmp.resolve("rep/report.html")))
        .contains("<th>caveats</th>")
        .contains("not_estimable: p99 needs 1,000");
    var strict = CommandHarness.run(compare(ref, cand, "--fail-on", "inconclusive"));
    assertThat(strict.exitCode()).isEqualTo(1);
    assertThat(strict.out()).contains("concurrency=4 time_to_first_token.p99 (not estimable)");
  }

  @Test
  @DisplayName(
      "warmup below C and a client load not judged sit on every row of their load point, and only"
          + " there")
  void warmupAndClientLoadCaveats() throws Exception {
    List<Path> ref = new ArrayList<>();
    List<Path> cand = new ArrayList<>();
    for (int c : new int[] {ComparisonSeries.THROUGHPUT_POINT, ComparisonSeries.ERROR_POINT}) {
      // one warmup request at 64 (below C), 16 at 16 (= C); 400 requests: at 64 fewer than 8 x C
      int warmup = c == ComparisonSeries.ERROR_POINT ? 1 : c;
      ref.add(ComparisonSeries.run("before", c, 1).warmup(warmup).write(tmp.resolve("b/c" + c)));
      cand.add(ComparisonSeries.run("after", c, 1).warmup(warmup).write(tmp.resolve("a/c" + c)));
    }
    JsonNode c = compareJson(ref, cand);
    int at64 = 0;
    for (JsonNode m : c.path("metrics")) {
      String caveats = m.path("caveats").toString();
      if (m.path("load_point").asString().equals("concurrency=64")) {
        at64++;
        assertThat(caveats)
            .as(m.toString())
            .contains("warmup_below_c: 1 warmup request(s) in a run, fewer than C = 64")
            .contains("client_bound_not_judged: ")
            .contains("400 measured requests, fewer than 8 x 64 = 512");
      } else {
        assertThat(caveats).as(m.toString()).doesNotContain("warmup_below_c");
      }
    }
    assertThat(at64).isPositive();
    assertThat(CommandHarness.run(compare(ref, cand)).out())
        .contains("caveat at concurrency=64: warmup_below_c: 1 warmup request(s)")
        .contains("caveat at concurrency=64: client_bound_not_judged: ");
    assertThat(Files.readString(tmp.resolve("rep/summary.md")))
        .contains("warmup_below_c: 1 warmup request(s)");
    assertThat(Files.readString(tmp.resolve("rep/report.html")))
        .contains("client_bound_not_judged: ");
  }

  @Test
  @DisplayName(
      "a run with a stalled worker: every row at its load point carries stall_found naming the"
          + " side and run, in JSON, text, summary.md and report.html; other load points do not")
  void stallFoundOnTheVerdictRow() throws Exception {
    List<Path> ref = new ArrayList<>();
    List<Path> cand = new ArrayList<>();
    for (int c : new int[] {1, ComparisonSeries.TTFT_POINT}) {
      for (int rep = 1; rep <= ComparisonSeries.REPETITIONS; rep++) {
        ref.add(
            ComparisonSeries.run("before", c, rep)
                .write(tmp.resolve(ComparisonSeries.name("before", c, rep))));
        GeneratedRun after = ComparisonSeries.run("after", c, rep);
        if (c == ComparisonSeries.TTFT_POINT && rep == 2) {
          after.stallEvery(12); // 34 of 400 requests at 20x the TTFT: a separate slow group
        }
        cand.add(after.write(tmp.resolve(ComparisonSeries.name("after", c, rep))));
      }
    }
    JsonNode c = compareJson(ref, cand);
    String stall = "stall_found: candidate run c4-r2: suspected stalled worker: ";
    for (JsonNode m : c.path("metrics")) {
      boolean at4 = m.path("load_point").asString().equals("concurrency=4");
      assertThat(m.path("caveats").toString().contains(stall)).as(m.toString()).isEqualTo(at4);
    }
    JsonNode tput = row(c, "output_token_throughput.avg", "concurrency=4");
    assertThat(tput.path("caveats").toString())
        .contains("of requests (34 of 400) have a TTFT above 10x the bulk's median")
        .contains("(benchmarking/stall-diagnosis.md)");
    // the finding never changes a verdict: the run stays valid and compared
    assertThat(c.path("excluded")).isEmpty();
    assertThat(tput.path("candidate_values")).hasSize(3);
    assertThat(CommandHarness.run(compare(ref, cand)).out())
        .contains("caveat at concurrency=4: " + stall)
        .doesNotContain("caveat at concurrency=1: stall_found");
    assertThat(Files.readString(tmp.resolve("rep/summary.md"))).contains(stall);
    assertThat(Files.readString(tmp.resolve("rep/report.html"))).contains(stall);
  }

  @Test
  @DisplayName(
      "run.json's candidate decides identity: two builds' runs are never pooled, an older"
          + " run.json is unknown, and a compare side holding both builds is refused")
  void candidateFromRunJson() throws Exception {
    Path plan = tmp.resolve("no-plan.json");
    String sha = "0".repeat(64);
    List<Path> before =
        ComparisonSeries.writeRunDirectories(tmp.resolve("b"), "before", plan, sha, "s-1");
    List<Path> after =
        ComparisonSeries.writeRunDirectories(tmp.resolve("a"), "after", plan, sha, "s-1");
    List<dev.benchplan.analysis.evidence.RunEvidence> loaded =
        AnalyzeService.load(List.of(before.get(0), before.get(1), after.get(0)), null);
    assertThat(loaded.get(0).candidate().id())
        .startsWith("ledger:")
        .isEqualTo(loaded.get(1).candidate().id())
        .isNotEqualTo(loaded.get(2).candidate().id());
    assertThat(loaded.get(0).candidate().dgd()).isEqualTo("bench/vllm-agg");
    assertThat(loaded.get(0).candidate().ledgerSha256())
        .isEqualTo(ComparisonSeries.candidateBlock("before").ledgerSha256());
    Path old = ComparisonSeries.run("before", 1, 1).write(tmp.resolve("old/aiperf"));
    // a complete run.json of the documented schema written before the candidate was recorded
    dev.benchplan.testing.RunRecords.of("s-1", "plan.json", "0".repeat(64))
        .write(tmp.resolve("old"));
    assertThat(AnalyzeService.load(List.of(tmp.resolve("old")), null).get(0).candidate().name())
        .isEqualTo("unknown (old)");
    var mixed =
        CommandHarness.run(compare(List.of(before.get(0), after.get(0)), List.of(after.get(1))))
            .expectExit(2);
    assertThat(mixed.err())
        .contains("--reference holds runs of 2 candidates")
        .contains("runs of different candidates are never pooled");
    var labelNowhere =
        CommandHarness.run(
                compare(
                    List.of(before.get(0)),
                    List.of(after.get(0)),
                    "--label",
                    "x=" + tmp.resolve("old")))
            .expectExit(2);
    assertThat(labelNowhere.err()).contains("--label x=").contains("no RUN given lies under");
  }

  @Test
  @DisplayName(
      "analyze's history names the prior analysis, its candidate and date, and says when it is"
          + " a different candidate; an auto-derived series id says so")
  void historyNamesThePrior() throws Exception {
    List<Path> pair = ComparisonSeries.writePair(tmp);
    Path exp = tmp.resolve("exp");
    CommandHarness.run("analyze", pair.get(0).toString(), "--exp-root", exp.toString()).expectOk();
    var r =
        CommandHarness.run("analyze", pair.get(1).toString(), "--exp-root", exp.toString())
            .expectOk();
    assertThat(r.out())
        .contains("  candidate: unknown (after); series id auto-derived (no plan)")
        .containsPattern(
            "compared with previous_valid analysis-[0-9a-f]{12} \\(candidate unknown \\(before\\),"
                + " measured 20[0-9-]+T[0-9:]+Z; a different candidate, not a previous run of this"
                + " one\\)");
  }

  @Test
  @DisplayName(
      "run.json records the candidate from the rendered annotations (schema-valid); without the"
          + " ledger's SHA-256 there is none (an older perf.yaml)")
  void runJsonCandidateBlock() throws Exception {
    var c =
        dev.benchplan.runrecord.RunRecordDocument.Candidate.of(
            "a".repeat(64), "bench/vllm-agg", "b".repeat(64), "http://x.bench:8000");
    JsonNode tree = Json.JSON.valueToTree(c);
    assertThat(tree.propertyNames())
        .containsExactly("ledger_sha256", "dgd", "dgd_sha256", "endpoint");
    assertThat(dev.benchplan.runrecord.RunRecordDocument.Candidate.of(null, "bench/x", null, "u"))
        .isNull();
    try (var runs = Files.walk(Path.of("experiments/deploy"))) {
      Path runJson =
          runs.filter(p -> p.getFileName().toString().equals("run.json")).findFirst().orElseThrow();
      tools.jackson.databind.node.ObjectNode rec =
          (tools.jackson.databind.node.ObjectNode) Json.JSON.readTree(runJson.toFile());
      rec.set("candidate", tree);
      assertThat(SchemaValidator.bundled("run-record.schema.json").validate(rec)).isEmpty();
      rec.set("candidate", Json.JSON.readTree("{\"dgd\":\"bench/x\"}"));
      assertThat(SchemaValidator.bundled("run-record.schema.json").validate(rec)).isNotEmpty();
    }
  }

  @Test
  @DisplayName(
      "the repeat decision names the load point with the largest unresolved change (1 vs 1 over"
          + " four load points)")
  void repeatDecisionNamesTheChangedLoadPoint() throws Exception {
    List<Path> ref = new ArrayList<>();
    List<Path> cand = new ArrayList<>();
    for (int c : ComparisonSeries.CONCURRENCY) {
      ref.add(ComparisonSeries.run("before", c, 1).write(tmp.resolve("b/c" + c)));
      cand.add(ComparisonSeries.run("after", c, 1).write(tmp.resolve("a/c" + c)));
    }
    JsonNode c = compareJson(ref, cand);
    String largest = null;
    double most = -1;
    for (JsonNode m : c.path("metrics")) {
      if (m.path("gated").asBoolean()
          && m.path("caveats").toString().indexOf("not_estimable") < 0
          && Math.abs(m.at("/effect/delta_pct").asDouble()) > most) {
        most = Math.abs(m.at("/effect/delta_pct").asDouble());
        largest = m.path("load_point").asString();
      }
    }
    JsonNode rd = Json.JSON.readTree(tmp.resolve("rep/repeat_decision.json").toFile());
    assertThat(rd.path("decision").asString()).isEqualTo("necessary");
    assertThat(rd.at("/pilot/load_point").asString())
        .isEqualTo(largest)
        .isEqualTo("concurrency=" + ComparisonSeries.THROUGHPUT_POINT);
    // plain AIPerf runs: no plan, so the decision carries the workload they recorded
    assertThat(rd.path("plan").isNull()).isTrue();
    assertThat(rd.at("/workload/model").asString()).isEqualTo("Qwen/Qwen3-0.6B");
    assertThat(rd.at("/workload/isl").asString()).isNotBlank();
  }

  /** A plain AIPerf run of the static example's workload (ISL 512, OSL 128) at {@code c}. */
  private Path staticRun(String dir, int c, double throughput, long seed) throws Exception {
    return run(dir, 512, c, throughput, seed);
  }

  /** A plain AIPerf run of ISL {@code isl}, OSL 128 at concurrency {@code c}. */
  private Path run(String dir, int isl, int c, double throughput, long seed) throws Exception {
    return new GeneratedRun()
        .concurrency(c)
        .isl(isl)
        .osl(128)
        .throughput(throughput)
        .seed(seed)
        .write(tmp.resolve(dir));
  }

  @Test
  @DisplayName(
      "several undecided load points with different changes: compare's and analyze's repeat"
          + " decisions name the largest unresolved change first (not the first or last load"
          + " point), and plan --repeat-decision accepts compare's")
  void repeatDecisionNamesTheLargestUnresolvedChange() throws Exception {
    // 1 vs 1 at three load points: +3% at 4, -7% at 16 (the largest), +5% at 64
    List<Path> ref = new ArrayList<>();
    List<Path> cand = new ArrayList<>();
    double[][] points = {{4, 1.03}, {16, 0.93}, {64, 1.05}};
    for (double[] p : points) {
      int c = (int) p[0];
      ref.add(staticRun("b/c" + c, c, 5000, c));
      cand.add(staticRun("a/c" + c, c, 5000 * p[1], 100 + c));
    }
    CommandHarness.run(compare(ref, cand, "--report-dir", tmp.resolve("rep").toString()));
    Path decision = tmp.resolve("rep/repeat_decision.json");
    JsonNode rd = Json.JSON.readTree(decision.toFile());
    assertThat(rd.path("decision").asString()).isEqualTo("necessary");
    assertThat(rd.at("/pilot/load_point").asString()).isEqualTo("concurrency=16");
    assertThat(rd.path("rationale").asString())
        .contains(
            "no interval can be drawn at concurrency=16 (-7.0%), concurrency=64 (+5.0%),"
                + " concurrency=4 (+3.0%) (the largest unresolved change first: the pilot runs"
                + " concurrency=16)");
    var ok = planWithDecision(tmp.resolve("exp"), decision);
    assertThat(ok.exitCode()).as(ok.out() + ok.err()).isZero();
    JsonNode pilot =
        Json.JSON.readTree(
            Path.of(Json.JSON.readTree(ok.out()).path("plan_path").asString()).toFile());
    assertThat(pilot.at("/run_policy/decision_source/load_point").asString())
        .isEqualTo("concurrency=16");
    // analyze: the same builds as history, one candidate (small changes, no floor): the same order
    Path exp = tmp.resolve("exp-analyze");
    CommandHarness.run(analyze(exp, ref, "--label", "build=" + tmp.resolve("b"))).expectOk();
    var a =
        CommandHarness.run(
                analyze(
                    exp,
                    cand,
                    "--label",
                    "build=" + tmp.resolve("a"),
                    "--report-dir",
                    tmp.resolve("an").toString()))
            .expectOk();
    JsonNode ad = Json.JSON.readTree(tmp.resolve("an/repeat_decision.json").toFile());
    assertThat(ad.path("decision").asString()).as(a.out()).isEqualTo("necessary");
    assertThat(ad.at("/pilot/load_point").asString()).isEqualTo("concurrency=16");
    assertThat(ad.path("rationale").asString())
        .contains(
            "at concurrency=16 (-7.0%), concurrency=64 (+5.0%), concurrency=4 (+3.0%) (the"
                + " largest unresolved change first: the pilot runs concurrency=16)");
  }

  @Test
  @DisplayName(
      "plan --repeat-decision accepts the decision of a plain AIPerf 1 vs 1 (its workload from"
          + " AIPerf's input config) and refuses a plan of another workload")
  void planAcceptsPlainDecision() throws Exception {
    Path ref = staticRun("ref", 16, 5000, 1);
    Path cand = staticRun("cand", 16, 4900, 2);
    CommandHarness.run(
        compare(List.of(ref), List.of(cand), "--report-dir", tmp.resolve("rep").toString()));
    Path decision = tmp.resolve("rep/repeat_decision.json");
    JsonNode rd = Json.JSON.readTree(decision.toFile());
    assertThat(rd.at("/pilot/load_point").asString()).isEqualTo("concurrency=16");
    assertThat(rd.at("/workload/isl").asString()).isEqualTo("512");
    Path exp = tmp.resolve("exp");
    var ok = planWithDecision(exp, decision);
    assertThat(ok.exitCode()).as(ok.out() + ok.err()).isZero();
    JsonNode pilot =
        Json.JSON.readTree(
            Path.of(Json.JSON.readTree(ok.out()).path("plan_path").asString()).toFile());
    assertThat(pilot.at("/run_policy/repetitions").asInt()).isEqualTo(3);
    assertThat(pilot.at("/run_policy/decision_source/series_id").asString())
        .isEqualTo(rd.path("series_id").asString());
    assertThat(pilot.at("/run_policy/decision_source/load_point").asString())
        .isEqualTo("concurrency=16");
    assertThat(pilot.at("/run_policy/decision_source/plan_sha256").asString()).isEmpty();
    // another workload (ISL 2000) is not the pilot of these runs
    Path otherRef = run("ref2", 2000, 16, 5000, 1);
    Path otherCand = run("cand2", 2000, 16, 4900, 2);
    CommandHarness.run(
        compare(
            List.of(otherRef), List.of(otherCand), "--report-dir", tmp.resolve("rep2").toString()));
    Path other = tmp.resolve("rep2/repeat_decision.json");
    var refused = planWithDecision(tmp.resolve("exp2"), other);
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.out() + refused.err())
        .contains("REPEAT_DECISION_SERIES_MISMATCH")
        .contains("/workload/synthetic/isl (2000 in the runs' input config, 512 in this plan)");
    // a second pilot of the same series at the same load point, from another decision: refused
    Path again = tmp.resolve("rep3");
    Path cand3 = staticRun("cand3", 16, 4950, 3);
    CommandHarness.run(compare(List.of(ref), List.of(cand3), "--report-dir", again.toString()));
    Path decision3 = again.resolve("repeat_decision.json");
    var second = planWithDecision(exp, decision3);
    assertThat(second.exitCode()).isEqualTo(2);
    assertThat(second.out() + second.err())
        .contains("PILOT_ONCE_PER_LOAD_POINT")
        .contains("already has a noise-floor pilot at concurrency=16");
  }

  @Test
  @DisplayName(
      "provenance: a copied run and a run sharing the first request start are flagged in the"
          + " audit and on compare's rows; an AIPerf version recorded by neither side is unknown,"
          + " a warning, not a match")
  void provenanceFlags() throws Exception {
    Path orig = new GeneratedRun().seed(1).version(null).write(tmp.resolve("orig"));
    Path copy = tmp.resolve("copy");
    Files.createDirectories(copy);
    try (var files = Files.list(orig)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    Path sameStart =
        new GeneratedRun()
            .seed(2)
            .version(null)
            .startNs(1_762_551_534_000_000_000L)
            .write(tmp.resolve("same-start"));
    Path other =
        new GeneratedRun()
            .seed(3)
            .version(null)
            .startNs(1_762_551_534_000_000_000L)
            .write(tmp.resolve("other"));
    CommandHarness.run(
            "analyze",
            orig.toString(),
            copy.toString(),
            "--exp-root",
            tmp.resolve("exp").toString(),
            "--report-dir",
            tmp.resolve("an").toString())
        .expectOk();
    JsonNode audit = Json.JSON.readTree(tmp.resolve("an/runs/copy/benchmark_audit.json").toFile());
    JsonNode prov = null;
    for (JsonNode ch : audit.path("checks")) {
      if (ch.path("id").asString().equals("provenance")) {
        prov = ch;
      }
    }
    assertThat(prov).isNotNull();
    assertThat(prov.path("status").asString()).isEqualTo("warn");
    assertThat(prov.path("detail").asString())
        .startsWith("copied or replayed, not measured again: identical per-request records")
        .contains("as run orig");
    assertThat(audit.path("status").asString()).isEqualTo("valid");
    JsonNode c =
        Json.JSON.readTree(
            CommandHarness.run(compare(List.of(sameStart), List.of(other), "--format", "json"))
                .out());
    assertThat(row(c, "output_token_throughput.avg").path("caveats").toString())
        .contains(
            "provenance_warn: copied or replayed, not measured again: the same first request"
                + " start (")
        .contains("as run other");
    assertThat(c.at("/eligibility/fields/aiperf_version").asString()).isEqualTo("unknown");
    assertThat(c.at("/eligibility/warnings/0").asString())
        .startsWith(
            "aiperf_version unknown: neither side's runs record it (a warning, not a match");
    assertThat(CommandHarness.run(compare(List.of(sameStart), List.of(other))).out())
        .contains("warning: aiperf_version unknown: neither side's runs record it");
  }

  /** Plans the static example in {@code exp} with {@code --repeat-decision decision}. */
  private static CommandHarness.Result planWithDecision(Path exp, Path decision) {
    return dev.benchplan.testing.PlanFixture.Examples.json(
        dev.benchplan.testing.PlanFixture.Examples.STATIC,
        RepeatDecisionPlanTest.QUESTION,
        exp,
        "--repeat-decision",
        decision.toString(),
        "--repeat-decision-sha256",
        dev.benchplan.json.Sha256.ofFile(decision));
  }

  /**
   * Compares {@code ref} with {@code cand} with --format json and a report in rep/; returns the
   * comparison, checked against its schema.
   */
  private JsonNode compareJson(List<Path> ref, List<Path> cand) {
    var r =
        CommandHarness.run(
            compare(ref, cand, "--format", "json", "--report-dir", tmp.resolve("rep").toString()));
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
    JsonNode c = Json.JSON.readTree(r.out());
    assertThat(SchemaValidator.bundled("comparison.schema.json").validate(c)).isEmpty();
    return c;
  }

  /** The row of {@code metric} at {@code loadPoint}. */
  private static JsonNode row(JsonNode c, String metric, String loadPoint) {
    for (JsonNode m : c.path("metrics")) {
      if (m.path("metric").asString().equals(metric)
          && m.path("load_point").asString().equals(loadPoint)) {
        return m;
      }
    }
    throw new AssertionError("no row " + metric + " at " + loadPoint + " in " + c);
  }

  private static JsonNode row(JsonNode c, String metric) {
    for (JsonNode m : c.path("metrics")) {
      if (m.path("metric").asString().equals(metric)) {
        return m;
      }
    }
    throw new AssertionError("no row " + metric + " in " + c);
  }
}
