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
    var r = CommandHarness.run("validate", "--namespace", "Bad_NS").expectExit(2);
    assertThat(r.err()).contains("option --namespace: expected a DNS-1123 label, got 'Bad_NS'");
    CommandHarness.run("validate", "--concurrency-per-worker", "0").expectExit(2);
    var sel = CommandHarness.run("validate", "--node-selector", "bad key=x").expectExit(2);
    assertThat(sel.err()).contains("--node-selector");
    var img =
        CommandHarness.run("validate", "--runtime-image", "vllm-runtime:latest").expectExit(2);
    assertThat(img.err()).contains("never :latest");
    var ver = CommandHarness.run("validate", "--aiperf-version", "latest").expectExit(2);
    assertThat(ver.err()).contains("--aiperf-version");
    var dur = CommandHarness.run("validate", "--timeout-dgd-ready", "soon").expectExit(2);
    assertThat(dur.err()).contains("expected e.g. 30s");
    var both =
        CommandHarness.run(
                "validate",
                "--concurrency-per-gpu",
                "8",
                "--concurrency-per-worker",
                "8",
                "--format",
                "json")
            .expectExit(2);
    assertThat(both.err())
        .contains("--concurrency-per-gpu and --concurrency-per-worker exclude each other");
    assertThat(Json.JSON.readTree(both.out()).path("error").path("exit_code").asInt()).isEqualTo(2);
    var defaults = CommandHarness.run("validate", "--defaults", "nvidia").expectExit(2);
    assertThat(defaults.err())
        .contains("option '--defaults': expected one of [benchplan, aicr], got 'nvidia'");
    assertThat(CommandHarness.run("validate", "--help").expectOk().out())
        .as("the help lists the valid values")
        .contains("one of benchplan, aicr");
    CommandHarness.run("validate", "--concurrency-per-gpu", "0").expectExit(2);
  }

  @Test
  @DisplayName("an overlay with a bad constraint: exit 2 naming the pointer, nothing written")
  void badOverlay() throws IOException {
    Path overlay = dir.resolve("overlay.yaml");
    Files.writeString(
        overlay,
        "validation: {performance: {checks: [inference-perf], constraints: "
            + "[{name: inference-throughput, value: '<= 5000'}]}}");
    var r =
        CommandHarness.run(
                "validate",
                "--recipe",
                overlay.toString(),
                "--report-dir",
                dir.resolve("rep").toString())
            .expectExit(2);
    assertThat(r.err())
        .contains(overlay.toString())
        .contains("/validation/performance/constraints/0")
        .contains("takes only >=");
    assertThat(r.err().lines().filter(l -> l.startsWith("benchplan:"))).hasSize(1);
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
