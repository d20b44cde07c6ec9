package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.analysis.audit.AuditCheck;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 13: analyze reads AIPerf's own aggregate files and cross-checks them against the runs'
 * summaries (audit check aiperf_aggregate). The real sweep's three runs are laid out (in a temp
 * dir) in AIPerf's single-trial sweep layout with sweep_aggregate/, and as a three-run multi-run
 * with aggregate/; the aggregate figures are the runs' own values, so the check passes, and a
 * figure moved by 1% or a wrong run count is a finding on the runs it covers. The real sweep as
 * shipped has no aggregate: not checked.
 */
class AggregateCrossCheckTest {
  static final List<String> KEYS =
      List.of(
          "output_token_throughput_avg",
          "request_throughput_avg",
          "time_to_first_token_p99",
          "inter_token_latency_avg");
  @TempDir Path tmp;

  static AuditCheck check(RunEvidence r) {
    return r.audit().checks().stream()
        .filter(c -> c.id().equals("aiperf_aggregate"))
        .findFirst()
        .orElseThrow();
  }

  static double value(Path run, String key) throws Exception {
    JsonNode s = Json.JSON.readTree(Files.readAllBytes(run.resolve("profile_export_aiperf.json")));
    int cut = key.lastIndexOf('_');
    return s.path(key.substring(0, cut)).path(key.substring(cut + 1)).asDouble();
  }

