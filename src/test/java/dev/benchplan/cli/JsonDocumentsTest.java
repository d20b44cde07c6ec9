package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.JsonDocuments;
import dev.benchplan.testing.PlanFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * Every JSON document benchplan writes has a schema in schemas/, and the real output of each
 * command validates against it (issue 11). The table is {@link JsonDocuments}; run's stdout is
 * checked in RunCommandTest (a mock API server), compare's in CompareCommandTest (generated runs),
 * smoke's success in SmokeResultSchemaTest (a scripted endpoint).
 */
class JsonDocumentsTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  static final Path EXPERIMENTS = Path.of("experiments").toAbsolutePath();

  @TempDir Path tmp;

  /** "trace inspect" for {@code benchplan trace inspect}. */
  static void commandsWithFormat(CommandLine cl, String prefix, List<String> into) {
    for (CommandLine sub : cl.getSubcommands().values()) {
      String name = (prefix + " " + sub.getCommandName()).trim();
      if (sub.getCommandSpec().findOption("--format") != null) {
        into.add(name);
      }
      commandsWithFormat(sub, name, into);
    }
  }

  @Test
  @DisplayName("every command with --format json has a stdout schema in the table, and no other")
  void everyJsonCommandHasASchema() {
    List<String> commands = new ArrayList<>();
    commandsWithFormat(Cli.commandLine(), "", commands);
    assertThat(commands).hasSizeGreaterThanOrEqualTo(12);
    assertThat(JsonDocuments.STDOUT.keySet()).containsExactlyInAnyOrderElementsOf(commands);
  }

  @Test
  @DisplayName("schemas/ holds exactly the schemas the table names: none missing, none orphaned")
  void schemasOnDiskMatchTheTable() throws IOException {
    Set<String> onDisk = new TreeSet<>();
    try (Stream<Path> s = Files.list(Path.of("schemas"))) {
      s.map(p -> p.getFileName().toString()).forEach(onDisk::add);
    }
    assertThat(onDisk).allMatch(n -> n.endsWith(".schema.json"));
    assertThat(onDisk).containsExactlyInAnyOrderElementsOf(JsonDocuments.schemasNamed());
  }

  @Test
  @DisplayName(
      "a JSON file no row covers, or a stdout document its schema refuses, fails the check")
  void theCheckHasTeeth() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("stray"));
    Files.writeString(dir.resolve("verdict.json"), "{}");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> JsonDocuments.assertFiles("gate", dir))
        // AssertJ's isEmpty() lays the problem list out over lines: only its whitespace is a
        // pattern
        .hasMessageMatching(
            "\\Q[verdict.json against schemas/verdict.schema.json]\\E\\s+Expecting empty but was: \\["
                + required(
                        "schema_version",
                        "verdict",
                        "message",
                        "constraints",
                        "ignored_constraints",
                        "constraints_source",
                        "requests",
                        "source")
                    .map(Pattern::quote)
                    .collect(Collectors.joining(",\\s+"))
                + "\\]");
    Files.delete(dir.resolve("verdict.json"));
    Files.writeString(dir.resolve("new-document.json"), "{}");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> JsonDocuments.assertFiles("gate", dir))
        .hasMessage(
            "gate wrote new-document.json (in "
                + dir
                + "), a JSON document no row of JsonDocuments.FILES covers: give it a schema in"
                + " schemas/ and a row");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> JsonDocuments.assertStdout("verify", "{\"kind\": \"plan\"}"))
        .hasMessage(
            "verify --format json printed a document no listed schema accepts:"
                + " {verify-result.schema.json=["
                + required("path", "sha256", "verified", "checks", "findings", "notes")
                    .collect(Collectors.joining(", "))
                + "]}"
                + System.lineSeparator()
                + "{\"kind\": \"plan\"}");
  }

  /** The schema validator's problem for each missing top-level property. */
  private static Stream<String> required(String... properties) {
    return Stream.of(properties).map(p -> "/: required property '" + p + "' not found [required]");
  }

  @Test
  @DisplayName(
      "the committed worked example (experiments/: plan, render, run and analyze output) validates"
          + " file by file")
  void experimentsTree() throws IOException {
    int checked =
        JsonDocuments.assertFiles(List.of("plan", "render", "run", "analyze"), EXPERIMENTS);
    // 2 plans, 2 manifests, 2 x (run.json, verdict.json, ctrf-report.json), 6 x (audit,
    // summary), the analysis, 2 repeat decisions, the findings log
    assertThat(checked).isGreaterThanOrEqualTo(24);
    String line =
        Files.readAllLines(EXPERIMENTS.resolve("analysis/performance_findings.jsonl")).get(0);
    JsonDocuments.assertRejectsTampering(
        "findings-line.schema.json", Json.JSON.readTree(line), "runs");
  }

  @Test
  @DisplayName(
      "plan (written, then blocked), render, rbac run and rbac validate: stdout and files"
          + " against their schemas")
  void planRenderRbac() throws Exception {
    Path exp = tmp.resolve("exp");
    String[] plan =
        PlanFixture.Examples.args(
                PlanFixture.Examples.STATIC,
                "What throughput does vllm-agg sustain?",
                exp,
                "--format",
                "json")
            .toArray(String[]::new);
    JsonNode written =
        JsonDocuments.assertStdout("plan", CommandHarness.run(plan).expectOk().out());
    assertThat(written.has("plan_path")).isTrue();
    assertThat(written.at("/gates/0/tolerance").decimalValue()).isEqualByComparingTo("0");
    assertThat(written.at("/gates/0/note").isNull()).isTrue();
    JsonDocuments.assertRejectsTampering("plan-result.schema.json", written, "sha256");
    JsonNode blocked =
        JsonDocuments.assertStdout("plan", CommandHarness.run(plan).expectExit(2).out());
    assertThat(blocked.at("/blockers/0/code").asString()).isEqualTo("SERIES_EXISTS");
    assertThat(JsonDocuments.assertFiles("plan", exp)).isEqualTo(1);

    Path deploy = Files.createDirectories(tmp.resolve("deploy"));
    Path planFile = Path.of(written.get("plan_path").asString());
    JsonNode render =
        JsonDocuments.assertStdout(
            "render",
            CommandHarness.run(
                    "render",
                    "--plan",
                    planFile.toString(),
                    "--plan-sha256",
                    Sha256.ofFile(planFile),
                    "--deploy-root",
                    deploy.toString(),
                    "--format",
                    "json")
                .expectOk()
                .out());
    assertThat(render.get("load_point").asString()).isEqualTo("16");
    assertThat(render.get("gates")).isEqualTo(written.get("gates"));
    JsonDocuments.assertRejectsTampering("render-result.schema.json", render, "candidate");
    assertThat(JsonDocuments.assertFiles("render", deploy)).isEqualTo(1);

    JsonNode rbacRun =
        JsonDocuments.assertStdout(
            "rbac run",
            CommandHarness.run(
                    "rbac", "run", "--deploy-root", deploy.toString(), "--format", "json")
                .expectOk()
                .out());
    assertThat(rbacRun.at("/items/0/kind").asString()).isEqualTo("Role");
    JsonDocuments.assertRejectsTampering("rbac-manifest.schema.json", rbacRun, "kind");
    JsonDocuments.assertStdout(
        "rbac validate",
        CommandHarness.run("rbac", "validate", "--format", "json").expectOk().out());
    JsonDocuments.assertStdout(
        "rbac validate",
        CommandHarness.run("rbac", "validate", "--dgd", "bench/vllm-agg", "--format", "json")
            .expectOk()
            .out());

    // a failure of any command is the error document
    JsonNode error =
        JsonDocuments.assertStdout(
            "render",
            CommandHarness.run(
                    "render",
                    "--plan",
                    tmp.resolve("none.json").toString(),
                    "--plan-sha256",
                    "0".repeat(64),
                    "--deploy-root",
                    deploy.toString(),
                    "--format",
                    "json")
                .expectExit(2)
                .out());
    assertThat(error.at("/error/exit_code").asInt()).isEqualTo(2);
  }

  /** One measured export of the committed worked example (the stand-in AIPerf's output). */
  static Path export() throws IOException {
    try (Stream<Path> s = Files.walk(EXPERIMENTS.resolve("deploy"))) {
      return s.filter(p -> p.getFileName().toString().equals("profile_export_aiperf.json"))
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  /**
   * {@code gate --results RESULTS LIMITS... --report-dir REPORTS --format json}: exits {@code
   * exit}, its stdout and both report files checked against their schemas.
   */
  static JsonNode gateWithReports(String results, Path reports, int exit, String... limits)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("gate", "--results", results));
    args.addAll(List.of(limits));
    args.addAll(List.of("--report-dir", reports.toString(), "--format", "json"));
    JsonNode out =
        JsonDocuments.assertStdout(
            "gate", CommandHarness.run(args.toArray(String[]::new)).expectExit(exit).out());
    assertThat(JsonDocuments.assertFiles("gate", reports)).isEqualTo(2);
    return out;
  }

  @Test
  @DisplayName("gate: a pass, a fail and a verdict without constraints; verdict.json and CTRF")
  void gate() throws Exception {
    String results = export().toString();
    Path reports = tmp.resolve("reports");
    JsonNode pass = gateWithReports(results, reports, 0, "--min-throughput", "1");
    assertThat(pass.get("verdict").asString()).isEqualTo("pass");
    JsonDocuments.assertRejectsTampering(
        "ctrf-report.schema.json",
        Json.JSON.readTree(Files.readString(reports.resolve("ctrf-report.json"))),
        "results");
    JsonNode fail =
        gateWithReports(
            results, tmp.resolve("fail"), 1, "--max-ttft-p99", "0.001", "--tolerance", "0");
    assertThat(fail.get("verdict").asString()).isEqualTo("fail");
    JsonDocuments.assertStdout(
        "gate", CommandHarness.run("gate", "--results", results, "--format", "json").out());
  }

  @Test
  @DisplayName("validate: an overlay without the check is a skip verdict, without a cluster")
  void validateSkip() throws Exception {
    Path overlay =
        Files.writeString(
            tmp.resolve("overlay.yaml"),
            """
            kind: RecipeMetadata
            apiVersion: aicr.nvidia.com/v1alpha1
            metadata: {name: training-only}
            spec:
              validation:
                performance:
                  checks: [nccl-all-reduce-bw]
            """);
    Path reports = tmp.resolve("r");
    JsonNode v =
        JsonDocuments.assertStdout(
            "validate",
            CommandHarness.run(
                    "validate",
                    "--recipe",
                    overlay.toString(),
                    "--report-dir",
                    reports.toString(),
                    "--format",
                    "json")
                .expectOk()
                .out());
    assertThat(v.get("verdict").asString()).isEqualTo("skip");
    assertThat(JsonDocuments.assertFiles("validate", reports)).isEqualTo(2);
  }

  @Test
  @DisplayName("smoke against a closed port: the failure document with its error, and the artifact")
  void smokeRefused() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("smoke"));
    JsonNode s =
        JsonDocuments.assertStdout(
            "smoke",
            CommandHarness.run(
                    "smoke",
                    "--url",
                    "http://127.0.0.1:9",
                    "--model",
                    "m",
                    "--out",
                    dir.resolve("down.json").toString(),
                    "--format",
                    "json")
                .expectExit(3)
                .out());
    assertThat(s.get("success").asBoolean()).isFalse();
    assertThat(s.at("/error/exit_code").asInt()).isEqualTo(3);
    JsonDocuments.assertRejectsTampering("smoke-result.schema.json", s, "error");
    assertThat(JsonDocuments.assertFiles("smoke", dir)).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "trace inspect: the example trace, with a window and a context limit, and a broken trace")
  void traceInspect() throws Exception {
    String trace = EXAMPLES.resolve("traces/example_trace.jsonl").toString();
    JsonNode plain =
        JsonDocuments.assertStdout(
            "trace inspect",
            CommandHarness.run("trace", "inspect", trace, "--format", "json").expectOk().out());
    assertThat(plain.has("window")).isFalse();
    JsonDocuments.assertRejectsTampering("trace-report.schema.json", plain, "hash_ids");
    List<String> windowed = new ArrayList<>(List.of("trace", "inspect", trace));
    windowed.addAll(List.of("--window", "0:300000", "--max-context", "6000", "--format", "json"));
    var w = CommandHarness.run(windowed.toArray(String[]::new));
    JsonNode window = JsonDocuments.assertStdout("trace inspect", w.out());
    assertThat(window.has("window")).as(w.err()).isTrue();
    Path broken =
        Files.writeString(
            tmp.resolve("broken.jsonl"),
            "{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 2}\n"
                + "{\"timestamp\": 3, \"input_length\": -1}\nnot json\n");
    JsonNode bad =
        JsonDocuments.assertStdout(
            "trace inspect",
            CommandHarness.run("trace", "inspect", broken.toString(), "--format", "json")
                .expectExit(2)
                .out());
    assertThat(bad.get("valid").asBoolean()).isFalse();
    assertThat(bad.get("problems")).isNotEmpty();
  }

  /** A copy of the worked example's experiments/ without its analysis. */
  Path experimentsCopy() throws IOException {
    Path exp = tmp.resolve("experiments");
    try (Stream<Path> s = Files.walk(EXPERIMENTS)) {
      for (Path p : s.toList()) {
        Path rel = EXPERIMENTS.relativize(p);
        if (rel.startsWith("analysis")) {
          continue;
        }
        Path to = exp.resolve(rel.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }
    return exp;
  }

  /** The run folders under {@code exp}/deploy. */
  static List<String> runDirs(Path exp) throws IOException {
    try (Stream<Path> s = Files.walk(exp.resolve("deploy"))) {
      return s.filter(p -> Files.isRegularFile(p.resolve("run.json")))
          .map(Path::toString)
          .sorted()
          .toList();
    }
  }

  @Test
  @DisplayName(
      "analyze of the worked example's runs: stdout, the analysis files and the findings log")
  void analyze() throws Exception {
    Path exp = experimentsCopy();
    Path out = tmp.resolve("analysis-out");
    List<String> args = new ArrayList<>(List.of("analyze"));
    args.addAll(runDirs(exp));
    args.addAll(
        List.of("--exp-root", exp.toString(), "--report-dir", out.toString(), "--format", "json"));
    var r = CommandHarness.run(args.toArray(String[]::new));
    JsonNode doc = JsonDocuments.assertStdout("analyze", r.out());
    assertThat(doc.get("runs")).as(r.err()).hasSizeGreaterThanOrEqualTo(6);
    JsonDocuments.assertRejectsTampering("analyze-result.schema.json", doc, "series");
    assertThat(JsonDocuments.assertFiles("analyze", out)).isGreaterThanOrEqualTo(15);
    assertThat(JsonDocuments.assertFiles("analyze", exp.resolve("analysis"))).isEqualTo(1);
  }

  @Test
  @DisplayName("verify of a plan, a deploy root, a run and an analysis, verified or not")
  void verify() throws Exception {
    Path exp = experimentsCopy();
    List<String> targets = new ArrayList<>();
    try (Stream<Path> s = Files.list(exp.resolve("inputs/benchmark-plans"))) {
      s.sorted().findFirst().map(Path::toString).ifPresent(targets::add);
    }
    try (Stream<Path> s = Files.list(exp.resolve("deploy"))) {
      s.sorted().findFirst().map(Path::toString).ifPresent(targets::add);
    }
    targets.add(runDirs(exp).get(0));
    try (Stream<Path> s = Files.list(EXPERIMENTS.resolve("analysis"))) {
      s.filter(Files::isDirectory).sorted().findFirst().map(Path::toString).ifPresent(targets::add);
    }
    Set<String> kinds = new TreeSet<>();
    for (String t : targets) {
      var r = CommandHarness.run("verify", t, "--format", "json");
      JsonNode doc = JsonDocuments.assertStdout("verify", r.out());
      assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
      kinds.add(doc.path("kind").asString());
    }
    // an edited plan: findings
    Path plan = Path.of(targets.get(0));
    Path edited = tmp.resolve("edited.json");
    Files.writeString(edited, Files.readString(plan).replace("\"seed\"", "\"seed_\""));
    JsonNode bad =
        JsonDocuments.assertStdout(
            "verify",
            CommandHarness.run(
                    "verify",
                    edited.toString(),
                    "--sha256",
                    Sha256.ofFile(plan),
                    "--format",
                    "json")
                .expectExit(1)
                .out());
    assertThat(bad.get("verified").asBoolean()).isFalse();
    JsonDocuments.assertRejectsTampering("verify-result.schema.json", bad, "findings");
    assertThat(kinds).contains("plan", "deploy_root", "run");
    assertThat(Json.JSON.writeValueAsString(bad)).contains("findings");
  }
}
