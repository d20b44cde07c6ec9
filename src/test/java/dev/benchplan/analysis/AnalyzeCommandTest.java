package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.plan.PlanJson;
import dev.benchplan.plan.Question;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.RunRecords;
import dev.benchplan.testing.SharedData;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class AnalyzeCommandTest {
  @TempDir Path tmp;

  static JsonNode read(Path p) throws Exception {
    return Json.JSON.readTree(Files.readAllBytes(p));
  }

  static void assertSchemas(Path out) throws Exception {
    assertThat(
            SchemaValidator.bundled("performance-analysis.schema.json")
                .validate(read(out.resolve("performance_analysis.json"))))
        .isEmpty();
    assertThat(
            SchemaValidator.bundled("repeat-decision.schema.json")
                .validate(read(out.resolve("repeat_decision.json"))))
        .isEmpty();
    try (Stream<Path> s = Files.walk(out.resolve("runs"))) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String schema =
            p.getFileName().toString().equals("benchmark_audit.json")
                ? "benchmark-audit.schema.json"
                : "benchmark-summary.schema.json";
        assertThat(SchemaValidator.bundled(schema).validate(read(p))).as(p.toString()).isEmpty();
      }
    }
  }

  @Test
  @DisplayName(
      "real 3-point sweep: valid runs, schemas hold, every point on the frontier, SLO-feasible point named,"
          + " per-GPU throughput with its source, findings appended")
  void realSweep() throws Exception {
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path exp = tmp.resolve("exp");
    var r =
        CommandHarness.run(
                "analyze",
                sweep.toString(),
                "--exp-root",
                exp.toString(),
                "--report-dir",
                tmp.resolve("out").toString(),
                "--slo",
                "time_to_first_token.p99<=60",
                "--format",
                "json")
            .expectOk();
    JsonNode o = Json.JSON.readTree(r.out());
    assertThat(o.path("verdict").asString()).isEqualTo("slo_feasible");
    assertThat(o.path("runs")).hasSize(3);
    assertThat(o.path("runs").get(0).path("audit_status").asString()).isEqualTo("valid");
    assertThat(o.path("output_dir").asString()).isEqualTo(tmp.resolve("out").toString());
    Path out = tmp.resolve("out");
    assertSchemas(out);
    JsonNode a = read(out.resolve("performance_analysis.json"));
    JsonNode series = a.path("series").get(0);
    assertThat(series.path("pareto").path("highest_slo_feasible_point").asString())
        .isEqualTo("concurrency=2");
    for (JsonNode p : series.path("pareto").path("throughput_vs_ttft_p99")) {
      assertThat(p.path("on_frontier").asBoolean()).isTrue();
    }
    JsonNode summary =
        read(out.resolve("runs/sweep-qwen3-0.6b_concurrency1/benchmark_summary.json"));
    assertThat(summary.path("gpu_count").path("source").asString()).contains("telemetry");
    assertThat(summary.path("metrics").path("time_to_first_token").path("unit").asString())
        .isEqualTo("ms");
    JsonNode p99 =
        summary
            .path("recomputed_percentiles")
            .path("metrics")
            .path("time_to_first_token")
            .path("percentiles")
            .get(3);
    assertThat(p99.path("estimable").asBoolean()).isFalse(); // 10 trimmed records
    assertThat(p99.path("minimum_samples").asInt()).isEqualTo(1000);
    JsonNode audit = read(out.resolve("runs/sweep-qwen3-0.6b_concurrency1/benchmark_audit.json"));
    assertThat(audit.path("status").asString()).isEqualTo("valid");
    assertThat(audit.toString()).contains("not checked: no plan");
    assertThat(Files.readAllLines(exp.resolve("analysis/performance_findings.jsonl"))).hasSize(1);
    // self-contained: no script, no stylesheet link, no src/href to anything outside the file
    assertThat(Files.readString(out.resolve("report.html")))
        .doesNotContain("<script")
        .doesNotContain("<link")
        .doesNotContainPattern("(src|href)\\s*=\\s*\"(?!#|data:)")
        .contains("<svg");
    // one-byte text: what is not ASCII is written as a character reference
    byte[] html = Files.readAllBytes(out.resolve("report.html"));
    for (int i = 0; i < html.length; i++) {
      assertThat(html[i]).as("report.html byte %d", i).isNotNegative();
    }
    assertThat(new String(html, java.nio.charset.StandardCharsets.US_ASCII)).contains("&mdash;");
    assertThat(out.resolve("plots/pareto_ttft_p99.svg")).exists();
    assertThat(out.resolve("performance_analysis.md")).exists();
    // capacity: throughput x3.88 for x4 the load, TTFT p99 x1.42 then x1.45 against throughput
    // x2.01 then x1.93: no knee, so the sweep did not saturate
    JsonNode cap = series.path("capacity");
    assertThat(cap.path("load_parameter").asString()).isEqualTo("concurrency");
    assertThat(cap.path("saturated").asBoolean()).isFalse();
    assertThat(cap.path("knee").isNull()).isTrue();
    assertThat(cap.path("extend_to").asString()).isEqualTo("concurrency=16");
    assertThat(cap.path("steps")).hasSize(2);
    assertThat(cap.path("steps").get(0).path("from").asString()).isEqualTo("concurrency=1");
    assertThat(cap.path("steps").get(0).path("scaling_efficiency").asDouble())
        .isCloseTo(100.7 / 50.08 / 2, org.assertj.core.data.Offset.offset(0.01));
    assertThat(cap.path("steps").get(1).path("scaling_efficiency").asDouble())
        .isCloseTo(194.5 / 100.7 / 2, org.assertj.core.data.Offset.offset(0.01));
    for (JsonNode step : cap.path("steps")) {
      assertThat(step.path("latency_outpaces_throughput").asBoolean()).isFalse();
    }
    JsonNode best = cap.path("highest_slo_feasible");
    assertThat(best.path("load_point").asString()).isEqualTo("concurrency=2");
    assertThat(best.path("next_point").asString()).isEqualTo("concurrency=4");
    assertThat(best.path("throughput").path("runs").asInt()).isEqualTo(1);
    assertThat(best.path("throughput").path("ci_low").isNull()).isTrue();
    assertThat(best.path("slos").get(0).path("status").asString()).isEqualTo("met_single_run");
    String statement = cap.path("statement").asString();
    assertThat(statement).contains("the sweep did not saturate: extend to concurrency=16");
    assertThat(o.path("series").get(0).path("capacity").asString()).isEqualTo(statement);
    assertThat(Files.readString(out.resolve("summary.md"))).contains(statement);
    assertThat(Files.readString(out.resolve("performance_analysis.md")))
        .contains("### Capacity")
        .contains("| concurrency=2 -> concurrency=4 |");
    assertThat(Files.readString(out.resolve("report.html"))).contains("<h3>Capacity</h3>");
  }

  @Test
  @DisplayName(
      "same inputs: byte-identical summary, audit and analysis; the findings log only grows")
  void deterministic() throws Exception {
    Path run = new GeneratedRun().requests(1500).write(tmp.resolve("run"));
    Path exp = tmp.resolve("exp");
    analyze(run, exp, tmp.resolve("a"));
    byte[] firstLine = Files.readAllBytes(exp.resolve("analysis/performance_findings.jsonl"));
    analyze(run, tmp.resolve("exp2"), tmp.resolve("b"));
    for (String f :
        List.of(
            "runs/run/benchmark_summary.json",
            "runs/run/benchmark_audit.json",
            "report.html",
            "plots/ttft_cdf.svg")) {
      assertThat(Files.readAllBytes(tmp.resolve("b").resolve(f)))
          .as(f)
          .isEqualTo(Files.readAllBytes(tmp.resolve("a").resolve(f)));
    }
    JsonNode s = read(tmp.resolve("a/runs/run/benchmark_summary.json"));
    JsonNode p99 =
        s.path("recomputed_percentiles")
            .path("metrics")
            .path("time_to_first_token")
            .path("percentiles")
            .get(3);
    assertThat(p99.path("estimable").asBoolean()).isTrue();
    assertThat(p99.path("ci_low").asDouble()).isLessThanOrEqualTo(p99.path("value").asDouble());
    assertThat(p99.path("ci_high").asDouble()).isGreaterThanOrEqualTo(p99.path("value").asDouble());
    assertThat(s.path("recomputed_percentiles").path("method").path("resamples").asInt())
        .isEqualTo(2000);
    assertThat(s.path("inputs").get(1).path("role").asString()).isEqualTo("records");
    assertThat(s.path("inputs").get(1).path("sha256").asString())
        .isEqualTo(Sha256.ofFile(run.resolve("profile_export.jsonl")));
    analyze(run, exp, tmp.resolve("c"));
    byte[] after = Files.readAllBytes(exp.resolve("analysis/performance_findings.jsonl"));
    assertThat(new String(after, StandardCharsets.UTF_8))
        .startsWith(new String(firstLine, StandardCharsets.UTF_8));
    assertThat(new String(after, StandardCharsets.UTF_8).lines()).hasSize(2);
  }

  @Test
  @DisplayName(
      "invalid runs (NaN, duplicate ids, cancelled) are invalid, reported, and kept out of the analysis")
  void invalidRuns() throws Exception {
    Path good = new GeneratedRun().write(tmp.resolve("good"));
    GeneratedRun nan = new GeneratedRun().seed(2);
    nan.nanInSummary = true;
    GeneratedRun dup = new GeneratedRun().seed(3);
    dup.duplicateIds = true;
    GeneratedRun cancelled = new GeneratedRun().seed(4);
    cancelled.cancelled = true;
    var r =
        CommandHarness.run(
                "analyze",
                good.toString(),
                nan.write(tmp.resolve("nan")).toString(),
                dup.write(tmp.resolve("dup")).toString(),
                cancelled.write(tmp.resolve("cancelled")).toString(),
                // four plain folders of one build: named as one candidate
                "--label",
                "build=" + tmp,
                "--exp-root",
                tmp.resolve("exp").toString(),
                "--report-dir",
                tmp.resolve("out").toString())
            .expectOk();
    assertThat(r.out())
        .contains("blocker: nan_inf")
        .contains(
            "blocker: duplicate_request_ids: 1 duplicate request ids,"
                + " first line 6: x_request_id req-4")
        .contains("blocker: run_cancelled");
    JsonNode series = read(tmp.resolve("out/performance_analysis.json")).path("series").get(0);
    assertThat(series.path("runs")).hasSize(1);
    assertThat(series.path("invalid_runs")).hasSize(3);
    assertThat(read(tmp.resolve("out/runs/nan/benchmark_audit.json")).path("status").asString())
        .isEqualTo("invalid");
    assertThat(
            read(tmp.resolve("out/runs/dup/benchmark_audit.json")).path("next_action").asString())
        .isEqualTo("rerun_benchmark");
    assertSchemas(tmp.resolve("out"));
  }

  @Test
  @DisplayName(
      "a malformed record line makes the run invalid, naming the line; the file is not changed")
  void malformedLine() throws Exception {
    Path run = new GeneratedRun().write(tmp.resolve("bad"));
    Path records = run.resolve("profile_export.jsonl");
    List<String> lines = new java.util.ArrayList<>(Files.readAllLines(records));
    lines.set(6, lines.get(6).substring(0, 40));
    Files.write(records, lines);
    String sha = Sha256.ofFile(records);
    var r = analyze(run, tmp.resolve("exp"), tmp.resolve("out"));
    assertThat(r.out())
        .contains(
            "blocker: malformed_records: 1 malformed lines in profile_export.jsonl, first line 7: not valid JSON");
    assertThat(Sha256.ofFile(records)).isEqualTo(sha);
    JsonNode audit = read(tmp.resolve("out/runs/bad/benchmark_audit.json"));
    assertThat(audit.path("status").asString()).isEqualTo("invalid");
    assertThat(audit.path("requests").path("records").path("attempted").asInt()).isEqualTo(199);
  }

  @Test
  @DisplayName("a missing summary with complete records is rebuilt: valid_with_recovery")
  void recovery() throws Exception {
    GeneratedRun g = new GeneratedRun();
    g.summary = false;
    Path run = g.write(tmp.resolve("rec"));
    analyze(run, tmp.resolve("exp"), tmp.resolve("out"));
    JsonNode audit = read(tmp.resolve("out/runs/rec/benchmark_audit.json"));
    assertThat(audit.path("status").asString()).isEqualTo("valid_with_recovery");
    assertThat(audit.path("recoveries").get(0).asString())
        .startsWith("benchmark summary rebuilt from 200 complete");
    assertThat(
            read(tmp.resolve("out/runs/rec/benchmark_summary.json"))
                .path("summary_source")
                .asString())
        .isEqualTo("rebuilt_from_records");
    assertThat(Files.list(run).map(p -> p.getFileName().toString()).toList())
        .containsExactly("profile_export.jsonl");
  }

  @Test
  @DisplayName("a dominated grid point is off the frontier")
  void dominated() throws Exception {
    Path a = sweepPoint(8, 4000, 80);
    Path b = sweepPoint(16, 6000, 120);
    Path c = sweepPoint(32, 5500, 300);
    CommandHarness.run(
            "analyze",
            tmp.resolve("sweep").toString(),
            "--gpus",
            "2",
            "--exp-root",
            tmp.resolve("exp").toString(),
            "--report-dir",
            tmp.resolve("out").toString())
        .expectOk();
    JsonNode pareto =
        read(tmp.resolve("out/performance_analysis.json")).path("series").get(0).path("pareto");
    assertThat(pareto.path("throughput_metric").asString())
        .isEqualTo("output_token_throughput_per_gpu");
    JsonNode pts = pareto.path("throughput_vs_ttft_p99");
    assertThat(pts.get(0).path("on_frontier").asBoolean()).isTrue();
    assertThat(pts.get(1).path("on_frontier").asBoolean()).isTrue();
    assertThat(pts.get(2).path("load_point").asString()).isEqualTo("concurrency=32");
    assertThat(pts.get(2).path("on_frontier").asBoolean()).isFalse();
    assertThat(pts.get(1).path("x").asDouble()).isEqualTo(3000.0);
    assertThat(List.of(a, b, c)).allMatch(Files::isDirectory);
    // 16 -> 32: throughput x0.92, TTFT p99 x2.5: the knee is at 16
    JsonNode cap = read(tmp.resolve("out/performance_analysis.json")).path("series").get(0);
    cap = cap.path("capacity");
    assertThat(cap.path("knee").asString()).isEqualTo("concurrency=16");
    assertThat(cap.path("saturated").asBoolean()).isTrue();
    assertThat(cap.path("extend_to").isNull()).isTrue();
    assertThat(cap.path("highest_slo_feasible").isNull()).isTrue();
    assertThat(cap.path("statement").asString()).contains("knee at concurrency=16");
  }

  @Test
  @DisplayName(
      "series flow: a small delta without a noise floor needs the pilot; after the pilot it is noise")
  void pilotFlow() throws Exception {
    Path exp = tmp.resolve("exp");
    Path first = new GeneratedRun().throughput(5000).seed(1).write(tmp.resolve("first"));
    analyze(first, exp, tmp.resolve("o1"));
    Path second = new GeneratedRun().throughput(4900).seed(2).write(tmp.resolve("second"));
    analyze(second, exp, tmp.resolve("o2"));
    JsonNode rd = read(tmp.resolve("o2/repeat_decision.json"));
    assertThat(rd.path("decision").asString()).isEqualTo("necessary");
    assertThat(rd.path("rationale").asString()).startsWith("series noise-floor pilot (n=3 total)");
    assertThat(rd.path("pilot").path("repetitions").asInt()).isEqualTo(3);
    assertThat(rd.path("source").path("analysis_sha256").asString())
        .isEqualTo(Sha256.ofFile(tmp.resolve("o2/performance_analysis.json")));
    assertThat(read(tmp.resolve("o2/performance_analysis.json")).path("verdict").asString())
        .isEqualTo("inconclusive");
    Path[] pilot = new Path[3];
    double[] tp = {4950, 5050, 5000};
    for (int i = 0; i < 3; i++) {
      pilot[i] =
          new GeneratedRun().throughput(tp[i]).seed(10 + i).write(tmp.resolve("pilot/run_000" + i));
    }
    analyze(tmp.resolve("pilot"), exp, tmp.resolve("o3"));
    JsonNode floor =
        read(tmp.resolve("o3/performance_analysis.json")).path("series").get(0).path("noise_floor");
    assertThat(floor.path("source").asString()).startsWith("this analysis: 3 runs");
    JsonNode cv = floor.path("metrics").path("output_token_throughput.avg");
    assertThat(cv.path("cv").asDouble())
        .isCloseTo(0.01, org.assertj.core.data.Offset.offset(0.0001));
    assertThat(cv.path("cv_ci_high").asDouble() / cv.path("cv").asDouble())
        .isCloseTo(6.29, org.assertj.core.data.Offset.offset(0.05));
    Path fourth = new GeneratedRun().throughput(4980).seed(20).write(tmp.resolve("fourth"));
    // a floor in the experiment root is not used unless named (issue 31)
    analyze(fourth, exp, tmp.resolve("o4"));
    JsonNode s4 = read(tmp.resolve("o4/performance_analysis.json")).path("series").get(0);
    assertThat(s4.path("noise_floor").path("source").isNull()).isTrue();
    assertThat(s4.path("repeat_decision").path("decision").asString()).isEqualTo("necessary");
    String pilotId =
        read(tmp.resolve("o3/performance_analysis.json")).path("analysis_id").asString();
    CommandHarness.run(
            "analyze",
            fourth.toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            tmp.resolve("o5").toString(),
            "--noise-floor",
            pilotId)
        .expectOk();
    JsonNode s5 = read(tmp.resolve("o5/performance_analysis.json")).path("series").get(0);
    assertThat(s5.path("noise_floor").path("source").asString())
        .startsWith("named by --noise-floor " + pilotId + ": analysis " + pilotId);
    assertThat(s5.path("repeat_decision").path("decision").asString()).isEqualTo("not_justified");
    assertThat(s5.path("history").path("history")).hasSize(4);
  }

  @Test
  @DisplayName(
      "bad input is exit 2 with one line and nothing written: missing RUN, bad --slo, bad findings line")
  void badInput() throws Exception {
    Path run = new GeneratedRun().write(tmp.resolve("run"));
    var r =
        CommandHarness.run(
                "analyze",
                tmp.resolve("none").toString(),
                "--exp-root",
                tmp.resolve("exp").toString())
            .expectExit(2);
    assertThat(r.err().lines().count()).isEqualTo(1);
    CommandHarness.run(
            "analyze",
            run.toString(),
            "--slo",
            "ttft<500",
            "--exp-root",
            tmp.resolve("exp").toString())
        .expectError(
            2,
            "--slo ttft<500: expected METRIC.STAT<=VALUE or METRIC.STAT>=VALUE,"
                + " e.g. time_to_first_token.p99<=500");
    Path exp = tmp.resolve("exp2");
    Files.createDirectories(exp.resolve("analysis"));
    Files.writeString(
        exp.resolve("analysis/performance_findings.jsonl"), "{\"series_id\": \"x\"}\nnot json\n");
    CommandHarness.run("analyze", run.toString(), "--exp-root", exp.toString())
        .expectError(
            2,
            exp.resolve("analysis/performance_findings.jsonl")
                + ": line 2: not valid JSON: unrecognized token 'not'; expected a JSON value"
                + " (object, array, string, number, true, false or null)");
    assertThat(tmp.resolve("exp")).doesNotExist();
    assertThat(Files.list(exp.resolve("analysis")).count()).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "a file where --exp-root or --report-dir needs a folder: exit 2, one line, nothing written,"
          + " for analyze and compare, in both formats")
  void fileWhereAFolderBelongs() throws Exception {
    Path run = new GeneratedRun().write(tmp.resolve("run"));
    Path file = Files.writeString(tmp.resolve("afile"), "x");
    Path exp = tmp.resolve("exp");
    for (String option : new String[] {"--exp-root", "--report-dir"}) {
      for (String[] command :
          new String[][] {
            {"analyze", run.toString()},
            {"compare", "--reference", run.toString(), "--candidate", run.toString()}
          }) {
        var args = new java.util.ArrayList<>(List.of(command));
        args.addAll(List.of(option, file.toString()));
        if (option.equals("--report-dir")) {
          args.addAll(List.of("--exp-root", exp.toString()));
        }
        var text =
            CommandHarness.run(args.toArray(String[]::new))
                .expectError(
                    2,
                    "Invalid value for option '"
                        + option
                        + "': '"
                        + file
                        + "': not a directory (a file is there); expected a directory");
        assertThat(text.err().lines().count()).as(args.toString()).isEqualTo(1);
        args.addAll(List.of("--format", "json"));
        var json = CommandHarness.run(args.toArray(String[]::new)).expectExit(2);
        assertThat(Json.JSON.readTree(json.out()).path("error").path("exit_code").asInt())
            .as(args.toString())
            .isEqualTo(2);
      }
    }
    assertThat(Files.readString(file)).isEqualTo("x");
    assertThat(exp).doesNotExist();
    assertThat(run.resolve("benchmark_audit.json")).doesNotExist();
  }

  @Test
  @DisplayName(
      "a benchplan run directory: plan verified by SHA-256, artifacts checked; a changed file is invalid")
  void runDirectory() throws Exception {
    // the committed example plan, as a series of its own with one SLO, written as plan writes it
    BenchmarkPlan example;
    try (Stream<Path> s = Files.list(Path.of("experiments/inputs/benchmark-plans"))) {
      Path p = s.sorted().findFirst().orElseThrow();
      example = PlanFile.parse(Files.readAllBytes(p), p.toString());
    }
    Question q = example.question();
    BenchmarkPlan.Objectives o = example.objectives();
    Path plan = tmp.resolve("plan.json");
    Files.write(
        plan,
        PlanJson.canonical(
            example.toBuilder()
                .seriesId("s-1")
                .question(new Question("is it faster?", q.intent(), null, q.references()))
                .objectives(
                    new BenchmarkPlan.Objectives(
                        o.gates(),
                        o.goodput(),
                        o.pareto(),
                        List.of(
                            new BenchmarkPlan.SloRecord(
                                "time_to_first_token",
                                "p99",
                                "<=",
                                new BigDecimal("500"),
                                "ms",
                                "/slos/0")),
                        o.direction()))
                .build()));
    Path dir = GeneratedRun.forPlan(plan).write(tmp.resolve("runs/r1"));
    String sum = Sha256.ofFile(dir.resolve("profile_export_aiperf.json"));
    RunRecords.of("s-1", plan.toString(), Sha256.ofFile(plan))
        .file("profile_export_aiperf.json", sum)
        .write(dir);
    analyze(dir, tmp.resolve("exp"), tmp.resolve("out"));
    JsonNode audit = read(tmp.resolve("out/runs/r1/benchmark_audit.json"));
    assertThat(audit.path("status").asString()).isEqualTo("valid");
    assertThat(audit.path("question").asString()).isEqualTo("is it faster?");
    assertThat(audit.toString()).contains("1 files match their recorded SHA-256");
    JsonNode a = read(tmp.resolve("out/performance_analysis.json"));
    assertThat(a.path("series").get(0).path("series_id").asString()).isEqualTo("s-1");
    assertThat(a.path("verdict").asString()).isEqualTo("slo_feasible");
    assertThat(
            read(tmp.resolve("out/runs/r1/benchmark_summary.json"))
                .path("gpu_count")
                .path("source")
                .asString())
        .isEqualTo("plan /deployment/gpu_total");
    // issue 33: the audit reads artifacts.sha256 with verify's strict reader: a malformed line and
    // a
    // file added after collection fail it, as they fail verify
    StringBuilder sums = new StringBuilder();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.filter(Files::isRegularFile).sorted().toList()) {
        String rel = dir.relativize(f).toString();
        if (!rel.equals("run.json") && !rel.equals("profile_export_aiperf.json")) {
          sums.append(Sha256.ofFile(f)).append("  ").append(rel).append('\n');
        }
      }
    }
    Files.writeString(dir.resolve("artifacts.sha256"), sums);
    analyze(dir, tmp.resolve("exp"), tmp.resolve("out-sums"));
    assertThat(read(tmp.resolve("out-sums/runs/r1/benchmark_audit.json")).path("status").asString())
        .isEqualTo("valid");
    Files.writeString(dir.resolve("artifacts.sha256"), sums + "not a sha256sum line\n");
    Files.writeString(dir.resolve("added.txt"), "added after collection");
    analyze(dir, tmp.resolve("exp"), tmp.resolve("out-bad-sums"));
    JsonNode badSums = read(tmp.resolve("out-bad-sums/runs/r1/benchmark_audit.json"));
    assertThat(badSums.path("status").asString()).isEqualTo("invalid");
    assertThat(badSums.path("blockers").toString())
        .contains("artifacts.sha256 line ")
        .contains("expected 'SHA256  PATH' (sha256sum format)")
        .contains("added.txt is present but not listed in artifacts.sha256 or run.json");
    Files.delete(dir.resolve("artifacts.sha256"));
    Files.delete(dir.resolve("added.txt"));
    Files.writeString(
        dir.resolve("profile_export_aiperf.json"),
        Files.readString(dir.resolve("profile_export_aiperf.json"))
            .replace("\"avg\" : 5000.0", "\"avg\" : 9000.0"));
    analyze(dir, tmp.resolve("exp"), tmp.resolve("out2"));
    JsonNode audit2 = read(tmp.resolve("out2/runs/r1/benchmark_audit.json"));
    assertThat(audit2.path("status").asString()).isEqualTo("invalid");
    assertThat(audit2.path("blockers").get(0).asString())
        .startsWith("manifest: profile_export_aiperf.json hashes to");
  }

  @Test
  @DisplayName(
      "a run whose plan hashes as recorded but is not a plan (the plan schema) is invalid, the"
          + " audit naming the plan, the schema and the pointer")
  void runDirectoryWithoutAPlan() throws Exception {
    Path plan = tmp.resolve("plan.json");
    Files.writeString(
        plan, "{\"series_id\": \"s-1\", \"question\": {\"text\": \"is it faster?\"}}");
    Path dir = new GeneratedRun().write(tmp.resolve("runs/r1"));
    RunRecords.of("s-1", plan.toString(), Sha256.ofFile(plan)).write(dir);
    analyze(dir, tmp.resolve("exp"), tmp.resolve("out"));
    JsonNode audit = read(tmp.resolve("out/runs/r1/benchmark_audit.json"));
    assertThat(audit.path("status").asString()).isEqualTo("invalid");
    assertThat(audit.path("blockers").toString())
        .contains("plan: the plan " + plan + ": does not match schema benchmark-plan.schema.json");
    assertThat(audit.path("question").isNull() || audit.path("question").isMissingNode()).isTrue();
  }

  /** {@code analyze INPUT --exp-root EXP --report-dir OUT}, expected to succeed. */
  private static CommandHarness.Result analyze(Path input, Path exp, Path out) {
    return CommandHarness.run(
            "analyze",
            input.toString(),
            "--exp-root",
            exp.toString(),
            "--report-dir",
            out.toString())
        .expectOk();
  }

  /** A generated run at {@code concurrency} written to {@code sweep/concurrencyN}. */
  private Path sweepPoint(int concurrency, int throughput, int ttft) throws java.io.IOException {
    return new GeneratedRun()
        .concurrency(concurrency)
        .throughput(throughput)
        .ttft(ttft)
        .write(tmp.resolve("sweep/concurrency" + concurrency));
  }
}
