package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.kubetest.RealEngine;
import dev.benchplan.testing.Coreutils;
import dev.benchplan.testing.Launcher;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The real engine end to end, through the packaged CLI ({@code bin/benchplan}) with nothing edited
 * by hand: a real smoke artifact of the real llama-server, a ledger and workload naming the tiny
 * model and its tokenizer, {@code plan --aiperf-version 0.11.0}, {@code render}, {@code run} on the
 * real control plane where the kubelet stand-in executes the rendered Job's own container with
 * AIPerf 0.11.0 in its chroot against that llama-server ({@link PodExecution#realEngine}); then
 * {@code gate}, {@code verify}, {@code analyze} and {@code compare} of what the real engine wrote;
 * and the PVC artifact path ({@code render --artifacts-pvc}), collector pods on the real engine.
 * Real numbers vary: structure, eligibility, verdict consistency and checksums are asserted, never
 * a figure.
 */
@KubeTestEnv
@Tag("real-engine")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealEngineIT {
  private static final Duration CLI_TIMEOUT = Duration.ofMinutes(30);
  private static RealEngine engine;
  private static FakeKubelet kubelet;
  private static KubernetesClient client;
  private static final String CLAIM = "bench-artifacts";
  private static Path kubeconfig;
  private static Path inputs;
  private static String namespace;
  private static final Map<String, Path> RUNS = new HashMap<>();
  private static final Map<String, Duration> WALL = new HashMap<>();
  private static final List<String> CLIENT_BOUND = new ArrayList<>();
  private static final Map<String, JsonNode> PLANS = new HashMap<>();

  // kept when a test fails: the pods' work folders hold AIPerf's own log and artifacts
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path work;

  @BeforeAll
  static void environment(KubeTestContext kube, KubernetesClient client) throws Exception {
    engine = RealEngine.require();
    namespace = kube.namespace();
    RealEngineIT.client = client;
    kubelet = RunCluster.start(kube, client);
    kubeconfig = kube.writeKubeconfig(work.resolve("kubeconfig"), kube.cluster().adminToken());
    inputs = Files.createDirectories(work.resolve("inputs"));
    // the candidate's record, as an agent would write it: a real smoke test of the real endpoint
    Launcher.Run smoke =
        cli(
            "smoke",
            "--url",
            engine.endpointUrl().toString(),
            "--model",
            engine.model(),
            "--out",
            inputs.resolve("smoke.json").toString());
    assertThat(smoke.exit()).as(smoke.err()).isZero();
    Files.copy(Path.of("examples", "dgd.yaml"), inputs.resolve("dgd.yaml"));
    Files.writeString(inputs.resolve("ledger.yaml"), ledger(), StandardCharsets.UTF_8);
  }

  /**
   * The deployment ledger: the tiny model behind the DGD's frontend Service (llama-server's port).
   */
  private static String ledger() throws IOException {
    return String.join(
        "\n",
        "schema_version: \"1\"",
        "dgd_name: " + RunFixture.DGD,
        "kube_context: benchplan-real-engine",
        "namespace: " + namespace,
        "applied_dgd:",
        "  path: dgd.yaml",
        "  sha256: " + Sha256.hex(Files.readAllBytes(inputs.resolve("dgd.yaml"))),
        "frontend:",
        // the stand-in node resolves every Service to the host's loopback (ChrootContainer)
        "  service: " + RunFixture.DGD + "-frontend",
        "  port: " + engine.port(),
        "served_model: " + engine.model(),
        "tokenizer: " + engine.tokenizer(),
        "gpus:",
        "  - gpu_type: H100-SXM5-80GB",
        "    gpu_count: 1",
        "max_context_length: 1024",
        "smoke_test:",
        "  artifact_path: smoke.json",
        "  sha256: " + Sha256.hex(Files.readAllBytes(inputs.resolve("smoke.json"))),
        "  success: true",
        "secrets: []",
        "notes: the real-engine test tier's llama-server with the tiny model",
        "");
  }

  /** A workload of the tiny model at {@code concurrency}, sizes the rules accept. */
  private static Path workload(String name, String concurrency) throws IOException {
    String dgdSha = Sha256.hex(Files.readAllBytes(inputs.resolve("dgd.yaml")));
    String text =
        String.join(
            "\n",
            "schema_version: \"1\"",
            "profile:",
            "  name: tiny-chat",
            "  type: chat",
            "  description: the real-engine tier's chat workload on the tiny model",
            "model:",
            "  source: " + engine.model(),
            "  revision: null",
            "hardware:",
            "  - gpu_type: H100-SXM5-80GB",
            "    gpu_count: 1",
            "kubernetes:",
            "  kube_context: benchplan-real-engine",
            "  namespace: " + namespace,
            "  storage_class: null",
            "deployment:",
            "  dgd_path: dgd.yaml",
            "  dgd_sha256: " + dgdSha,
            "  origin: user",
            "  origin_source: dgd.yaml",
            "traffic:",
            "  input_tokens: 32",
            // 32 tokens of the tier's model take the server ~0.3 s on an idle core, far more than
            // AIPerf's client spends on their stream (aiperf-test-env.sh MODEL_ARGS)
            "  output_tokens: 32",
            "  concurrency: " + concurrency,
            // a gated percentile needs >= 100 measured requests (plan rule /samples)
            "  request_count: 100",
            "objectives:",
            "  ttft_ms_p95_max: 60000",
            "  itl_ms_p95_max: 10000",
            "  output_tput_per_gpu_min: 1",
            "artifacts:",
            "  supporting_traces: []",
            "notes: generated by RealEngineIT",
            "");
    Path p = inputs.resolve(name + ".yaml");
    Files.writeString(p, text, StandardCharsets.UTF_8);
    return p;
  }

  /**
   * plan -> render -> run through bin/benchplan; returns the run directory. The Job's pods are
   * executed on the real engine.
   */
  private static Path planRenderRun(String name, String concurrency, String... planFlags)
      throws Exception {
    Instant t0 = Instant.now();
    return renderRun(name, plan(name, concurrency, planFlags), t0);
  }

  /** plan through bin/benchplan; returns its JSON output (kept in {@link #PLANS}). */
  private static JsonNode plan(String name, String concurrency, String... planFlags)
      throws Exception {
    Path w = workload(name, concurrency);
    List<String> planArgs =
        new ArrayList<>(
            List.of(
                "plan",
                "--workload",
                w.toString(),
                "--ledger",
                inputs.resolve("ledger.yaml").toString(),
                "--question",
                "What does the tiny model sustain on the real engine?",
                "--aiperf-version",
                engine.aiperfVersion(),
                "--exp-root",
                work.resolve("exp").toString(),
                "--series-id",
                "real-engine-" + name,
                "--format",
                "json"));
    planArgs.addAll(List.of(planFlags));
    // the plan's clock in whole seconds, as a recorded plan has it: verify re-derives the plan
    // from what it recorded, and a sub-second system clock re-derives the smoke age differently
    Launcher.Run plan =
        cliWith(
            Map.of("SOURCE_DATE_EPOCH", String.valueOf(Instant.now().getEpochSecond())),
            planArgs.toArray(String[]::new));
    assertThat(plan.exit()).as(plan.err() + plan.out()).isZero();
    JsonNode p = Json.JSON.readTree(plan.out());
    PLANS.put(name, p);
    return p;
  }

  /** render -> run of a plan already made; returns the run directory. */
  private static Path renderRun(String name, JsonNode p, Instant t0) throws Exception {
    return renderRun(
        name, p, t0, List.of(), PodExecution.realEngine(work.resolve("pods-" + name), engine));
  }

  /**
   * render (with {@code renderFlags}) -> run of a plan already made, the Job's pods executed per
   * {@code exec}; returns the run directory.
   */
  private static Path renderRun(
      String name, JsonNode p, Instant t0, List<String> renderFlags, PodExecution exec)
      throws Exception {
    Path deployRoot = Files.createDirectories(work.resolve("deploy-" + name));
    List<String> renderArgs =
        new ArrayList<>(
            List.of(
                "render",
                "--plan",
                p.get("plan_path").asString(),
                "--plan-sha256",
                p.get("sha256").asString(),
                "--deploy-root",
                deployRoot.toString(),
                "--namespace",
                namespace,
                "--format",
                "json"));
    renderArgs.addAll(renderFlags);
    Launcher.Run render = cli(renderArgs.toArray(String[]::new));
    assertThat(render.exit()).as(render.err() + render.out()).isZero();
    JsonNode r = Json.JSON.readTree(render.out());
    kubelet.when(
        FakeKubelet.labelled("job-name", r.get("job_name").asString()), PodScript.execute(exec));
    Launcher.Run run =
        cli("run", "--deploy-root", deployRoot.toString(), "--timeout", "25m", "--format", "json");
    JsonNode out = Json.JSON.readTree(run.out());
    Path runDir = Path.of(out.path("run_dir").asString());
    JsonNode verdict = json(runDir.resolve("verdict.json"));
    // the exit code is the verdict's: 0 pass, 1 a gate failed, 3 an error (client bound only:
    // assertEligibleOrClientBound)
    String v = verdict.path("verdict").asString();
    assertThat(run.exit())
        .as(run.err() + run.out())
        .isEqualTo("pass".equals(v) ? 0 : "fail".equals(v) ? 1 : 3);
    WALL.put(name, Duration.between(t0, Instant.now()));
    RUNS.put(name, runDir);
    System.err.println(
        "RealEngineIT "
            + name
            + ": "
            + WALL.get(name).toSeconds()
            + " s, verdict "
            + v
            + ", eligible "
            + json(runDir.resolve("run.json")).path("eligible").asBoolean()
            + " ("
            + runDir
            + ")");
    return runDir;
  }

  /**
   * Whether the run is eligible as evidence. A real run on a shared machine may be judged client
   * bound (the load generator starved of CPU by the machine's other work): then it must be that and
   * nothing else — an error verdict carrying the client_bound finding, ineligible only for having
   * no valid measurement. Any other reason fails the test.
   */
  private static boolean assertEligibleOrClientBound(Path runDir) throws IOException {
    JsonNode run = json(runDir.resolve("run.json"));
    if (run.path("eligible").asBoolean()) {
      assertThat(run.path("ineligible_reasons")).isEmpty();
      return true;
    }
    JsonNode verdict = json(runDir.resolve("verdict.json"));
    assertThat(verdict.path("verdict").asString())
        .as("an ineligible real run: " + run.path("ineligible_reasons"))
        .isEqualTo("error");
    assertThat(verdict.toString()).as(verdict.path("message").asString()).contains("client_bound");
    for (JsonNode r : run.path("ineligible_reasons")) {
      assertThat(r.asString()).startsWith("RUN_NOT_MEASURED");
    }
    CLIENT_BOUND.add(runDir.getFileName().toString());
    return false;
  }

  private static Launcher.Run cli(String... args) throws Exception {
    return cliWith(Map.of(), args);
  }

  private static Launcher.Run cliWith(Map<String, String> extra, String... args) throws Exception {
    Map<String, String> env = new HashMap<>(extra);
    env.put("KUBECONFIG", kubeconfig == null ? "" : kubeconfig.toString());
    // the real engine runs now: the build's fixed SOURCE_DATE_EPOCH (for examples/) does not apply
    return Launcher.run(
        Path.of("bin", "benchplan").toAbsolutePath(),
        Files.createDirectories(work.resolve("scratch")),
        env,
        CLI_TIMEOUT,
        List.of("SOURCE_DATE_EPOCH"),
        args);
  }

  private static JsonNode json(Path p) throws IOException {
    return Json.JSON.readTree(Files.readAllBytes(p));
  }

  /** What every real run directory must hold: AIPerf 0.11's own files, verified by coreutils. */
  private static void assertRealRunDir(Path runDir, int measuredRuns) throws Exception {
    JsonNode run = json(runDir.resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run))
        .as(run.toString())
        .isEmpty();
    assertEligibleOrClientBound(runDir);
    assertThat(run.at("/aiperf/export_version").asString()).isEqualTo(engine.aiperfVersion());
    Coreutils.sha256sumCheck(runDir);
    String manifest = Files.readString(runDir.resolve("artifacts.sha256"));
    List<Path> records;
    try (Stream<Path> s = Files.walk(runDir.resolve("aiperf"))) {
      records = s.filter(f -> f.getFileName().toString().equals("profile_export.jsonl")).toList();
    }
    assertThat(records).hasSize(measuredRuns);
    for (Path rec : records) {
      Path dir = rec.getParent();
      // AIPerf 0.11's own files, the csv it writes unasked among them, every one in the manifest
      for (String f :
          List.of(
              "profile_export.jsonl",
              "profile_export_aiperf.json",
              "profile_export_aiperf.csv",
              "inputs.json")) {
        assertThat(dir.resolve(f)).exists();
        assertThat(manifest).contains(runDir.relativize(dir.resolve(f)).toString());
      }
      List<String> lines = Files.readAllLines(rec);
      assertThat(lines).hasSize(100);
      JsonNode first = Json.JSON.readTree(lines.get(0));
      assertThat(first.at("/metadata/benchmark_phase").asString()).isEqualTo("profiling");
      assertThat(first.at("/metrics/time_to_first_token/unit").asString()).isEqualTo("ms");
      JsonNode summary = json(dir.resolve("profile_export_aiperf.json"));
      assertThat(summary.path("aiperf_version").asString()).isEqualTo(engine.aiperfVersion());
      assertThat(summary.at("/input_config/models/items/0/name").asString())
          .isEqualTo(engine.model());
      assertThat(summary.at("/input_config/tokenizer/name").asString())
          .isEqualTo(engine.tokenizer());
    }
  }

  @Test
  @Order(1)
  @DisplayName(
      "one load point: plan (AIPerf 0.11.0 pinned) -> render -> run on the real engine -> gate -> verify")
  void singlePoint() throws Exception {
    Path runDir = planRenderRun("single", "[2]");
    assertRealRunDir(runDir, 1);
    JsonNode verdict = json(runDir.resolve("verdict.json"));
    // gate of the kept run directory (flags: gate has no plan) judges the client load as run did
    Launcher.Run gate =
        cli(
            "gate",
            "--results",
            runDir.toString(),
            "--min-throughput",
            "1",
            "--max-ttft-p99",
            "60000",
            "--format",
            "json");
    String gated = Json.JSON.readTree(gate.out()).path("verdict").asString();
    assertThat(gate.exit())
        .as(gate.err() + gate.out())
        .isEqualTo("pass".equals(gated) ? 0 : "fail".equals(gated) ? 1 : 3);
    assertThat("error".equals(gated))
        .as("gate and run agree on the client load: " + gate.out())
        .isEqualTo("error".equals(verdict.path("verdict").asString()));
    Launcher.Run verify = cli("verify", runDir.toString(), "--format", "json");
    assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
  }

  @Test
  @Order(2)
  @DisplayName(
      "a grid [1, 2, 4] in one Job: three real AIPerf runs, one verdict per point, verified")
  void grid() throws Exception {
    Path runDir = planRenderRun("grid", "[1, 2, 4]");
    assertRealRunDir(runDir, 3);
    JsonNode verdict = json(runDir.resolve("verdict.json"));
    assertThat(verdict.get("runs")).hasSize(3);
    boolean allPass = true;
    for (JsonNode r : verdict.get("runs")) {
      assertThat(r.path("verdict").asString()).isIn("pass", "fail");
      allPass &= "pass".equals(r.path("verdict").asString());
    }
    // the worst run's verdict, unless the run as a whole was judged client bound (an error)
    if (CLIENT_BOUND.contains(runDir.getFileName().toString())) {
      assertThat(verdict.path("verdict").asString()).isEqualTo("error");
    } else {
      assertThat(verdict.path("verdict").asString()).isEqualTo(allPass ? "pass" : "fail");
    }
    JsonNode run = run(runDir);
    assertThat(run.at("/measured_runs/mechanism").asString()).isEqualTo("job-sequence");
    assertThat(run.at("/measured_runs/runs")).hasSize(3);
    Launcher.Run verify = cli("verify", runDir.toString(), "--format", "json");
    assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
  }

  @Test
  @Order(3)
  @DisplayName("the series' noise-floor pilot (n = 3) through AIPerf 0.11's own multi-run")
  void pilot() throws Exception {
    Path runDir = planRenderRun("pilot", "[2]", "--pilot");
    assertRealRunDir(runDir, 3);
    JsonNode run = run(runDir);
    assertThat(run.at("/measured_runs/mechanism").asString()).isEqualTo("aiperf-multi-run");
    assertThat(run.at("/measured_runs/pilot").asBoolean()).isTrue();
    // every run recorded, and gated on its own in verdict.json, client bound or not
    assertThat(run.at("/measured_runs/runs")).hasSize(3);
    assertThat(json(runDir.resolve("verdict.json")).get("runs")).hasSize(3);
    Launcher.Run verify = cli("verify", runDir.toString(), "--format", "json");
    assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
  }

  @Test
  @Order(4)
  @DisplayName(
      "analyze names every real run's load point, checks ISL/OSL, warns about no unit; compare judges"
          + " the single point against a second run of its plan")
  void analyzeAndCompare() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        RUNS.keySet().containsAll(List.of("single", "grid", "pilot")), "the runs above ran");
    Path report = work.resolve("analysis");
    Launcher.Run analyze =
        cli(
            "analyze",
            RUNS.get("grid").toString(),
            "--exp-root",
            work.resolve("exp").toString(),
            "--report-dir",
            report.toString(),
            "--format",
            "json");
    assertThat(analyze.exit()).as(analyze.err()).isZero();
    JsonNode a = Json.JSON.readTree(analyze.out());
    List<String> points = new ArrayList<>();
    for (JsonNode r : a.path("runs")) {
      points.add(r.path("load_point").asString());
    }
    assertThat(points).containsExactlyInAnyOrder("concurrency=1", "concurrency=2", "concurrency=4");
    try (Stream<Path> s = Files.walk(report.resolve("runs"))) {
      for (Path f :
          s.filter(x -> x.getFileName().toString().equals("benchmark_audit.json")).toList()) {
        for (JsonNode c : json(f).path("checks")) {
          String id = c.path("id").asString();
          if (id.equals("units")) {
            assertThat(c.path("status").asString()).as(f + " " + c).isEqualTo("pass");
          }
          if (id.equals("isl_osl_vs_workload")) {
            assertThat(c.path("status").asString()).as(f + " " + c).isNotEqualTo("not_checked");
          }
          // each grid point ran its own warmup (1, 2, 4): the audit compares with that one
          if (id.equals("executed_config_vs_plan")) {
            assertThat(c.path("status").asString()).as(f + " " + c).isEqualTo("pass");
          }
        }
      }
    }
    Launcher.Run pilot =
        cli(
            "analyze",
            RUNS.get("pilot").toString(),
            "--exp-root",
            work.resolve("exp").toString(),
            "--report-dir",
            work.resolve("analysis-pilot").toString(),
            "--format",
            "json");
    assertThat(pilot.exit()).as(pilot.err()).isZero();
    // the candidate: the single point's plan rendered and run again (same series, same load point)
    Path repeat = renderRun("repeat", PLANS.get("single"), Instant.now());
    assertRealRunDir(repeat, 1);
    Launcher.Run compare =
        cli(
            "compare",
            "--reference",
            RUNS.get("single").toString(),
            "--candidate",
            repeat.toString(),
            "--exp-root",
            work.resolve("exp").toString(),
            "--report-dir",
            work.resolve("comparison").toString(),
            "--format",
            "json");
    boolean bothEligible =
        run(RUNS.get("single")).path("eligible").asBoolean()
            && run(repeat).path("eligible").asBoolean();
    if (bothEligible) {
      // both sides eligible at concurrency=2: a verdict (0 or 1), never "ineligible" (2)
      assertThat(compare.exit()).as(compare.out() + compare.err()).isIn(0, 1);
      JsonNode c = json(work.resolve("comparison").resolve("comparison.json"));
      assertThat(c.toString()).contains("concurrency=2");
    } else {
      // a side judged client bound is no evidence: compare refuses to judge it
      assertThat(compare.exit()).as(compare.out() + compare.err()).isEqualTo(2);
    }
    System.err.println(
        "RealEngineIT wall time per plan->render->run: "
            + WALL
            + "; judged client bound: "
            + CLIENT_BOUND
            + "\ngrid analysis: "
            + analyze.out());
  }

  @Test
  @Order(5)
  @DisplayName(
      "run --from-log: the single point's saved pod log becomes the same verified run directory (not"
          + " eligible); a cut or tampered log is exit 2 with nothing written")
  void recoverFromSavedLog() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(RUNS.containsKey("single"), "the run above ran");
    Path original = RUNS.get("single");
    Path runs = original.getParent();
    Path deployRoot = runs.getParent().getParent();
    String log = Files.readString(original.resolve("pod.log"));
    int exitLine = log.lastIndexOf("==== benchplan:aiperf-exit:");
    int chunk = log.indexOf("\nC 2 ");
    int data = log.indexOf(' ', chunk + 70) + 20;
    Map<String, String> broken =
        Map.of(
            "no end marker",
            log.substring(0, exitLine),
            "after chunk 1",
            log.substring(0, chunk + 1) + log.substring(exitLine),
            "chunk 2",
            log.substring(0, data)
                + (log.charAt(data) == 'A' ? 'B' : 'A')
                + log.substring(data + 1));
    List<String> before = listing(runs);
    for (Map.Entry<String, String> b : broken.entrySet()) {
      Path saved = Files.writeString(work.resolve("broken-pod.log"), b.getValue());
      Launcher.Run r =
          cli(
              "run",
              "--deploy-root",
              deployRoot.toString(),
              "--from-log",
              saved.toString(),
              "--replace",
              "--format",
              "json");
      assertThat(r.exit()).as(b.getKey() + ": " + r.out() + r.err()).isEqualTo(2);
      assertThat(r.out() + r.err()).contains(b.getKey());
      assertThat(listing(runs)).as("nothing written").isEqualTo(before);
    }
    Path saved = Files.writeString(work.resolve("saved-pod.log"), log);
    String originalManifest = Files.readString(original.resolve("artifacts.sha256"));
    JsonNode originalVerdict = json(original.resolve("verdict.json"));
    Launcher.Run r =
        cli(
            "run",
            "--deploy-root",
            deployRoot.toString(),
            "--from-log",
            saved.toString(),
            "--replace",
            "--format",
            "json");
    JsonNode out = Json.JSON.readTree(r.out());
    Path recovered = Path.of(out.path("run_dir").asString());
    assertThat(recovered).isEqualTo(original);
    assertThat(r.exit()).as(r.err()).isEqualTo(out.path("exit_code").asInt());
    assertThat(out.path("exit_code").asInt()).isEqualTo(run(original).path("exit_code").asInt());
    JsonNode rec = run(recovered);
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(rec)).isEmpty();
    assertThat(rec.get("pod").isNull()).isTrue();
    assertThat(rec.at("/isolation/client/node").isNull()).isTrue();
    assertThat(rec.get("eligible").asBoolean()).isFalse();
    assertThat(rec.get("ineligible_reasons").toString())
        .contains("ISOLATION_UNVERIFIED: recovered from the saved pod log");
    // the same tree, byte for byte, as run collected; the same verdict
    assertThat(Files.readString(recovered.resolve("artifacts.sha256"))).isEqualTo(originalManifest);
    assertThat(json(recovered.resolve("verdict.json")).path("verdict").asString())
        .isEqualTo(originalVerdict.path("verdict").asString());
    Coreutils.sha256sumCheck(recovered);
    Launcher.Run verify = cli("verify", recovered.toString(), "--format", "json");
    assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
  }

  @Test
  @Order(6)
  @DisplayName(
      "the PVC path (render --artifacts-pvc): real AIPerf writes to the claim, collector pods on the"
          + " real engine bring the tree back verified, none left")
  void pvcPath() throws Exception {
    Instant t0 = Instant.now();
    JsonNode p = plan("pvc", "[2]");
    // the tier's real tree (~80 KB) is far below the Job's 12 MiB log-channel bound: the kubelet
    // stand-in lowers that bound (PodExecution#env), so the real tree takes the collector path
    PodExecution exec =
        PodExecution.realEngine(work.resolve("pods-pvc"), engine)
            .withEnv("BENCHPLAN_ARTIFACT_LOG_MAX_BYTES", "4096");
    // the collector pods run the real encoder in the chroot's python3, mounting the same claim
    kubelet.when(
        FakeKubelet.labelled(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE),
        PodScript.execute(exec));
    List<String> collectors = new java.util.concurrent.CopyOnWriteArrayList<>();
    Path runDir;
    var informer =
        client
            .pods()
            .inNamespace(namespace)
            .withLabel(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE)
            .inform(
                new io.fabric8.kubernetes.client.informers.ResourceEventHandler<
                    io.fabric8.kubernetes.api.model.Pod>() {
                  @Override
                  public void onAdd(io.fabric8.kubernetes.api.model.Pod pod) {
                    collectors.add(pod.getMetadata().getName());
                  }

                  @Override
                  public void onUpdate(
                      io.fabric8.kubernetes.api.model.Pod o,
                      io.fabric8.kubernetes.api.model.Pod n) {}

                  @Override
                  public void onDelete(io.fabric8.kubernetes.api.model.Pod pod, boolean unknown) {}
                });
    try {
      runDir = renderRun("pvc", p, t0, List.of("--artifacts-pvc", CLAIM), exec);
    } finally {
      informer.close();
    }
    assertRealRunDir(runDir, 1);
    String log = Files.readString(runDir.resolve("pod.log"));
    assertThat(log)
        .contains("==== benchplan:artifacts:too-large ")
        .contains("==== benchplan:artifacts:manifest ")
        .doesNotContain("==== benchplan:artifacts:begin");
    assertThat(collectors).isNotEmpty().allSatisfy(n -> assertThat(n).contains("-collect-"));
    // what came back is byte for byte what real AIPerf left on the claim
    Path onClaim = exec.claimDir(namespace, CLAIM).resolve(runDir.getFileName().toString());
    assertThat(hashes(runDir.resolve("aiperf"))).isNotEmpty().isEqualTo(hashes(onClaim));
    String v = json(runDir.resolve("verdict.json")).path("verdict").asString();
    if (CLIENT_BOUND.contains(runDir.getFileName().toString())) {
      assertThat(v).isEqualTo("error");
    } else {
      assertThat(v).isIn("pass", "fail");
    }
    assertThat(
            client
                .pods()
                .inNamespace(namespace)
                .withLabel(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE)
                .list()
                .getItems())
        .as("collector pods left")
        .isEmpty();
    Launcher.Run verify = cli("verify", runDir.toString(), "--format", "json");
    assertThat(verify.exit()).as(verify.out() + verify.err()).isZero();
  }

  /** Every file under {@code dir} by relative path, with its SHA-256. */
  private static Map<String, String> hashes(Path dir) throws IOException {
    Map<String, String> out = new java.util.TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(f).toString(), Sha256.ofFile(f));
      }
    }
    return out;
  }

  private static List<String> listing(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  private static JsonNode run(Path runDir) throws IOException {
    return json(runDir.resolve("run.json"));
  }
}
