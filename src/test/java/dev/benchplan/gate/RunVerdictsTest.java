package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code gate --results DIR}: every run of an AIPerf artifact tree in the reference table's layouts
 * is gated, one verdict per load point and repetition, the capacity under the gates for a sweep.
 */
class RunVerdictsTest {
  @TempDir Path tmp;

  private static void copyRun(Path from, Path to) throws Exception {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path f : s.toList()) {
        Files.write(to.resolve(f.getFileName().toString()), Files.readAllBytes(f));
      }
    }
  }

  private JsonNode gate(Path results, int exit, String... extra) throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "gate",
                "--results",
                results.toString(),
                "--min-throughput",
                "40",
                "--max-ttft-p99",
                "50",
                "--tolerance",
                "0",
                "--format",
                "json"));
    args.addAll(List.of(extra));
    var r = CommandHarness.run(args.toArray(String[]::new)).expectExit(exit);
    JsonNode v = Json.JSON.readTree(r.out());
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(v)).as(r.out()).isEmpty();
    return v;
  }

  @Test
  @DisplayName(
      "a sweep (<param>_<value>/ + sweep_aggregate): per point verdicts, capacity 2, exit 1 because c=4 fails")
  void sweep() throws Exception {
    Path data = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path tree = tmp.resolve("sweep");
    for (int c : List.of(1, 2, 4)) {
      copyRun(data.resolve("concurrency" + c), tree.resolve("concurrency_" + c));
    }
    Files.createDirectories(tree.resolve("sweep_aggregate"));
    Files.writeString(
        tree.resolve("sweep_aggregate/profile_export_aiperf_sweep.json"),
        "{\"aggregation_type\": \"sweep\"}");
    JsonNode v = gate(tree, 1);
    assertThat(v.get("verdict").asString()).isEqualTo("fail");
    assertThat(v.get("runs")).hasSize(3);
    assertThat(v.at("/runs/0/load_point").asString()).isEqualTo("1");
    assertThat(v.at("/runs/0/parameter").asString()).isEqualTo("concurrency");
    assertThat(v.at("/runs/1/verdict").asString()).isEqualTo("pass");
    assertThat(v.at("/runs/2/verdict").asString()).isEqualTo("fail");
    assertThat(v.at("/runs/2/directory").asString()).isEqualTo("concurrency_4");
    assertThat(v.at("/capacity/load_point").asString()).isEqualTo("2");
    assertThat(v.get("message").asString())
        .contains(
            "1 of 3 measured runs failed",
            "concurrency 4",
            "capacity under the gates: concurrency 2");
    // text output names every run and the capacity
    var text =
        CommandHarness.run(
            "gate", "--results", tree.toString(), "--max-ttft-p99", "50", "--tolerance", "0");
    assertThat(text.out())
        .contains(
            "run fail  concurrency 4 (concurrency_4)", "capacity under the gates: concurrency 2");
  }

  @Test
  @DisplayName(
      "multi-run (profile_runs/run_NNNN + aggregate): one verdict per repetition, no capacity, pass")
  void multiRun() throws Exception {
    Path data = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path tree = tmp.resolve("multi");
    for (int k = 1; k <= 3; k++) {
      copyRun(data.resolve("concurrency2"), tree.resolve("profile_runs/run_000" + k));
    }
    Files.createDirectories(tree.resolve("aggregate"));
    Files.writeString(tree.resolve("aggregate/profile_export_aiperf_aggregate.json"), "{}");
    JsonNode v = gate(tree, 0);
    assertThat(v.get("verdict").asString()).isEqualTo("pass");
    assertThat(v.get("runs")).hasSize(3);
    assertThat(v.at("/runs/2/repetition").asInt()).isEqualTo(3);
    assertThat(v.at("/runs/2/load_point").isNull()).isTrue();
    assertThat(v.get("capacity").isNull()).isTrue();
    assertThat(v.at("/requests/total").asInt()).isEqualTo(192);
  }

  @Test
  @DisplayName(
      "sweep x repeated trials (profile_runs/trial_NNNN/<param>_<value>): a point holds only if every repetition passes")
  void repeatedTrials() throws Exception {
    Path data = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path tree = tmp.resolve("trials");
    for (int k = 1; k <= 2; k++) {
      copyRun(
          data.resolve("concurrency1"),
          tree.resolve("profile_runs/trial_000" + k + "/concurrency_1"));
      // trial 2 of point 2 is the c=4 run: point 2 no longer holds
      copyRun(
          data.resolve(k == 2 ? "concurrency4" : "concurrency2"),
          tree.resolve("profile_runs/trial_000" + k + "/concurrency_2"));
    }
    JsonNode v = gate(tree, 1);
    assertThat(v.get("runs")).hasSize(4);
    assertThat(v.at("/capacity/load_point").asString()).isEqualTo("1");
    assertThat(v.at("/capacity/load_points").toString()).isEqualTo("[\"1\",\"2\"]");
  }

  @Test
  @DisplayName("a directory with no AIPerf run is invalid input (exit 2)")
  void empty() throws Exception {
    var r =
        CommandHarness.run(
            "gate",
            "--results",
            Files.createDirectories(tmp.resolve("none")).toString(),
            "--max-ttft-p99",
            "50");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("no AIPerf run found");
  }
}
