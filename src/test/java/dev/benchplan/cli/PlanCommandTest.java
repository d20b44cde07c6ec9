package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code benchplan plan} end to end on the committed examples, written to a temporary EXP_ROOT. */
class PlanCommandTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  @TempDir Path exp;

  private String[] args(String workload, String... more) {
    String[] base = {
      "plan",
      "--workload",
      EXAMPLES.resolve(workload).toString(),
      "--ledger",
      EXAMPLES.resolve("deployment-ledger.yaml").toString(),
      "--question",
      "What throughput does vllm-agg sustain within the support SLOs?",
      "--exp-root",
      exp.toString()
    };
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  @Test
  @DisplayName("the README's first command: a static example plan, text output")
  void staticExample() {
    var r =
        CommandHarness.run(args("workload-static.yaml", "--aiperf-version", "0.13.0")).expectOk();
    assertThat(r.out())
        .contains("plan written: " + exp.toAbsolutePath())
        .contains("workload source: user_static")
        .contains("aiperf version:  0.13.0")
        .containsPattern("sha256: +[0-9a-f]{64}")
        // the user's objectives are gated exactly: tolerance 0, effective = threshold
        .contains(
            "gate inference-ttft-p99: time_to_first_token p99 <= 500 ms, tolerance 0 (effective"
                + " 500)")
        .contains(
            "gate inference-throughput: output_token_throughput avg >= 1500 tokens/sec,"
                + " tolerance 0 (effective 1500)");
  }

  @Test
  @DisplayName("--format json prints one document with the plan's path, SHA-256 and IDs")
  void json() throws Exception {
    var r =
        CommandHarness.run(
                args("workload-proxy.yaml", "--aiperf-version", "0.13.0", "--format", "json"))
            .expectOk();
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(out.propertyNames())
        .contains(
            "plan_path",
            "sha256",
            "series_id",
            "plan_id",
            "workload_source",
            "aiperf_version",
            "warnings");
    Path plan = Path.of(out.get("plan_path").asString());
    assertThat(Sha256.ofFile(plan)).isEqualTo(out.get("sha256").asString());
    assertThat(out.get("workload_source").asString()).isEqualTo("recipe_proxy");
    assertThat(out.get("warnings").toString()).contains("exploration, not validation");
    assertThat(
            SchemaValidator.bundled("benchmark-plan.schema.json")
                .validate(Json.JSON.readTree(Files.readAllBytes(plan))))
        .isEmpty();
  }

  @Test
  @DisplayName(
      "blockers: exit 2, {\"blockers\": [...]} on stdout, one line each on stderr, nothing written")
  void blockersJson() throws Exception {
    var r =
        CommandHarness.run(
                args(
                    "workload-static.yaml",
                    "--repetitions",
                    "2",
                    "--aiperf-version",
                    "latest",
                    "--format",
                    "json"))
            .expectError(
                2,
                "blocker REPEAT_WITHOUT_RATIONALE: --repetitions 2 without --repeat-rationale: one"
                    + " measured run is the default; more runs need a recorded reason why another"
                    + " run is necessary for a consequential decision and worth its GPU cost (not"
                    + " merely to get confidence intervals)"
                    + " (rule: benchmarking/comparison-uncertainty.md)",
                "blocker AIPERF_VERSION_INVALID: --aiperf-version 'latest': expected a release"
                    + " version X.Y.Z (optionally .postN, aN, bN or rcN)"
                    + " (rule: benchmarking/tool-version.md)",
                "2 blocker(s); nothing written");
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(out.get("blockers").size()).isEqualTo(2);
    assertThat(out.at("/blockers/0/code").asString()).isEqualTo("REPEAT_WITHOUT_RATIONALE");
    assertThat(out.at("/blockers/0/rule").asString())
        .isEqualTo("benchmarking/comparison-uncertainty.md");
    assertThat(out.at("/blockers/1/code").asString()).isEqualTo("AIPERF_VERSION_INVALID");
    assertThat(exp.resolve("inputs")).doesNotExist();
  }

  @Test
  @DisplayName("a second identical plan is SERIES_EXISTS; reuse with path + SHA-256 writes nothing")
  void existsAndReuse() throws Exception {
    var first =
        Json.JSON.readTree(
            CommandHarness.run(
                    args("workload-static.yaml", "--aiperf-version", "0.13.0", "--format", "json"))
                .expectOk()
                .out());
    String planPath = first.get("plan_path").asString();
    String seriesId = first.get("series_id").asString();
    CommandHarness.run(args("workload-static.yaml", "--aiperf-version", "0.13.0"))
        .expectError(
            2,
            "blocker SERIES_EXISTS: series "
                + seriesId
                + " ("
                + planPath
                + ") already asks this question: its frozen fields hash to the same series"
                + " identity f3a6577e0f125856ea4e174b06916c510fab1d98d1c8ffa65f8391830de40c70;"
                + " continue it with: benchplan plan --workload "
                + EXAMPLES.resolve("workload-static.yaml")
                + " --ledger "
                + EXAMPLES.resolve("deployment-ledger.yaml")
                + " --question 'What throughput does vllm-agg sustain within the support SLOs?'"
                + " --exp-root "
                + exp
                + " --reuse-plan "
                + planPath
                + " --reuse-sha256 "
                + first.get("sha256").asString()
                + " — or start a new series on purpose with --series-id NEW-ID"
                + " (rule: execution/benchmark-plan.md)",
            "1 blocker(s); nothing written");
    var reuse =
        CommandHarness.run(
                args(
                    "workload-static.yaml",
                    "--reuse-plan",
                    first.get("plan_path").asString(),
                    "--reuse-sha256",
                    first.get("sha256").asString()))
            .expectOk();
    assertThat(reuse.out())
        .contains("reused series plan: " + first.get("plan_path").asString())
        .contains(first.get("sha256").asString());
    CommandHarness.run(args("workload-static.yaml", "--reuse-plan", "x.json"))
        .expectError(
            2,
            "--reuse-plan and --reuse-sha256 go together: reuse needs the plan's exact path and"
                + " SHA-256");
  }

  @Test
  @DisplayName("bad option values are exit 2 with a one-line hint")
  void badOptions() {
    CommandHarness.run(args("workload-static.yaml", "--trace-window", "10-20"))
        .expectError(
            2, "--trace-window '10-20' is not a window: expected START_MS:END_MS, e.g. 0:1500000");
    CommandHarness.run(
            args(
                "workload-static.yaml", "--aiperf-version", "0.13.0", "--measurement-limit", "45m"))
        .expectError(
            2,
            "blocker MEASUREMENT_LIMIT_EXCEEDED: --measurement-limit 2700s: every measured run is"
                + " bounded to at most 1800 s (30 minutes) (rule: benchmarking/measurement-limit.md)",
            "1 blocker(s); nothing written");
  }

  @Test
  @DisplayName("with no pin, no recipe and no index URL the version is unresolved (exit 2)")
  void unresolved() {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        System.getenv("BENCHPLAN_AIPERF_INDEX_URL") == null, "index URL set in the environment");
    CommandHarness.run(args("workload-static.yaml"))
        .expectError(
            2,
            "blocker AIPERF_VERSION_UNRESOLVED: no AIPerf version: pass --aiperf-version X.Y.Z"
                + " (operator pin), --reference-recipe PERF_YAML, or --aiperf-index-url URL (the"
                + " package index's JSON document for project aiperf; or set"
                + " BENCHPLAN_AIPERF_INDEX_URL); a version is never taken from memory"
                + " (rule: benchmarking/tool-version.md)",
            "1 blocker(s); nothing written");
  }

  @Test
  @DisplayName("the trace example replays its own trace; the 59-minute trace needs --trace-window")
  void traces() throws Exception {
    var r =
        CommandHarness.run(
                args("workload-trace.yaml", "--aiperf-version", "0.13.0", "--format", "json"))
            .expectOk();
    assertThat(Json.JSON.readTree(r.out()).get("workload_source").asString())
        .isEqualTo("user_trace");
    Path conversation =
        dev.benchplan.testing.SharedData.require("mooncake/conversation_trace.jsonl");
    // the plan records the trace relative to the experiment root, and its blockers name it so
    String trace =
        exp.toAbsolutePath().normalize().relativize(conversation.toAbsolutePath().normalize()) + "";
    String fixes =
        " Fixes: (1) a --trace-window whose rows fit (`benchplan trace inspect TRACE --window"
            + " START_MS:END_MS --max-context-length 40960` counts them); (2) your own filtered"
            + " trace as a new workload, e.g. jq -c 'select(.input_length + (.output_length // 0)"
            + " <= 40960)' TRACE > FILTERED.jsonl (benchplan windows a trace but never filters it);"
            + " (3) objectives.error_rate_max >= %s with objectives.error_rate_max_rationale saying"
            + " why these failures are acceptable (rule: benchmarking/expected-errors.md)";
    String firstLines = "(first at lines [12, 26, 88, 91, 96, 98, 120, 124, 135, 144]";
    CommandHarness.run(
            args(
                "workload-trace.yaml",
                "--aiperf-version",
                "0.13.0",
                "--trace",
                conversation.toString()))
        .expectError(
            2,
            "blocker TRACE_EXCEEDS_LIMIT: trace "
                + trace
                + ": its schedule spans 58.9 min (3536999 ms) at 1x replay, longer than the 1800 s"
                + " measurement limit; name an explicit window with --trace-window START_MS:END_MS"
                + " (recorded as a transformation and a new series) — a trace is never silently"
                + " truncated (rule: benchmarking/measurement-limit.md)",
            "blocker TRACE_ERROR_RATE_EXCEEDS_LIMIT: trace "
                + trace
                + ": 574 of 12031 rows of the trace (4.77%) exceed the served max_context_length"
                + " 40960 "
                + firstLines
                + "); the server rejects them, so the run's error rate is at least 4.77%, above"
                + " the run's error-rate limit 1%: the run would certainly fail."
                + fixes.formatted("0.0478"),
            "2 blocker(s); nothing written");
    // the window's 265 of 4,673 rows over the served context (5.67%) exceed the run's 1% limit
    CommandHarness.run(
            args(
                "workload-trace.yaml",
                "--aiperf-version",
                "0.13.0",
                "--trace",
                conversation.toString(),
                "--trace-window",
                "0:1500000"))
        .expectError(
            2,
            "blocker TRACE_ERROR_RATE_EXCEEDS_LIMIT: trace "
                + trace
                + ": 265 of 4673 rows in the window 0:1500000 (5.67%) exceed the served"
                + " max_context_length 40960 "
                + firstLines
                + "; the whole trace has 574 of 12031); the server rejects them, so the run's"
                + " error rate is at least 5.67%, above the run's error-rate limit 1%: the run"
                + " would certainly fail."
                + fixes.formatted("0.0568"),
            "1 blocker(s); nothing written");
  }
}
