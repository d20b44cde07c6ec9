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

  /** Exit 2, stderr exactly the one line {@code benchplan: message}, nothing written. */
  private void expectBlocker(CommandHarness.Result r, String message) throws Exception {
    r.expectError(2, message);
    assertThat(r.err().lines()).as("nothing else on stderr").hasSize(1);
    assertThat(r.out()).isEmpty();
    assertThat(snapshot(root)).isEqualTo(before);
  }

  /** What render says of a name that is not a DNS-1123 label. */
  private static String notDns1123(String option, String name) {
    return option
        + ": '"
        + name
        + "' is not a valid Kubernetes name: expected a DNS-1123 label (lowercase letters, digits"
        + " and '-', starting and ending with a letter or digit, at most 63 characters)";
  }

  /** What render says of an image that is neither a version tag nor a digest. */
  private static String notPinned(String where, String image) {
    return where
        + ": image '"
        + image
        + "' is not pinned: expected an exact version tag (never latest) or a digest,"
        + " e.g. nvcr.io/nvidia/ai-dynamo/aiperf:0.11.0";
  }

  @Test
  @DisplayName("a SHA-256 that does not match the plan")
  void wrongSha() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    String wrong = "ab".repeat(32);
    expectBlocker(
        render(plan.path(), wrong, root),
        plan.path()
            + ": SHA-256 is "
            + plan.sha256()
            + ", not "
            + wrong
            + " (--plan-sha256): the plan was edited or another file was named; expected the plan"
            + " exactly as it was written");
  }

  @Test
  @DisplayName("a SHA-256 that is not 64 hex characters")
  void malformedSha() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan.path(), "abc123", root),
        "--plan-sha256 'abc123': expected 64 hexadecimal characters");
  }

  @Test
  @DisplayName("a plan edited after it was hashed")
  void editedPlan() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    String original = Files.readString(plan.path());
    String text = original.replace("\"concurrency\": [\n      16", "\"concurrency\": [\n      64");
    assertThat(text).isNotEqualTo(original);
    Files.writeString(plan.path(), text);
    expectBlocker(
        render(plan),
        plan.path()
            + ": SHA-256 is "
            + Sha256.ofFile(plan.path())
            + ", not "
            + plan.sha256()
            + " (--plan-sha256): the plan was edited or another file was named; expected the plan"
            + " exactly as it was written");
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
        p
            + ": does not match schema benchmark-plan.schema.json:"
            + " /experiment/measurement_limit_s: must have a maximum value of 1800 [maximum]");
  }

  @Test
  @DisplayName("a plan file that is not JSON")
  void notJson() throws Exception {
    Path p = tmp.resolve("p.json");
    Files.writeString(p, "{\"schema_version\": \"1.0\",\n  oops\n}");
    expectBlocker(
        render(p, Sha256.ofFile(p), root),
        p
            + ":2:3: not valid JSON: unexpected character 'o'; expected a property name in double quotes");
  }

  @Test
  @DisplayName("a trace that changed since planning")
  void traceChanged() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan = PlanFixture.userTrace(trace, "t.jsonl").write(tmp.resolve("p.json"));
    String planned = Sha256.ofFile(trace);
    Files.writeString(
        trace,
        Files.readString(trace)
            + "{\"timestamp\": 9999, \"input_length\": 10, \"output_length\": 5}\n");
    expectBlocker(render(plan), traceChanged(trace, plan, planned));
  }

  @Test
  @DisplayName("a trace that changed since planning is refused even when it would come from a PVC")
  void traceChangedWithPvc() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("p.json"));
    String planned = Sha256.ofFile(trace);
    Files.writeString(trace, "{}\n");
    expectBlocker(
        render(plan, "--trace-source", "pvc:traces/t.jsonl"), traceChanged(trace, plan, planned));
  }

  private static String traceChanged(Path trace, PlanFixture.Written plan, String planned)
      throws Exception {
    return trace
        + ": SHA-256 is "
        + Sha256.ofFile(trace)
        + ", but "
        + plan.path()
        + " /workload/trace/sha256 recorded "
        + planned
        + ": the trace changed since planning; expected the planned file (plan again to use the"
        + " new one)";
  }

  @Test
  @DisplayName("a missing deploy root, and a deploy root that is a file")
  void missingDeployRoot() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    Path missing = tmp.resolve("nope");
    expectBlocker(
        render(plan.path(), plan.sha256(), missing),
        missing
            + ": deploy root does not exist or is not a directory: expected an existing"
            + " DEPLOY_ROOT folder");
    assertThat(Files.exists(missing)).isFalse();
    Path file = Files.writeString(tmp.resolve("file"), "x");
    expectBlocker(
        render(plan.path(), plan.sha256(), file),
        "Invalid value for option '--deploy-root': '"
            + file
            + "': not a directory (a file is there); expected a directory");
  }

  @Test
  @DisplayName("a real trace too large for a ConfigMap without --trace-source pvc:")
  void traceTooLarge() throws Exception {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    PlanFixture.Written plan =
        PlanFixture.userTrace(trace, trace.toString()).write(tmp.resolve("p.json"));
    String tooLarge =
        trace
            + ": the trace is "
            + Files.size(trace)
            + " bytes, over the 921600-byte ConfigMap budget: expected --trace-source"
            + " pvc:CLAIM/PATH naming a PVC that holds this file (a host path is never mounted)";
    expectBlocker(render(plan), tooLarge);
    expectBlocker(render(plan, "--trace-source", "configmap"), tooLarge);
  }

  @Test
  @DisplayName("a trace not readable here cannot travel in a ConfigMap")
  void traceNotReadable() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan = PlanFixture.userTrace(trace, "t.jsonl").write(tmp.resolve("p.json"));
    Files.delete(trace);
    expectBlocker(
        render(plan),
        trace
            + ": the trace named by "
            + plan.path()
            + " /workload/trace/path is not readable here, so it cannot travel in a ConfigMap:"
            + " expected the file, or --trace-source pvc:CLAIM/PATH");
    // from a PVC the pod checks the hash itself, so the render succeeds
    render(plan, "--trace-source", "pvc:traces/t.jsonl", "--artifacts-pvc", "results").expectOk();
  }

  @Test
  @DisplayName("invalid namespaces and job names")
  void invalidNames() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    for (String option : List.of("--namespace", "--job-name")) {
      for (String name : List.of("Bench_NS", "-bench", "n".repeat(64))) {
        expectBlocker(render(plan, option, name), notDns1123(option, name));
      }
    }
  }

  @Test
  @DisplayName(
      "smoke evidence ages after planning: render applies plan's rule again to the ledger it binds"
          + " (15 min old under SOURCE_DATE_EPOCH): past --smoke-max-age 5m exit 2, nothing"
          + " written; within 1h it renders")
  void smokeAgedSincePlanning() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic().requestCount(64).warmup(0).write(tmp.resolve("aged.json"));
    Path ledgers = tmp.resolve("ledgers");
    expectBlocker(
        render(plan, "--smoke-max-age", "5m"),
        "ledger "
            + ledgers.resolve("aged-ledger.json")
            + ": smoke test artifact "
            + ledgers.resolve("aged-smoke.json")
            + " /timestamp 2026-11-30T10:15:02.118Z is 897 s old, past the limit of 300 s"
            + " (SMOKE_STALE, rule: execution/deployment-ledger.md): run `benchplan smoke` against"
            + " the endpoint again and record the new artifact in the ledger (or raise the limit"
            + " with --smoke-max-age); nothing created");
    render(plan, "--smoke-max-age", "1h").expectOk();
  }

  @Test
  @DisplayName(
      "one run whose estimated artifacts exceed the pod-log bound: refused with the basis and the fix, nothing"
          + " written; --artifacts-pvc renders it onto the claim and says how the tree comes back; both claim options refused")
  void singleRunPastLogBound() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic().requestCount(20000).warmup(0).write(tmp.resolve("big.json"));
    expectBlocker(render(plan), pastLogBound(plan, "1 measured run(s)", "75.9", "20000", "3072"));
    expectBlocker(
        render(plan, "--artifacts-pvc", "a", "--artifacts", "pvc:b"),
        "options --artifacts-pvc and --artifacts: both name the artifact claim: expected one of"
            + " them");
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
    expectBlocker(render(plan), pastLogBound(plan, "3 measured run(s)", "106.7", "640", "15616"));
    expectBlocker(
        render(plan, "--load-point", "48"),
        "--load-point '48': not a concurrency point of "
            + plan.path()
            + " /experiment/concurrency: expected one of [16, 32, 64]");
    PlanFixture.Written rates =
        PlanFixture.userStatic().openLoop("poisson", 1.5, 3.0).write(tmp.resolve("r.json"));
    expectBlocker(
        render(rates, "--load-point", "fast"),
        "--load-point 'fast': not a number: expected one of [1.5, 3]");
    render(rates, "--load-point", "3.00").expectOk();
  }

  /** The refusal of artifacts estimated past the pod-log channel, with its basis and fixes. */
  private static String pastLogBound(
      PlanFixture.Written plan, String runs, String mib, String requests, String recordBytes) {
    return plan.path()
        + " /experiment: the artifacts of "
        + runs
        + " are estimated at "
        + mib
        + " MiB ("
        + requests
        + " request(s) per run x "
        + recordBytes
        + " B per record (measured on the real Qwen3-0.6B sweep), plus inputs.json and 256 KiB of"
        + " summary/telemetry per run), more than the pod-log channel carries (12.0 MiB: kubelets"
        + " rotate container logs at 10 MiB and the logs API serves only the current file):"
        + " expected --artifacts-pvc CLAIM (AIPerf writes to the claim, collector pods bring the"
        + " tree back verified), --load-point to measure one point per Job, or fewer requests";
  }

  @Test
  @DisplayName("--load-point on a fixed-schedule replay")
  void loadPointOnReplay() throws Exception {
    Path trace = Traces.write(tmp.resolve("t.jsonl"), 10);
    PlanFixture.Written plan = PlanFixture.userTrace(trace, "t.jsonl").write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan, "--load-point", "8"),
        "--load-point '8': "
            + plan.path()
            + " /experiment/measurement_mode is fixed_schedule, which replays the trace's own"
            + " timing: expected no --load-point");
  }

  @Test
  @DisplayName("unpinned or mismatched images")
  void images() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    for (String image :
        List.of("nvcr.io/nvidia/ai-dynamo/aiperf:latest", "nvcr.io/nvidia/ai-dynamo/aiperf")) {
      expectBlocker(render(plan, "--image", image), notPinned("--image", image));
    }
    expectBlocker(
        render(plan, "--image", "registry.local:5000/aiperf:0.10.0"),
        "--image: image tag 0.10.0 differs from the plan's AIPerf pin 0.11.0 ("
            + plan.path()
            + " /aiperf/version): expected an image of the pinned version");
    PlanFixture.Written floating =
        PlanFixture.userStatic().image("mirror.local/aiperf").write(tmp.resolve("f.json"));
    expectBlocker(
        render(floating), notPinned(floating.path() + " /aiperf/image", "mirror.local/aiperf"));
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
    expectBlocker(
        render(plan),
        plan.path()
            + ": /objectives/goodput: AIPerf 0.1.1 has no --goodput (it appeared in 0.2.0):"
            + " expected no goodput SLOs, or an AIPerf pin >= 0.2.0");
  }

  @Test
  @DisplayName("malformed --artifacts and --trace-source, and a trace source for a synthetic plan")
  void badSpecs() throws Exception {
    PlanFixture.Written plan = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan, "--artifacts", "/mnt/results"),
        "--artifacts '/mnt/results': expected pvc:CLAIM or pvc:CLAIM/SUBPATH");
    expectBlocker(
        render(plan, "--artifacts", "pvc:results/../etc"),
        "--artifacts 'pvc:results/../etc': subpath '../etc': expected a relative path inside the"
            + " volume (no leading '/', no '.' or '..' segments)");
    expectBlocker(
        render(plan, "--artifacts", "pvc:Results"),
        "--artifacts 'pvc:Results': claim 'Results' is not a valid PVC name: expected a DNS-1123"
            + " name");
    expectBlocker(
        render(plan, "--trace-source", "hostpath:/data/t.jsonl"),
        "--trace-source 'hostpath:/data/t.jsonl': expected configmap or pvc:CLAIM/PATH");
    expectBlocker(
        render(plan, "--trace-source", "pvc:traces/t.jsonl"),
        "--trace-source pvc:traces/t.jsonl: "
            + plan.path()
            + " /workload/source is user_static, which replays no trace: expected no"
            + " --trace-source");
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
    expectBlocker(
        render(plan),
        plan.path()
            + ": /workload/trace: absent, but measurement_mode is fixed_schedule: expected the"
            + " trace to replay (workload.source user_trace)");
  }

  @Test
  @DisplayName("an endpoint URL with a path")
  void endpointWithPath() throws Exception {
    PlanFixture.Written plan =
        PlanFixture.userStatic()
            .endpointUrl("http://svc.ns:8000/v1/chat/completions")
            .write(tmp.resolve("p.json"));
    expectBlocker(
        render(plan),
        plan.path()
            + ": /deployment/endpoint_url: 'http://svc.ns:8000/v1/chat/completions': expected a"
            + " base URL without a path, query or fragment");
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
