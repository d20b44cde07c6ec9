package dev.benchplan.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.RunRecords;
import dev.benchplan.testing.TestFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Location-independent plans and {@code benchplan verify}: plans written by a separate process
 * (SOURCE_DATE_EPOCH, its own working directory) from copies of examples/, then verified.
 */
class VerifyCommandTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  @TempDir Path tmp;

  /**
   * Copies examples/ into {@code dir}/examples and plans the trace example there, as a user would.
   */
  static Path planIn(Path dir) throws Exception {
    TestFiles.copyTree(EXAMPLES, dir.resolve("examples"));
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.benchplan.cli.Main",
                "plan",
                "--workload",
                "examples/workload-trace.yaml",
                "--ledger",
                "examples/deployment-ledger.yaml",
                "--question",
                "What TTFT does vllm-agg give the agent trace?",
                "--aiperf-version",
                "0.13.0",
                "--exp-root",
                "experiments"));
    Path log = dir.resolve("plan.log");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("SOURCE_DATE_EPOCH", "1767225600");
    pb.environment().remove("BENCHPLAN_AIPERF_INDEX_URL");
    Process p = pb.start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(log)).isZero();
    try (Stream<Path> s = Files.list(dir.resolve("experiments/inputs/benchmark-plans"))) {
      return s.findFirst().orElseThrow();
    }
  }

  @Test
  @DisplayName(
      "the same examples/ in two directories plan byte-identically; no absolute path is"
          + " recorded; each plan verifies in its own directory")
  void twoDirectories() throws Exception {
    Path a = planIn(tmp.resolve("cl1"));
    Path b = planIn(tmp.resolve("second-checkout/deeper"));
    assertThat(a.getFileName()).isEqualTo(b.getFileName());
    assertThat(Files.readAllBytes(b)).isEqualTo(Files.readAllBytes(a));
    String text = Files.readString(a, StandardCharsets.UTF_8);
    assertThat(text)
        .doesNotContain(tmp.toString())
        .doesNotContain(EXAMPLES.toString())
        .contains("\"path\": \"../examples/traces/example_trace.jsonl\"");
    JsonNode plan = Json.JSON.readTree(text);
    assertThat(plan.at("/provenance/clock").asString()).isEqualTo("SOURCE_DATE_EPOCH");
    assertThat(plan.at("/provenance/anchors/exp_root").asString()).isEqualTo("../..");
    // provenance a reviewer sees at once: examples recognised by content, pins
    assertThat(plan.at("/provenance/bundled_examples/0").toString())
        .isEqualTo(
            "{\"example\":\"examples/workload-trace.yaml\",\"pointer\":\"/user_workload/sha256\"}");
    assertThat(plan.at("/provenance/bundled_examples").size()).isEqualTo(5);
    assertThat(plan.at("/warnings").toString()).contains("bundled example(s)");
    assertThat(plan.at("/provenance/model_revision_pinned").asBoolean()).isFalse();
    assertThat(plan.at("/provenance/aiperf_image_pinning").asString()).isEqualTo("tag");
    assertThat(plan.at("/provenance/invocation/arguments").toString())
        .isEqualTo(
            "[\"--workload\",\"../examples/workload-trace.yaml\",\"--ledger\","
                + "\"../examples/deployment-ledger.yaml\",\"--question\","
                + "\"What TTFT does vllm-agg give the agent trace?\",\"--aiperf-version\",\"0.13.0\","
                + "\"--exp-root\",\".\"]");
    // the worked example of the series-hash recipe in the plan rules is this very plan
    String rules = Files.readString(Path.of("agent-docs/rules/execution/benchmark-plan.md"));
    String seriesId = plan.get("series_id").asString();
    assertThat(rules).contains("series ID\n`" + seriesId + "`");
    String identity =
        dev.benchplan.json.Sha256.hex(
            dev.benchplan.json.CanonicalJson.bytes(dev.benchplan.plan.SeriesIdentity.of(plan)));
    assertThat(rules).contains("`" + identity + "`");
    assertThat(seriesId).endsWith("-" + identity.substring(0, 8));
    for (Path p : List.of(a, b)) {
      var r = CommandHarness.run("verify", p.toString(), "--sha256", Sha256.ofFile(p)).expectOk();
      assertThat(r.out()).contains("verified: plan").contains("re-derived offline");
    }
  }

  @Test
  @DisplayName("a trace edited after planning: exit 1, the trace's SHA-256 pointer named")
  void traceEdited() throws Exception {
    Path plan = planIn(tmp);
    Files.writeString(
        tmp.resolve("examples/traces/example_trace.jsonl"),
        "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 5, \"hash_ids\": [1]}\n",
        java.nio.file.StandardOpenOption.APPEND);
    var r = CommandHarness.run("verify", plan.toString()).expectExit(1);
    assertThat(r.out())
        .contains(
            plan
                + " /workload/trace/sha256: the trace"
                + " ../examples/traces/example_trace.jsonl changed since planning");
  }

  @Test
  @DisplayName("a missing input is listed with its pointer; --format json gives the findings")
  void inputMissing() throws Exception {
    Path plan = planIn(tmp);
    Files.delete(tmp.resolve("examples/smoke_test_artifact.json"));
    var r = CommandHarness.run("verify", plan.toString(), "--format", "json").expectExit(1);
    JsonNode out = Json.JSON.readTree(r.out());
    assertThat(out.get("verified").asBoolean()).isFalse();
    assertThat(out.at("/findings/0/pointer").asString()).isEqualTo("/deployment/smoke_test/path");
    assertThat(out.at("/findings/0/message").asString()).contains("is missing");
  }

  @Test
  @DisplayName(
      "a plan edited in place (schema-valid, canonical, another seed): exit 1, plan_id"
          + " and the re-derived difference named")
  void editedInPlace() throws Exception {
    Path plan = planIn(tmp);
    String sha = Sha256.ofFile(plan);
    Files.writeString(plan, Files.readString(plan).replace("\"seed\": 100", "\"seed\": 7"));
    var r = CommandHarness.run("verify", plan.toString()).expectExit(1);
    assertThat(r.out())
        .contains(plan + " /plan_id: recorded")
        .contains(plan + " /experiment/seed: re-derived plan differs: recorded 7, re-derived 100");
    var withSha = CommandHarness.run("verify", plan.toString(), "--sha256", sha).expectExit(1);
    assertThat(withSha.out()).contains(plan + " /: SHA-256 is ");
  }

  @Test
  @DisplayName("a truncated plan, a non-JSON file, a missing path, a bad --sha256: exit 2")
  void badInput() throws Exception {
    Path plan = planIn(tmp);
    byte[] bytes = Files.readAllBytes(plan);
    Files.write(plan, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    assertThat(CommandHarness.run("verify", plan.toString()).expectExit(2).err())
        .contains(plan.toString())
        .contains("not valid JSON");
    Files.writeString(plan, "just text\n");
    assertThat(CommandHarness.run("verify", plan.toString()).expectExit(2).err())
        .contains("not valid JSON");
    CommandHarness.run("verify", tmp.resolve("nothing.json").toString()).expectExit(2);
    Files.write(plan, bytes);
    assertThat(CommandHarness.run("verify", plan.toString(), "--sha256", "abc").expectExit(2).err())
        .contains("--sha256 'abc'");
  }

  @Test
  @DisplayName(
      "a run directory: verified as collected; one flipped byte, one missing file, one"
          + " extra file: each named, exit 1")
  void runDirectory() throws Exception {
    Path plan = planIn(tmp);
    Path run = tmp.resolve("deploy/benchmark/runs/r1");
    Files.createDirectories(run.resolve("aiperf/artifacts"));
    Files.writeString(run.resolve("aiperf/artifacts/profile_export_aiperf.json"), "{\"a\": 1}\n");
    Files.writeString(run.resolve("aiperf/logs.txt"), "line one\nline two\n");
    // a run that measured nothing (error verdict, no summary kept): nothing to recompute
    RunRecords.of("s-1", plan.toString(), Sha256.ofFile(plan))
        .verdict("error")
        .exitReason("no-summary")
        .ineligible("RUN_ERROR: no summary")
        .write(run);
    Files.writeString(run.resolve("verdict.json"), "{\"verdict\": \"error\"}\n");
    StringBuilder manifest = new StringBuilder();
    for (String f :
        List.of(
            "aiperf/artifacts/profile_export_aiperf.json",
            "aiperf/logs.txt",
            "run.json",
            "verdict.json")) {
      manifest.append(Sha256.ofFile(run.resolve(f))).append("  ").append(f).append('\n');
    }
    Files.writeString(run.resolve("artifacts.sha256"), manifest);
    assertThat(CommandHarness.run("verify", run.toString()).expectOk().out())
        .contains("note: the verdict was not recomputed: the run measured nothing");

    byte[] log = Files.readAllBytes(run.resolve("aiperf/logs.txt"));
    log[3] ^= 1;
    Files.write(run.resolve("aiperf/logs.txt"), log);
    Files.delete(run.resolve("aiperf/artifacts/profile_export_aiperf.json"));
    Files.writeString(run.resolve("aiperf/extra.csv"), "x\n");
    var r = CommandHarness.run("verify", run.toString()).expectExit(1);
    assertThat(r.out())
        .contains(
            run
                + "/aiperf/artifacts/profile_export_aiperf.json /: listed in"
                + " artifacts.sha256 but missing")
        .contains(run + "/aiperf/logs.txt /: SHA-256 is ")
        .contains(run + "/aiperf/extra.csv /: present but not listed in artifacts.sha256");
    assertThat(r.out().lines().filter(l -> l.startsWith(run.toString()))).hasSize(3);
  }

  @Test
  @DisplayName("the plan_id recipe's worked example in the plan rules holds")
  void planIdWorkedExample() throws Exception {
    String rules = Files.readString(Path.of("agent-docs/rules/execution/benchmark-plan.md"));
    var doc =
        (tools.jackson.databind.node.ObjectNode)
            Json.JSON.readTree(
                "{\"experiment\":"
                    + " {\"seed\": 100, \"warmup_requests\": 0}, \"plan_id\": \"x\", \"series_id\":"
                    + " \"demo-20260101-0123abcd\"}");
    assertThat(rules).contains(doc.toString().replace(",", ", ").replace(":", ": "));
    assertThat(rules).contains("has plan_id `" + PlanVerifier.planId(doc) + "`");
  }

  @Test
  @DisplayName(
      "render writes benchmark/render-manifest.json (schema-valid); verify DEPLOY_ROOT"
          + " re-renders it byte for byte, and names an edited perf.yaml")
  void deployRoot() throws Exception {
    Path plan = planIn(tmp);
    Path deploy = Files.createDirectories(tmp.resolve("deploy"));
    CommandHarness.run(
            "render",
            "--plan",
            plan.toString(),
            "--plan-sha256",
            Sha256.ofFile(plan),
            "--deploy-root",
            deploy.toString())
        .expectOk();
    JsonNode manifest =
        Json.JSON.readTree(Files.readAllBytes(deploy.resolve("benchmark/render-manifest.json")));
    assertThat(
            dev.benchplan.json.SchemaValidator.bundled("render-manifest.schema.json")
                .validate(manifest))
        .isEmpty();
    assertThat(manifest.at("/plan/path").asString())
        .isEqualTo("../experiments/inputs/benchmark-plans/" + plan.getFileName());
    assertThat(manifest.at("/files/1/sha256").asString())
        .isEqualTo(Sha256.ofFile(deploy.resolve("benchmark/perf.yaml")));
    // perf.yaml names the plan relative to DEPLOY_ROOT, as the manifest does
    assertThat(Files.readString(deploy.resolve("benchmark/perf.yaml")))
        .contains(
            "benchplan.dev/plan-path: ../experiments/inputs/benchmark-plans/"
                + plan.getFileName()
                + "\n")
        .doesNotContain(tmp.toString());
    CommandHarness.run("verify", deploy.toString()).expectOk();

    Path perf = deploy.resolve("benchmark/perf.yaml");
    Files.writeString(perf, Files.readString(perf).replace("backoffLimit: 0", "backoffLimit: 3"));
    var r = CommandHarness.run("verify", deploy.toString()).expectExit(1);
    assertThat(r.out())
        .contains("/files/1/sha256: benchmark/perf.yaml hashes to")
        .contains("benchmark/perf.yaml line ")
        .contains("the bytes differ");
  }

  @Test
  @DisplayName("the packaged list of bundled examples is examples/ exactly (name and SHA-256)")
  void bundledExamplesList() throws Exception {
    StringBuilder expected = new StringBuilder();
    try (Stream<Path> s = Files.walk(EXAMPLES)) {
      for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
        expected
            .append(Sha256.ofFile(p))
            .append("  examples/")
            .append(EXAMPLES.relativize(p).toString().replace('\\', '/'))
            .append('\n');
      }
    }
    String packaged =
        Files.readString(
            Path.of(
                "src/main/resources/dev/benchplan/plan/"
                    + dev.benchplan.plan.BundledExamples.RESOURCE));
    assertThat(packaged.lines().sorted().toList())
        .isEqualTo(expected.toString().lines().sorted().toList());
  }

  @Test
  @DisplayName(
      "a checkout with its plan and DEPLOY_ROOT copied to two other directories: the same bytes,"
          + " no absolute path in them, and verify holds in each copy")
  void deployRootCopiedAcrossCheckouts() throws Exception {
    Path origin = tmp.resolve("origin");
    Path plan = planIn(origin);
    Path deploy = Files.createDirectories(origin.resolve("deploy"));
    CommandHarness.run(
            "render",
            "--plan",
            plan.toString(),
            "--plan-sha256",
            Sha256.ofFile(plan),
            "--deploy-root",
            deploy.toString())
        .expectOk();
    for (String name : List.of("benchmark/perf.yaml", "benchmark/render-manifest.json")) {
      assertThat(Files.readString(deploy.resolve(name))).doesNotContain(tmp.toString());
    }
    for (Path copy : List.of(tmp.resolve("cl1"), tmp.resolve("elsewhere/cl2"))) {
      TestFiles.copyTree(origin, copy);
      Path d = copy.resolve("deploy");
      assertThat(Files.readAllBytes(d.resolve("benchmark/perf.yaml")))
          .isEqualTo(Files.readAllBytes(deploy.resolve("benchmark/perf.yaml")));
      var r = CommandHarness.run("verify", d.toString()).expectOk();
      assertThat(r.out())
          .contains("verified: deploy_root " + d)
          .contains("re-rendered byte for byte");
    }
  }

  @Test
  @DisplayName(
      "a DEPLOY_ROOT rendered by an earlier benchplan (the Job program inline in perf.yaml):"
          + " hashes checked, the re-render skipped with that reason, an edit still a mismatch")
  void deployRootOfAnotherVersion() throws Exception {
    Path root = tmp.resolve("old");
    // the plan names its inputs relative to experiments/ (workload) and the checkout (examples/)
    TestFiles.copyTree(Path.of("src/test/resources/dev/benchplan/verify/old-job-script"), root);
    Path d = root.resolve("experiments/deploy/synthetic-grid-20261130-9039ab9f");
    assertThat(Files.readString(d.resolve("benchmark/perf.yaml"))).contains("- bash\n", "- -c\n");
    // the plan it names predates the gate tolerance field, so this version re-derives that plan
    // differently (exit 1, every finding on the plan); the rendered files themselves are no
    // mismatch
    var r = CommandHarness.run("verify", d.toString()).expectExit(1);
    assertThat(r.out().lines().filter(l -> l.startsWith("/") || l.contains(": ")))
        .filteredOn(l -> l.contains("benchmark/perf.yaml") || l.contains("aiperf-config.yaml"))
        .filteredOn(l -> !l.contains("re-render skipped") && !l.contains("another version"))
        .isEmpty();
    assertThat(r.out())
        .contains("re-derived plan differs")
        .contains("rendered by another version of benchplan (0.1.0-SNAPSHOT, commit 89346f8bd6c9)")
        .contains("perf.yaml carries the Job program inline")
        .contains("re-render skipped")
        .doesNotContain("re-rendered byte for byte");

    Path perf = d.resolve("benchmark/perf.yaml");
    Files.writeString(perf, Files.readString(perf).replace("backoffLimit: 0", "backoffLimit: 3"));
    assertThat(CommandHarness.run("verify", d.toString()).expectExit(1).out())
        .contains("/files/1/sha256: benchmark/perf.yaml hashes to");
  }
}
