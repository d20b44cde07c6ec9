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
            .expectExit(2);
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(out.get("blockers").size()).isEqualTo(2);
    assertThat(out.at("/blockers/0/code").asString()).isEqualTo("REPEAT_WITHOUT_RATIONALE");
    assertThat(out.at("/blockers/0/rule").asString())
        .isEqualTo("benchmarking/comparison-uncertainty.md");
    assertThat(out.at("/blockers/1/code").asString()).isEqualTo("AIPERF_VERSION_INVALID");
    assertThat(r.err()).contains("blocker REPEAT_WITHOUT_RATIONALE").contains("nothing written");
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
    var again =
        CommandHarness.run(args("workload-static.yaml", "--aiperf-version", "0.13.0"))
            .expectExit(2);
    assertThat(again.err()).contains("blocker SERIES_EXISTS");
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
    var half =
        CommandHarness.run(args("workload-static.yaml", "--reuse-plan", "x.json")).expectExit(2);
    assertThat(half.err()).contains("--reuse-plan and --reuse-sha256 go together");
  }

  @Test
  @DisplayName("bad option values are exit 2 with a one-line hint")
  void badOptions() {
    var r =
        CommandHarness.run(args("workload-static.yaml", "--trace-window", "10-20")).expectExit(2);
    assertThat(r.err()).contains("expected START_MS:END_MS");
    var limit =
        CommandHarness.run(
                args(
                    "workload-static.yaml",
                    "--aiperf-version",
                    "0.13.0",
                    "--measurement-limit",
                    "45m"))
            .expectExit(2);
    assertThat(limit.err()).contains("MEASUREMENT_LIMIT_EXCEEDED");
  }

  @Test
  @DisplayName("with no pin, no recipe and no index URL the version is unresolved (exit 2)")
  void unresolved() {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        System.getenv("BENCHPLAN_AIPERF_INDEX_URL") == null, "index URL set in the environment");
    var r = CommandHarness.run(args("workload-static.yaml")).expectExit(2);
    assertThat(r.err()).contains("AIPERF_VERSION_UNRESOLVED");
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
    var tooLong =
        CommandHarness.run(
                args(
                    "workload-trace.yaml",
                    "--aiperf-version",
                    "0.13.0",
                    "--trace",
                    conversation.toString()))
            .expectExit(2);
    assertThat(tooLong.err()).contains("blocker TRACE_EXCEEDS_LIMIT");
    // the window's 265 of 4,673 rows over the served context (5.67%) exceed the run's 1% limit
    var windowed =
        CommandHarness.run(
                args(
                    "workload-trace.yaml",
                    "--aiperf-version",
                    "0.13.0",
                    "--trace",
                    conversation.toString(),
                    "--trace-window",
                    "0:1500000"))
            .expectExit(2);
    assertThat(windowed.err())
        .contains("blocker TRACE_ERROR_RATE_EXCEEDS_LIMIT")
        .contains("265 of 4673 rows in the window 0:1500000 (5.67%)");
  }
}