  static void copy(Path from, Path to) throws Exception {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path f : s.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  static ObjectNode stats(List<Path> runs, String key, double scale) throws Exception {
    double mean = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (Path r : runs) {
      double v = value(r, key);
      mean += v / runs.size();
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    ObjectNode o = Json.JSON.createObjectNode();
    o.put("mean", mean * scale).put("min", min).put("max", max).put("unit", "x");
    return o;
  }

  @Test
  @DisplayName(
      "real sweep in the single-trial sweep layout: sweep_aggregate agrees (pass); a figure moved by 1% is a"
          + " warn on that point only; as shipped (no aggregate) not_checked")
  void sweepAggregate() throws Exception {
    Path real = SharedData.require("aiperf/sweep-qwen3-0.6b");
    for (RunEvidence r : AnalyzeService.load(List.of(real), null)) {
      assertThat(check(r).status()).isEqualTo("not_checked");
    }
    Path base = tmp.resolve("Qwen3-0.6B-openai-chat");
    for (int c : new int[] {1, 2, 4}) {
      copy(real.resolve("concurrency" + c), base.resolve("concurrency_" + c));
    }
    for (double drift : new double[] {1.0, 1.01}) {
      ObjectNode sweep = Json.JSON.createObjectNode();
      sweep
          .put("aggregation_type", "sweep")
          .put("num_profile_runs", 3)
          .put("num_successful_runs", 3);
      var combos = sweep.putArray("per_combination_metrics");
      for (int c : new int[] {1, 2, 4}) {
        ObjectNode combo = combos.addObject();
        combo.putObject("parameters").put("concurrency", c);
        ObjectNode m = combo.putObject("metrics");
        for (String k : KEYS) {
          m.set(
              k,
              stats(
                  List.of(base.resolve("concurrency_" + c)),
                  k,
                  c == 2 && k.equals("output_token_throughput_avg") ? drift : 1.0));
        }
      }
      Files.createDirectories(base.resolve("sweep_aggregate"));
      Files.writeString(
          base.resolve("sweep_aggregate/profile_export_aiperf_sweep.json"),
          Json.JSON.writeValueAsString(sweep));
      List<RunEvidence> runs = AnalyzeService.load(List.of(base), null);
      assertThat(runs).hasSize(3);
      for (RunEvidence r : runs) {
        AuditCheck c = check(r);
        boolean moved = drift != 1.0 && r.loadPoint().equals("concurrency=2");
        assertThat(c.status())
            .as(r.loadPoint() + ": " + c.detail())
            .isEqualTo(moved ? "warn" : "pass");
        assertThat(c.detail())
            .contains("sweep_aggregate/profile_export_aiperf_sweep.json concurrency=");
        if (moved) {
          assertThat(c.detail()).contains("output_token_throughput_avg mean");
        }
        assertThat(r.audit().status())
            .isEqualTo("valid"); // a derived file's disagreement is a finding, not a blocker
      }
    }
  }

  @Test
  @DisplayName(
      "three real runs as one multi-run (profile_runs/run_NNNN + aggregate/): the confidence aggregate agrees;"
          + " a wrong num_successful_runs is a finding")
  void confidenceAggregate() throws Exception {
    Path real = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path base = tmp.resolve("multi");
    List<Path> runs =
        List.of(
            base.resolve("profile_runs/run_0001"),
            base.resolve("profile_runs/run_0002"),
            base.resolve("profile_runs/run_0003"));
    copy(real.resolve("concurrency1"), runs.get(0));
    copy(real.resolve("concurrency2"), runs.get(1));
    copy(real.resolve("concurrency4"), runs.get(2));
    for (int declared : new int[] {3, 4}) {
      ObjectNode agg = Json.JSON.createObjectNode();
      agg.putObject("metadata")
          .put("aggregation_type", "confidence")
          .put("num_profile_runs", declared)
          .put("num_successful_runs", declared)
          .put("confidence_level", 0.95);
      ObjectNode m = agg.putObject("metrics");
      for (String k : KEYS) {
        m.set(k, stats(runs, k, 1.0));
      }
      Files.createDirectories(base.resolve("aggregate"));
      Files.writeString(
          base.resolve("aggregate/profile_export_aiperf_aggregate.json"),
          Json.JSON.writeValueAsString(agg));
      for (RunEvidence r : AnalyzeService.load(List.of(base), null)) {
        AuditCheck c = check(r);
        assertThat(c.status()).as(c.detail()).isEqualTo(declared == 3 ? "pass" : "warn");
        if (declared == 4) {
          assertThat(c.detail()).contains("num_successful_runs 4, 3 runs found");
        }
      }
    }
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}: {1}")
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "aggregate/profile_export_aiperf_aggregate.json|{\"metrics\": {\"x_avg\": {\"mean\": 1|unexpected"
            + " end of input; an object is not closed with '}'",
        "aggregate/profile_export_aiperf_aggregate.json|not json at all|unrecognized token 'not'",
        "aggregate/profile_export_aiperf_aggregate.json|[1, 2]|an array at the top level; expected"
            + " AIPerf's multi-run aggregate",
        "aggregate/profile_export_aiperf_aggregate.json|{\"metrics\": []}|no metrics object; expected"
            + " AIPerf's multi-run aggregate",
        "aggregate/profile_export_aiperf_aggregate.json||empty file; expected AIPerf's multi-run"
            + " aggregate",
        "sweep_aggregate/profile_export_aiperf_sweep.json|{\"per_combination_metrics\": [|unexpected"
            + " end of input; an array is not closed with ']'",
        "sweep_aggregate/profile_export_aiperf_sweep.json|{\"per_value_metrics\": 3}|neither"
            + " per_combination_metrics[] nor per_value_metrics{}; expected AIPerf's sweep aggregate",
      })
  @DisplayName(
      "an aggregate file that is truncated, not JSON, empty or the wrong shape: a warn on every run it"
          + " would cover, naming the file and what was expected (line and column for a parse error);"
          + " the file is left as it is; analyze's documents verify (verify's recompute agrees)")
  void unusableAggregate(String file, String content, String expected) throws Exception {
    Path real = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path base = tmp.resolve("multi");
    for (int i = 1; i <= 3; i++) {
      copy(real.resolve("concurrency" + (1 << (i - 1))), base.resolve("profile_runs/run_000" + i));
    }
    if (file.startsWith("sweep")) {
      // a sweep aggregate covers the points of a sweep layout
      Path sweepBase = tmp.resolve("sweep");
      for (int c : new int[] {1, 2, 4}) {
        copy(real.resolve("concurrency" + c), sweepBase.resolve("concurrency_" + c));
      }
      base = sweepBase;
    }
    Path agg = base.resolve(file);
    Files.createDirectories(agg.getParent());
    byte[] bytes =
        (content == null ? "" : content).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Files.write(agg, bytes);
    List<RunEvidence> runs = AnalyzeService.load(List.of(base), null);
    assertThat(runs).hasSize(3);
    for (RunEvidence r : runs) {
      AuditCheck c = check(r);
      assertThat(c.status()).as(c.detail()).isEqualTo("warn");
      assertThat(c.detail())
          .startsWith("AIPerf's aggregate file cannot be read: " + file + ": ")
          .contains(expected)
          .matches(
              d ->
                  !expected.startsWith("un")
                      || d.matches("(?s).*: not valid JSON at line 1, column \\d+: un.*"),
              "a parse error names its line and column")
          .contains("the per-run exports stay the evidence")
          .doesNotContain(tmp.toString());
      assertThat(r.audit().status()).isEqualTo("valid"); // a derived file: a finding, not a blocker
    }
    assertThat(Files.readAllBytes(agg)).as("the raw file is left as it is").isEqualTo(bytes);

    Path report = tmp.resolve("report");
    var analyzed =
        dev.benchplan.testing.CommandHarness.run(
            "analyze",
            base.toString(),
            "--exp-root",
            tmp.resolve("exp").toString(),
            "--report-dir",
            report.toString(),
            "--format",
            "json");
    assertThat(analyzed.exitCode()).as(analyzed.err()).isIn(0, 1);
    String audits;
    try (Stream<Path> s = Files.walk(report)) {
      audits =
          s.filter(p -> p.getFileName().toString().equals("benchmark_audit.json"))
              .map(
                  p -> {
                    try {
                      return Files.readString(p);
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .reduce("", String::concat);
    }
    assertThat(audits).contains("AIPerf's aggregate file cannot be read: " + file);
    var verified =
        dev.benchplan.testing.CommandHarness.run("verify", report.toString(), "--format", "json");
    assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    assertThat(Files.readAllBytes(agg)).isEqualTo(bytes);
  }
}
