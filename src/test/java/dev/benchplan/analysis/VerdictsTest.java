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
    var r =
        CommandHarness.run(
            compare(ref, cand, "--format", "json", "--report-dir", tmp.resolve("rep").toString()));
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
    JsonNode c = Json.JSON.readTree(r.out());
    assertThat(SchemaValidator.bundled("comparison.schema.json").validate(c)).isEmpty();
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
                + " time_to_first_token.p99); --fail-on inconclusive makes this exit 1");
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
                + " output_token_throughput.avg, concurrency=4 time_to_first_token.p99");
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

  private static JsonNode row(JsonNode c, String metric) {
    for (JsonNode m : c.path("metrics")) {
      if (m.path("metric").asString().equals(metric)) {
        return m;
      }
    }
    throw new AssertionError("no row " + metric + " in " + c);
  }
}
