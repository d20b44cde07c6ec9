package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class ValidateCommandTest {
  @TempDir Path dir;

  @Test
  @DisplayName("bad options: exit 2 with one line naming the option and what was expected")
  void badOptions() {
    CommandHarness.run("validate", "--namespace", "Bad_NS")
        .expectError(2, "option --namespace: expected a DNS-1123 label, got 'Bad_NS'");
    CommandHarness.run("validate", "--concurrency-per-worker", "0")
        .expectError(
            2,
            "Invalid value for option '--concurrency-per-worker': '0' is out of range;"
                + " expected a whole number from 1 to 100000");
    CommandHarness.run("validate", "--node-selector", "bad key=x")
        .expectError(
            2,
            "option --node-selector: expected KEY=VALUE with a valid label key, got 'bad key=x'");
    CommandHarness.run("validate", "--runtime-image", "vllm-runtime:latest")
        .expectError(
            2,
            "option --runtime-image: expected an image pinned to a tag or digest (never :latest),"
                + " got 'vllm-runtime:latest'");
    CommandHarness.run("validate", "--aiperf-version", "latest")
        .expectError(
            2,
            "option --aiperf-version: expected an exact release such as 0.4.0 or 0.6.0.post1,"
                + " got 'latest'");
    CommandHarness.run("validate", "--timeout-dgd-ready", "soon")
        .expectError(
            2,
            "Invalid value for option '--timeout-dgd-ready': 'soon' is not a duration:"
                + " expected e.g. 30s, 5m, 1h or PT30S");
    var both =
        CommandHarness.run(
                "validate",
                "--concurrency-per-gpu",
                "8",
                "--concurrency-per-worker",
                "8",
                "--format",
                "json")
            .expectError(
                2,
                "options --concurrency-per-gpu and --concurrency-per-worker exclude each other:"
                    + " give one");
    assertThat(Json.JSON.readTree(both.out()).path("error").path("exit_code").asInt()).isEqualTo(2);
    CommandHarness.run("validate", "--defaults", "nvidia")
        .expectError(
            2,
            "Invalid value for option '--defaults': expected one of [benchplan, aicr], got 'nvidia'");
    assertThat(CommandHarness.run("validate", "--help").expectOk().out())
        .as("the help lists the valid values")
        .contains("one of benchplan, aicr");
    CommandHarness.run("validate", "--concurrency-per-gpu", "0")
        .expectError(
            2,
            "Invalid value for option '--concurrency-per-gpu': '0' is out of range;"
                + " expected a whole number from 1 to 100000");
  }

  @Test
  @DisplayName("an overlay with a bad constraint: exit 2 naming the pointer, nothing written")
  void badOverlay() throws IOException {
    Path overlay = dir.resolve("overlay.yaml");
    Files.writeString(
        overlay,
        "validation: {performance: {checks: [inference-perf], constraints: "
            + "[{name: inference-throughput, value: '<= 5000'}]}}");
    CommandHarness.run(
            "validate",
            "--recipe",
            overlay.toString(),
            "--report-dir",
            dir.resolve("rep").toString())
        .expectError(
            2,
            overlay
                + ": /validation/performance/constraints/0: inference-throughput takes only >="
                + " (as AICR requires), got <=");
    assertThat(dir.resolve("rep")).doesNotExist();
  }

  @Test
  @DisplayName("check not listed: skip, exit 0, one JSON document on stdout and the three reports")
  void skipJson() throws IOException {
    Path overlay = dir.resolve("overlay.yaml");
    Files.writeString(
        overlay,
        "kind: RecipeMetadata\nspec: {validation: {performance: {checks: [nccl-all-reduce-bw]}}}\n");
    var r =
        CommandHarness.run(
                "validate",
                "--recipe",
                overlay.toString(),
                "--format",
                "json",
                "--report-dir",
                dir.resolve("rep").toString())
            .expectOk();
    JsonNode doc = Json.JSON.readTree(r.out());
    assertThat(doc.path("verdict").asString()).isEqualTo("skip");
    assertThat(doc.path("reason").asString()).contains("nccl-all-reduce-bw");
    assertThat(dir.resolve("rep/verdict.json")).exists();
    assertThat(dir.resolve("rep/ctrf-report.json")).exists();
    assertThat(dir.resolve("rep/junit.xml")).exists();
    assertThat(r.err()).contains("validate [constraints]");
  }

  @Test
  @DisplayName("--help and other commands never load the Kubernetes client (JVM start time)")
  void noFabric8OnHelp() throws Exception {
    for (List<String> args : List.of(List.of("--help"), List.of("validate", "--help"))) {
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-verbose:class",
                  "-cp",
                  System.getProperty("java.class.path"),
                  "dev.benchplan.cli.Main"));
      cmd.addAll(args);
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String output =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(output)
          .contains("dev.benchplan.cli.ValidateCommand")
          .doesNotContain("io.fabric8")
          .doesNotContain("picocli WARN");
    }
  }
}
