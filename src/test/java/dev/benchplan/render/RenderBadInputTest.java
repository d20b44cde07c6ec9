package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.testing.SharedData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input exits 2 with one line on stderr naming the file or option, the field and what was
 * expected, and writes nothing: a previous render's files stay byte for byte.
 */
class RenderBadInputTest {
  @TempDir Path tmp;
  Path root;
  Map<String, String> before;

  @BeforeEach
  void previousRender() throws Exception {
    root = Files.createDirectories(tmp.resolve("deploy"));
    PlanFixture.Written ok = PlanFixture.userStatic().write(tmp.resolve("ok.json"));
    Rendered.render(ok, root);
    before = snapshot(root);
    assertThat(before).containsKeys("benchmark/perf.yaml", "benchmark/aiperf-config.yaml");
  }

  private CommandHarness.Result render(PlanFixture.Written plan, String... extra) {
    return render(plan.path(), plan.sha256(), root, extra);
  }

  private CommandHarness.Result render(Path plan, String sha, Path deployRoot, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "render",
                "--plan",
                plan.toString(),
                "--plan-sha256",
                sha,
                "--deploy-root",
                deployRoot.toString()));
    args.addAll(List.of(extra));
    return CommandHarness.run(args.toArray(String[]::new));
  }

  /** Exit 2, a single stderr line with every fragment, nothing written. */
  private void expectBlocker(CommandHarness.Result r, String... fragments) throws Exception {
    r.expectExit(2);
    assertThat(r.out()).isEmpty();
    String err = r.err().strip();
    assertThat(err).startsWith("benchplan: ").doesNotContain("\n");
    assertThat(err).contains(fragments);
    assertThat(snapshot(root)).isEqualTo(before);
  }

  @Test
  @DisplayName("a SHA-256 that does not match the plan")
  void wrongSha() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    String wrong = "ab".repeat(32);
    expectBlocker(
        render(plan.path(), wrong, root),
        plan.path().toString(),
        "SHA-256 is " + plan.sha256(),
        wrong);
  }

  @Test
  @DisplayName("a SHA-256 that is not 64 hex characters")
  void malformedSha() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    expectBlocker(render(plan.path(), "abc123", root), "--plan-sha256", "64 hexadecimal");
  }

  @Test
  @DisplayName("a plan edited after it was hashed")
  void editedPlan() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    String original = Files.readString(plan.path());
    String text = original.replace("\"concurrency\": [\n      16", "\"concurrency\": [\n      64");
    assertThat(text).isNotEqualTo(original);
    Files.writeString(plan.path(), text);
    expectBlocker(render(plan), "SHA-256 is " + Sha256.ofFile(plan.path()), "edited");
  }

  @Test
  @DisplayName("a plan that hashes right but breaks its schema")
  void schemaViolation() throws Exception {
    PlanFixture f = PlanFixture.userStatic();
    f.json().withObject("/experiment").put("measurement_limit_s", 7200);
    Path p = tmp.resolve("p.json");
    Files.write(p, dev.benchplan.json.CanonicalJson.bytes(f.json()));
    expectBlocker(
        render(p, Sha256.ofFile(p), root),
        "/experiment/measurement_limit_s",
        "benchmark-plan.schema.json");
  }

  @Test
  @DisplayName("a plan file that is not JSON")
  void notJson() throws Exception {
    Path p = tmp.resolve("p.json");
    Files.writeString(p, "{\"schema_version\": \"1.0\",\n  oops\n}");
    expectBlocker(render(p, Sha256.ofFile(p), root), p + ":2:", "not valid JSON");
  }

  @Test
  @DisplayName("a trace that changed since planning")
  void traceChanged() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan = PlanFixture.userTrace(trace, "t.jsonl").write(tmp.resolve("p.json"));
    Files.writeString(
        trace,
        Files.readString(trace)
            + "{\"timestamp\": 9999, \"input_length\": 10, \"output_length\": 5}\n");
    expectBlocker(
        render(plan), trace.toString(), "/workload/trace/sha256", "changed since planning");
  }

  @Test
  @DisplayName("a trace that changed since planning is refused even when it would come from a PVC")
  void traceChangedWithPvc() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("p.json"));
    Files.writeString(trace, "{}\n");
    expectBlocker(render(plan, "--trace-source", "pvc:traces/t.jsonl"), "changed since planning");
  }

  @Test
  @DisplayName("a missing deploy root, and a deploy root that is a file")
  void missingDeployRoot() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    Path missing = tmp.resolve("nope");
    expectBlocker(
        render(plan.path(), plan.sha256(), missing),
        missing.toString(),
        "deploy root does not exist");
    assertThat(Files.exists(missing)).isFalse();
    Path file = Files.writeString(tmp.resolve("file"), "x");
    expectBlocker(render(plan.path(), plan.sha256(), file), "not a directory");
  }

  @Test
  @DisplayName("a real trace too large for a ConfigMap without --trace-source pvc:")
  void traceTooLarge() throws Exception {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan),
        trace.toString(),
        Files.size(trace) + " bytes",
        "--trace-source pvc:CLAIM/PATH");
    expectBlocker(render(plan, "--trace-source", "configmap"), "ConfigMap budget");
  }

  @Test
  @DisplayName("a trace not readable here cannot travel in a ConfigMap")
  void traceNotReadable() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan = PlanFixture.userTrace(trace, "t.jsonl").write(tmp.resolve("p.json"));
    Files.delete(trace);
    expectBlocker(render(plan), "not readable here", "--trace-source pvc:CLAIM/PATH");
    // from a PVC the pod checks the hash itself, so the render succeeds
    render(plan, "--trace-source", "pvc:traces/t.jsonl", "--artifacts-pvc", "results").expectOk();
  }

  @Test
  @DisplayName("invalid namespaces and job names")
  void invalidNames() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    expectBlocker(render(plan, "--namespace", "Bench_NS"), "--namespace", "'Bench_NS'", "DNS-1123");
    expectBlocker(render(plan, "--namespace", "n".repeat(64)), "--namespace", "at most 63");
    expectBlocker(render(plan, "--job-name", "-bench"), "--job-name", "DNS-1123");
    expectBlocker(render(plan, "--job-name", "j".repeat(64)), "--job-name");
  }

  @Test
  @DisplayName(
      "smoke evidence ages after planning: render applies plan's rule again to the ledger it binds"
          + " (15 min old under SOURCE_DATE_EPOCH): past --smoke-max-age 5m exit 2, nothing"
          + " written; within 1h it renders")
  void smokeAgedSincePlanning() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic().requestCount(64).warmup(0).write(tmp.resolve("aged.json"));
    expectBlocker(
        render(plan, "--smoke-max-age", "5m"),
        "smoke test artifact ",
        " /timestamp 2026-11-30T10:15:02.118Z is 897 s old, past the limit of 300 s (SMOKE_STALE,"
            + " rule: execution/deployment-ledger.md)",
        "--smoke-max-age",
        "nothing created");
    render(plan, "--smoke-max-age", "1h").expectOk();
  }

  @Test
  @DisplayName(
      "one run whose estimated artifacts exceed the pod-log bound: refused with the basis and the fix, nothing"
          + " written; --artifacts-pvc renders it onto the claim and says how the tree comes back; both claim options refused")
  void singleRunPastLogBound() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic().requestCount(20000).warmup(0).write(tmp.resolve("big.json"));
    expectBlocker(
        render(plan),
        "/experiment",
        "1 measured run(s)",
        "20000 request(s) per run x",
        "B per record (measured on the real Qwen3-0.6B sweep)",
        "pod-log channel carries (12.0 MiB",
        "--artifacts-pvc CLAIM");
    expectBlocker(
        render(plan, "--artifacts-pvc", "a", "--artifacts", "pvc:b"),
        "--artifacts-pvc",
        "--artifacts");
    var ok = render(plan, "--artifacts-pvc", "bench-artifacts").expectOk();
    assertThat(ok.out())
        .contains("artifacts estimated ")
        .contains(
            "beyond the pod-log channel: written to"
                + " pvc:bench-artifacts, brought back by collector pods");
    String perf = java.nio.file.Files.readString(tmp.resolve("deploy/benchmark/perf.yaml"));
    assertThat(perf)
        .contains("claimName: bench-artifacts")
        .contains("benchplan.dev/artifacts: pvc:bench-artifacts");
    PlanFixture.Written small =
        PlanFixture.userStatic().requestCount(64).warmup(0).write(tmp.resolve("small.json"));
    assertThat(render(small).expectOk().out())
        .contains("shipped back through the pod log (verified)");
  }

  @Test
  @DisplayName(
      "a grid whose artifacts cannot travel the pod log is refused with the fix; --load-point must name a point")
  void gridNeedsLoadPoint() throws Exception {
    PlanFixture.Written plan = PlanFixture.recipeProxy().write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan),
        "/experiment",
        "3 measured run(s)",
        "estimated at",
        "MiB",
        "pod-log channel carries (12.0 MiB",
        "--artifacts-pvc CLAIM",
        "--load-point");
    expectBlocker(render(plan, "--load-point", "48"), "--load-point '48'", "[16, 32, 64]");
    PlanFixture.Written rates =
        PlanFixture.userStatic().openLoop("poisson", 1.5, 3.0).write(tmp.resolve("r.json"));
    expectBlocker(render(rates, "--load-point", "fast"), "not a number");
    render(rates, "--load-point", "3.00").expectOk();
  }

  @Test
  @DisplayName("--load-point on a fixed-schedule replay")
  void loadPointOnReplay() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan = PlanFixture.userTrace(trace, "t.jsonl").write(tmp.resolve("p.json"));
    expectBlocker(render(plan, "--load-point", "8"), "fixed_schedule", "expected no --load-point");
  }

  @Test
  @DisplayName("unpinned or mismatched images")
  void images() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan, "--image", "nvcr.io/nvidia/ai-dynamo/aiperf:latest"), "--image", "not pinned");
    expectBlocker(render(plan, "--image", "nvcr.io/nvidia/ai-dynamo/aiperf"), "not pinned");
    expectBlocker(
        render(plan, "--image", "registry.local:5000/aiperf:0.10.0"), "0.10.0", "pin 0.11.0");
    PlanFixture.Written floating =
        PlanFixture.userStatic().image("mirror.local/aiperf").write(tmp.resolve("f.json"));
    expectBlocker(render(floating), "/aiperf/image", "not pinned");
    String digest = "registry.local:5000/aiperf@sha256:" + "a".repeat(64);
    render(plan, "--image", digest).expectOk();
  }

  @Test
  @DisplayName("goodput SLOs on an AIPerf without --goodput")
  void goodputTooOld() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic()
            .aiperf("0.1.1")
            .goodput(Map.of("time_to_first_token", 200.0))
            .write(tmp.resolve("p.json"));
    expectBlocker(render(plan), "/objectives/goodput", "AIPerf 0.1.1 has no --goodput", "0.2.0");
  }

  @Test
  @DisplayName("malformed --artifacts and --trace-source, and a trace source for a synthetic plan")
  void badSpecs() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    expectBlocker(render(plan, "--artifacts", "/mnt/results"), "--artifacts", "pvc:CLAIM");
    expectBlocker(render(plan, "--artifacts", "pvc:results/../etc"), "no '.' or '..'");
    expectBlocker(render(plan, "--artifacts", "pvc:Results"), "not a valid PVC name");
    expectBlocker(
        render(plan, "--trace-source", "hostpath:/data/t.jsonl"),
        "--trace-source",
        "pvc:CLAIM/PATH");
    expectBlocker(
        render(plan, "--trace-source", "pvc:traces/t.jsonl"), "/workload/source", "user_static");
  }

  @Test
  @DisplayName("a fixed-schedule plan without a trace")
  void fixedScheduleWithoutTrace() throws Exception {
    PlanFixture f = PlanFixture.userStatic();
    f.json()
        .withObject("/experiment")
        .put("measurement_mode", "fixed_schedule")
        .putNull("concurrency");
    PlanFixture.Written plan = f.write(tmp.resolve("p.json"));
    expectBlocker(render(plan), "/workload/trace", "fixed_schedule");
  }

  @Test
  @DisplayName("an endpoint URL with a path")
  void endpointWithPath() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic()
            .endpointUrl("http://svc.ns:8000/v1/chat/completions")
            .write(tmp.resolve("p.json"));
    expectBlocker(render(plan), "/deployment/endpoint_url", "without a path");
  }

  private static Map<String, String> snapshot(Path root) throws Exception {
    Map<String, String> files = new LinkedHashMap<>();
    for (String rel : Rendered.tree(root)) {
      Path p = root.resolve(rel);
      files.put(
          rel,
          Files.isRegularFile(p)
              ? new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
              : "<dir>");
    }
    return files;
  }
}
