package dev.benchplan.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.TestFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Issue 13: every JSON input the tool reads says an empty, blank, {@code null} or array document in
 * the user's terms ({@link JsonInput}): {@code <file>: empty file; expected <what>}, one line, no
 * parser or schema-validator words ("unknown found, object expected", "No content to map"). Bad
 * input is exit 2 with nothing written (a finding, exit 1, where {@code verify} checks a run's own
 * file). The inputs are the committed experiments/ tree, copied and then broken.
 */
class EmptyJsonInputTest {
  static final Path EXPERIMENTS = Path.of("experiments").toAbsolutePath();
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  static final String GRID = "synthetic-grid-20261130-ce287c6d";

  @TempDir Path tmp;

  /** The input, the file under the copied experiments/ to break, and the expected exit. */
  enum Input {
    PLAN_RENDER(
        "inputs/benchmark-plans/" + GRID + ".json", 2, "a plan written by `benchplan plan`"),
    PLAN_VERIFY(
        "inputs/benchmark-plans/" + GRID + ".json", 2, "a plan written by `benchplan plan`"),
    REPEAT_DECISION("repeat_decision.json", 2, "a repeat_decision.json object written by analyze"),
    RUN_JSON("deploy/" + GRID + "/benchmark/runs/RUN/run.json", 1, "the run record run wrote"),
    VERDICT("deploy/" + GRID + "/benchmark/runs/RUN/verdict.json", 1, "the verdict run computed"),
    RENDER_MANIFEST(
        "deploy/" + GRID + "/benchmark/render-manifest.json",
        2,
        "the render-manifest.json benchplan render wrote"),
    AIPERF_EXPORT(
        "deploy/" + GRID + "/benchmark/runs/RUN/profile_export_aiperf.json",
        2,
        "AIPerf's profile_export_aiperf.json object"),
    WORKLOAD("inputs/workloads/synthetic-grid.yaml", 2, "a mapping"),
    LEDGER("../examples/deployment-ledger.yaml", 2, "a mapping");

    final String file;
    final int exit;
    final String expected;

    Input(String file, int exit, String expected) {
      this.file = file;
      this.exit = exit;
      this.expected = expected;
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    String[][] contents = {
      {"", "empty file"},
      {"  \n\t\n", "whitespace only"},
      {"null", "null at the top level"},
      {"[]", "an array at the top level"},
    };
    for (Input in : Input.values()) {
      for (String[] c : contents) {
        out.add(Arguments.of(in, c[0], c[1]));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} holding [{2}]")
  @MethodSource("cases")
  @DisplayName(
      "an empty / blank / null / array JSON input: one line naming the file, what it holds and what was"
          + " expected; exit 2 and nothing written (exit 1 for verify's finding on a run's own file)")
  void saidInUserTerms(Input in, String content, String problem) throws Exception {
    Path exp = tmp.resolve("exp");
    TestFiles.copyTree(EXPERIMENTS, exp);
    Path runs = exp.resolve("deploy/" + GRID + "/benchmark/runs");
    String runId;
    try (Stream<Path> s = Files.list(runs)) {
      runId = s.findFirst().orElseThrow().getFileName().toString();
    }
    Path file = exp.resolve(in.file.replace("RUN", runId)).normalize();
    // the plans name their inputs as ../examples/...
    TestFiles.copyTree(EXAMPLES, tmp.resolve("examples"));
    Files.writeString(file, content, StandardCharsets.UTF_8);
    String sha = Sha256.ofFile(file);
    Path plan = exp.resolve("inputs/benchmark-plans/" + GRID + ".json");
    Path newExp = tmp.resolve("new-exp");
    Path deploy = Files.createDirectories(tmp.resolve("deploy"));
    List<String> planArgs =
        List.of(
            "plan",
            "--workload",
            exp.resolve("inputs/workloads/synthetic-grid.yaml").toString(),
            "--ledger",
            tmp.resolve("examples/deployment-ledger.yaml").toString(),
            "--question",
            "Is B faster than A?",
            "--aiperf-version",
            "0.13.0",
            "--exp-root",
            newExp.toString());
    List<String> args = new ArrayList<>();
    switch (in) {
      case PLAN_RENDER ->
          args.addAll(
              List.of(
                  "render",
                  "--plan",
                  file.toString(),
                  "--plan-sha256",
                  sha,
                  "--deploy-root",
                  deploy.toString()));
      case PLAN_VERIFY -> args.addAll(List.of("verify", "--sha256", sha, file.toString()));
      case REPEAT_DECISION -> {
        args.addAll(planArgs);
        args.addAll(List.of("--repeat-decision", file.toString(), "--repeat-decision-sha256", sha));
      }
      case RUN_JSON, VERDICT -> args.addAll(List.of("verify", file.getParent().toString()));
      case RENDER_MANIFEST ->
          args.addAll(List.of("verify", exp.resolve("deploy/" + GRID).toString()));
      case AIPERF_EXPORT -> args.addAll(List.of("gate", "--results", file.toString()));
      case WORKLOAD, LEDGER -> args.addAll(planArgs);
    }
    CommandHarness.Result text = CommandHarness.run(args.toArray(String[]::new));
    String all = text.out() + text.err();
    assertThat(text.exitCode()).as(all).isEqualTo(in.exit);
    String line =
        all.lines()
            .filter(l -> l.contains(file.getFileName().toString()))
            .filter(l -> l.contains(": " + problem + "; expected " + in.expected))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no line naming the problem: " + all));
    assertThat(line).contains(tmp.relativize(file).toString());
    assertThat(all)
        .doesNotContainIgnoringCase("no content to map")
        .doesNotContain("unknown found")
        .doesNotContain("object expected")
        .doesNotContain("MissingNode")
        .doesNotContain("Exception");
    assertThat(Files.exists(newExp)).as("nothing written").isFalse();
    try (Stream<Path> s = Files.list(deploy)) {
      assertThat(s.toList()).as("nothing rendered").isEmpty();
    }

    args.addAll(List.of("--format", "json"));
    CommandHarness.Result json = CommandHarness.run(args.toArray(String[]::new));
    assertThat(json.exitCode()).isEqualTo(in.exit);
    JsonNode doc = Json.JSON.readTree(json.out());
    assertThat(doc.toString()).contains(problem + "; expected ");
  }
}
