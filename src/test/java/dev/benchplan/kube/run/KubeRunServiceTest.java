package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.render.JobContract;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.Coreutils;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

@org.junit.jupiter.api.extension.ExtendWith(dev.benchplan.kube.MockApiServer.class)
class KubeRunServiceTest {
  static final String NS = "bench";
  static final String POD = RunFixture.JOB + "-x7k2p";
  static final String GPU_NODE = "gpu-node-1";

  KubernetesMockServer server;
  KubernetesClient client;

  @TempDir Path tmp;
  final List<String> progress = new CopyOnWriteArrayList<>();
  final RecordingHooks hooks = new RecordingHooks();
  final ScriptedLogs logs = new ScriptedLogs();

  dev.benchplan.kube.AccessReviews reviews;

  /** SelfSubjectAccessReview questions the mock answers "no" to. */
  final java.util.Set<String> denied = java.util.concurrent.ConcurrentHashMap.newKeySet();

  @BeforeEach
  void cluster() {
    reviews = dev.benchplan.kube.AccessReviews.install(server, denied::contains);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
        .create();
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(RunFixture.DGD_NAMESPACE)
                .endMetadata()
                .build())
        .create();
    client
        .nodes()
        .resource(
            new NodeBuilder()
                .withNewMetadata()
                .withName(GPU_NODE)
                .addToLabels("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity("8"))
                .endStatus()
                .build())
        .create();
    servingPod("vllm-agg-frontend-0", "frontend", 0);
    servingPod("vllm-agg-vllmdecodeworker-0", "worker", 1);
  }

  void servingPod(String name, String type, int gpus) {
    var b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(RunFixture.DGD_NAMESPACE)
            .addToLabels(JobContract.DGD_POD_LABEL, RunFixture.DGD)
            .addToLabels("nvidia.com/dynamo-component-type", type)
            .endMetadata()
            .withNewSpec()
            .withNodeName(GPU_NODE)
            .addNewContainer()
            .withName("main")
            .withImage("vllm")
            .withNewResources()
            .addToLimits(
                gpus > 0
                    ? java.util.Map.of("nvidia.com/gpu", new Quantity(Integer.toString(gpus)))
                    : java.util.Map.of())
            .endResources()
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .endStatus();
    client.pods().inNamespace(RunFixture.DGD_NAMESPACE).resource(b.build()).create();
  }

  KubeRunService service() {
    return new KubeRunService(
        ctx -> {
          // one retry keeps 5xx tests fast; the CLI keeps fabric8's default backoff
          io.fabric8.kubernetes.client.Config config =
              new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration())
                  .withRequestRetryBackoffLimit(1)
                  .withRequestRetryBackoffInterval(10)
                  .build();
          return new KubernetesClientBuilder().withConfig(config).build();
        },
        c -> logs,
        hooks,
        clock,
        // the command's bound on each deletion: the wait ends as soon as the Job is gone, so the
        // bound is reached only when something is wrong, never by a slow machine (5 s was: the
        // watch that sees the Job go can take that long to start under CI load)
        KubeRunService.Settings.of(
            Duration.ofMillis(200), KubeRunService.Settings.CLI.cleanupWait()));
  }

  /** The run's clock: real time, unless a test counts its bounds from the script's end. */
  Clock clock = Clock.systemUTC();

  /**
   * Real time that stands still until the fake controller has played its whole script, then runs on
   * from where it stood. A run counts its start bound from its Job's creation; a test whose bound
   * must expire after the script's last write (the pod unschedulable, pulling, running) would
   * otherwise race the controller, which a loaded machine can slow past a bound of a few seconds.
   */
  static final class AfterScriptClock extends Clock {
    private final java.util.function.BooleanSupplier played;
    private final java.time.Instant frozen = java.time.Instant.now();
    private volatile long resumedNanos = -1;

    AfterScriptClock(java.util.function.BooleanSupplier played) {
      this.played = played;
    }

    @Override
    public java.time.Instant instant() {
      if (resumedNanos < 0) {
        if (!played.getAsBoolean()) {
          return frozen;
        }
        synchronized (this) {
          if (resumedNanos < 0) {
            resumedNanos = System.nanoTime();
          }
        }
      }
      return frozen.plusNanos(System.nanoTime() - resumedNanos);
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  /**
   * Runs with a fake controller playing {@code script}, the run's bounds counted from the script's
   * end ({@link AfterScriptClock}).
   */
  RunOutcome runAfterScript(RunFixture f, RunRequest r, FakeJobController.Script script) {
    FakeJobController c = new FakeJobController(client, NS, RunFixture.JOB, script);
    clock = new AfterScriptClock(c::played);
    try {
      return run(f, r);
    } finally {
      c.close();
    }
  }

  RunRequest request(RunFixture f) {
    return request(f.deployRoot);
  }

  /** A run of {@code deployRoot} with the test's timeouts (30 s, 15 s to schedule), not kept. */
  static RunRequest request(Path deployRoot) {
    return RunRequest.builder(deployRoot)
        .timeout(Duration.ofSeconds(30))
        .scheduleTimeout(Duration.ofSeconds(15))
        .build();
  }

  /** The API server answers the next Job create with HTTP {@code code} and this Status. */
  void failNextJobCreate(int code, String reason, String message) {
    server
        .expect()
        .post()
        .withPath("/apis/batch/v1/namespaces/" + NS + "/jobs")
        .andReturn(
            code,
            new io.fabric8.kubernetes.api.model.StatusBuilder()
                .withCode(code)
                .withReason(reason)
                .withMessage(message)
                .build())
        .once();
  }

  /**
   * Runs {@code deployRoot} while a fake controller plays the plain success of Job {@code job}: pod
   * {@code pod} created, scheduled on {@code node}, running, exit 0, Job Complete.
   */
  RunOutcome runCompleting(Path deployRoot, String job, String pod, String node) {
    FakeJobController c =
        new FakeJobController(
            client,
            NS,
            job,
            s ->
                s.createPod(pod)
                    .schedule(node)
                    .running()
                    .terminate(0)
                    .jobCondition("Complete", null, null));
    try {
      return run(null, request(deployRoot));
    } finally {
      c.close();
    }
  }

  RunOutcome run(RunFixture f, RunRequest r) {
    return service()
        .run(
            r,
            (phase, elapsed, detail) -> {
              progress.add(phase + (detail == null ? "" : ": " + detail));
              if (System.getenv("BENCHPLAN_TEST_PROGRESS") != null) {
                System.err.println("[" + elapsed.toMillis() + " ms] " + phase + ": " + detail);
              }
            });
  }

  /**
   * Runs with a fake controller playing {@code script}; the controller's own failures fail the
   * test.
   */
  RunOutcome runWith(RunFixture f, RunRequest r, FakeJobController.Script script) {
    FakeJobController c = new FakeJobController(client, NS, RunFixture.JOB, script);
    try {
      return run(f, r);
    } finally {
      c.close();
    }
  }

  static FakeJobController.Script completes(int exitCode) {
    return s ->
        s.createPod(POD)
            .schedule("cpu-node-1")
            .running()
            .terminate(exitCode)
            .jobCondition(
                exitCode == 0 ? "Complete" : "Failed",
                exitCode == 0 ? null : "BackoffLimitExceeded",
                exitCode == 0 ? null : "Job has reached the specified backoff limit");
  }

  void assertNothingLeft() {
    assertThat(client.batch().v1().jobs().inNamespace(NS).withName(RunFixture.JOB).get()).isNull();
    assertThat(client.configMaps().inNamespace(NS).withName(RunFixture.CONFIG_MAP).get()).isNull();
  }

  static JsonNode json(Path p) throws Exception {
    return Json.JSON.readTree(Files.readAllBytes(p));
  }

  @Test
  @DisplayName(
      "pass: Job completes, summary from the log is gated on the plan's gates, run dir complete, cluster clean")
  void pass() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).as(o.verdict().message()).isZero();
    assertThat(o.exitReason()).isEqualTo("completed");
    assertThat(o.verdict().verdict().json()).isEqualTo("pass");
    assertThat(o.runDir()).isEqualTo(f.runDir());
    try (Stream<Path> s = Files.list(f.runDir())) {
      assertThat(s.map(p -> p.getFileName().toString()).toList())
          .containsExactlyInAnyOrder(
              "pod.log",
              "profile_export_aiperf.json",
              "run.json",
              "verdict.json",
              "ctrf-report.json",
              "junit.xml");
    }
    try (Stream<Path> s = Files.list(f.runDir().getParent())) {
      assertThat(s.map(p -> p.getFileName().toString()).toList())
          .containsExactly(RunFixture.RUN_ID);
    }
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    assertThat(run.get("plan").get("sha256").asString()).isEqualTo(f.planSha());
    assertThat(run.get("job").get("name").asString()).isEqualTo(RunFixture.JOB);
    assertThat(run.get("pod").get("name").asString()).isEqualTo(POD);
    assertThat(run.get("pod").get("node").asString()).isEqualTo("cpu-node-1");
    assertThat(run.get("pod").get("exit_code").asInt()).isZero();
    // the digest the pod actually ran, from its container status (issue 21 item 4)
    assertThat(run.get("pod").get("image_id").asString())
        .isEqualTo("docker-pullable://" + RunFixture.IMAGE + "@sha256:" + "ab".repeat(32));
    assertThat(run.get("image").asString()).isEqualTo(RunFixture.IMAGE);
    assertThat(run.get("aiperf").get("planned_version").asString()).isEqualTo("0.13.0");
    assertThat(run.get("aiperf").get("export_version").isNull())
        .isTrue(); // the real export predates aiperf_version
    assertThat(run.get("aiperf").get("version_match").isNull()).isTrue();
    assertThat(run.get("isolation").get("dgd").get("serving_pods")).hasSize(2);
    assertThat(run.get("isolation").get("client").get("on_serving_node").asBoolean()).isFalse();
    assertThat(run.get("isolation").get("verified").asBoolean()).isTrue();
    assertThat(run.get("eligible").asBoolean()).isTrue();
    assertThat(run.get("exit_reason").asString()).isEqualTo("completed");
    assertThat(run.get("artifacts").get("summary_source").asString()).isEqualTo("pod-log-markers");
    JsonNode verdict = json(f.runDir().resolve("verdict.json"));
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(verdict)).isEmpty();
    // relative to the run directory that holds verdict.json (issue 14: no absolute path in a hashed
    // file)
    assertThat(verdict.get("source").get("path").asString())
        .isEqualTo("profile_export_aiperf.json");
    assertThat(Files.readString(f.runDir().resolve("profile_export_aiperf.json")).strip())
        .isEqualTo(Files.readString(dev.benchplan.aiperf.export.ExportVariants.real()).strip());
    assertNothingLeft();
    assertThat(o.cleanup())
        .anyMatch(s -> s.contains("Job " + NS + "/" + RunFixture.JOB + ": deleted"));
    assertThat(progress)
        .anyMatch(p -> p.startsWith("preflight"))
        .anyMatch(p -> p.startsWith("applied"))
        .anyMatch(p -> p.startsWith("done"));
    assertThat(hooks.unregistered).isTrue();
  }

  RunRequest request(
      RunFixture f, Duration timeout, Duration schedule, boolean keep, boolean replace) {
    return RunRequest.builder(f.deployRoot)
        .timeout(timeout)
        .scheduleTimeout(schedule)
        .keep(keep)
        .replace(replace)
        .build();
  }

  /** The real encoder's block for the real sweep (python3 as in the AIPerf image). */
  private static String artifactBlock(Path tmp) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        new ProcessBuilder("python3", "-c", "pass").start().waitFor() == 0,
        "python3 is needed for the encoder");
    Path tree = dev.benchplan.testing.SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path script =
        Files.writeString(
            tmp.resolve("ship.py"), dev.benchplan.artifacts.ArtifactChannel.encoderScript());
    Process p = new ProcessBuilder("python3", script.toString(), tree.toString()).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    return out;
  }

  private static String withBlock(String log, String block) {
    int exit = log.lastIndexOf("==== benchplan:aiperf-exit:");
    return log.substring(0, exit) + block + log.substring(exit);
  }

  @Test
  @DisplayName(
      "every artifact: the tree lands in aiperf/ with AIPerf's paths, artifacts.sha256 verifies with sha256sum -c")
  void artifactsCollected() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, withBlock(RunFixture.logWithRealSummary(0), artifactBlock(tmp)));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).as(o.verdict().message()).isZero();
    Path tree = f.runDir().resolve("aiperf");
    for (int c : new int[] {1, 2, 4}) {
      for (String name :
          List.of(
              "profile_export_aiperf.json", "profile_export.jsonl", "gpu_telemetry_export.jsonl")) {
        Path original =
            dev.benchplan.testing.SharedData.require(
                "aiperf/sweep-qwen3-0.6b/concurrency" + c + "/" + name);
        assertThat(Files.readAllBytes(tree.resolve("concurrency" + c + "/" + name)))
            .isEqualTo(Files.readAllBytes(original));
      }
    }
    String manifest = Files.readString(f.runDir().resolve("artifacts.sha256"));
    assertThat(manifest).contains("  aiperf/concurrency4/profile_export.jsonl\n");
    // run.json chains the manifest: its SHA-256 and how the tree came back
    JsonNode artifacts = json(f.runDir().resolve("run.json")).get("artifacts");
    assertThat(artifacts.get("files").get("artifacts.sha256").asString())
        .isEqualTo(dev.benchplan.json.Sha256.ofFile(f.runDir().resolve("artifacts.sha256")));
    assertThat(artifacts.get("volume_collection").asString())
        .startsWith("collected: every file AIPerf wrote");
    Coreutils.sha256sumCheck(f.runDir());
    try (Stream<Path> s = Files.list(f.runDir().getParent())) {
      assertThat(s.map(p -> p.getFileName().toString()).toList())
          .containsExactly(f.runDir().getFileName().toString());
    }
    assertNothingLeft();
  }

  @Test
  @DisplayName(
      "a log cut in the artifact block: exit 3 naming the cut, the partial copy kept aside as incomplete, no run dir, cluster clean")
  void artifactsCut() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    String block = artifactBlock(tmp);
    String cut = block.substring(0, block.indexOf("\nC 5 ") + 1);
    logs.set(
        POD,
        RunFixture.logWithRealSummary(0).replace("==== benchplan:aiperf-exit:0 ====\n", "") + cut);
    Throwable thrown = catchThrowable(() -> runWith(f, request(f), completes(0)));
    assertThat(f.runDir()).doesNotExist();
    List<Path> kept;
    try (Stream<Path> s = Files.list(f.runDir().getParent())) {
      kept = s.toList();
    }
    assertThat(kept).hasSize(1);
    Path aside = kept.get(0);
    assertThat(aside.getFileName().toString())
        .startsWith(f.runDir().getFileName() + ".incomplete-");
    assertThat(thrown)
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "pod "
                + NS
                + "/"
                + POD
                + " log: the artifact block is cut after 5 chunk(s) and 10 manifest line(s)"
                + " (no line '==== benchplan:artifacts:end ...'): the log is truncated; the partial"
                + " copy is kept aside in "
                + aside
                + " (incomplete, not a run)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    assertNothingLeft();
  }

  @Test
  @DisplayName(
      "fail: the real run against AICR's thresholds fails the gate (exit 1), run dir still complete")
  void fail() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 5000, 200);
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).isEqualTo(1);
    assertThat(o.verdict().verdict().json()).isEqualTo("fail");
    assertThat(json(f.runDir().resolve("run.json")).get("eligible").asBoolean())
        .isTrue(); // a fail is valid evidence
    assertThat(
            json(f.runDir().resolve("ctrf-report.json"))
                .get("results")
                .get("summary")
                .get("failed")
                .asInt())
        .isEqualTo(1);
    assertNothingLeft();
  }

  @Test
  @DisplayName("--constraints overrides the plan's gates")
  void overlayOverridesPlan() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 5000, 200);
    Path overlay =
        Files.writeString(
            tmp.resolve("overlay.yaml"),
            "validation:\n  performance:\n    constraints:\n      - {name: inference-throughput, value: \">= 50\"}\n");
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunRequest r =
        RunRequest.builder(f.deployRoot)
            .constraintsOverlay(overlay)
            .timeout(Duration.ofSeconds(30))
            .scheduleTimeout(Duration.ofSeconds(15))
            .build();
    RunOutcome o = runWith(f, r, completes(0));
    assertThat(o.exitCode()).isZero();
    assertThat(o.verdict().constraints()).hasSize(1);
    assertThat(o.verdict().constraintsSource()).isEqualTo(overlay.toString());
  }

  @Test
  @DisplayName(
      "AIPerf fails (exit 1, no summary): Job failed -> error verdict with the log tail, exit 3, cleaned up")
  void aiperfFailed() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(
        POD,
        RunFixture.logWithoutSummary(
            1,
            "Traceback (most recent call last):\naiohttp.client_exceptions.ClientConnectorError: Connection refused"));
    RunOutcome o = runWith(f, request(f), completes(1));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason()).isEqualTo("job-failed");
    assertThat(o.verdict().verdict().json()).isEqualTo("error");
    assertThat(o.verdict().message())
        .isEqualTo(
            "error: Job "
                + NS
                + "/"
                + RunFixture.JOB
                + " failed: BackoffLimitExceeded (Job has reached the specified backoff limit); pod "
                + POD
                + " container aiperf exited 1 (Error); log tail:\n"
                + "waiting for "
                + RunFixture.ENDPOINT
                + "/v1/models ... ok\n"
                + "Traceback (most recent call last):\n"
                + "aiohttp.client_exceptions.ClientConnectorError: Connection refused\n"
                + "==== benchplan:aiperf-exit:1 ====");
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(run.get("pod").get("exit_code").asInt()).isEqualTo(1);
    assertThat(run.get("aiperf").get("exit_code").asInt()).isEqualTo(1);
    assertThat(run.get("eligible").asBoolean()).isFalse();
    assertThat(f.runDir().resolve("pod.log")).exists();
    assertThat(f.runDir().resolve("profile_export_aiperf.json")).doesNotExist();
    assertNothingLeft();
  }

  @Test
  @DisplayName(
      "a log without the summary markers is an error verdict even when the container succeeded")
  void noMarkers() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, "AIPerf printed something else entirely\n");
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason()).isEqualTo("no-summary");
    assertThat(o.verdict().message())
        .isEqualTo(
            "error: the log has no AIPerf summary block (no line"
                + " '==== benchplan:aiperf-summary:begin ===='); no AIPerf exit line either; log"
                + " tail:\nAIPerf printed something else entirely");
  }

  @Test
  @DisplayName("a non-zero aiperf-exit line is an error verdict even with a summary block")
  void aiperfExitNonZero() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, RunFixture.logWithRealSummary(2));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason()).isEqualTo("aiperf-failed");
    // the tail is the last lines of the recorded AIPerf summary fixture, not text this test wrote
    assertThat(o.verdict().message())
        .startsWith("error: AIPerf exited 2; log tail:\n")
        .endsWith("==== benchplan:aiperf-summary:end ====\n==== benchplan:aiperf-exit:2 ====");
    assertThat(f.runDir().resolve("profile_export_aiperf.json"))
        .exists(); // kept as evidence of what happened
  }

  @Test
  @DisplayName(
      "unschedulable: after the start bound, the pod's own scheduling message; exit 3; cleaned up")
  void unschedulable() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    RunOutcome o =
        runAfterScript(
            f,
            request(f, Duration.ofSeconds(30), Duration.ofSeconds(4), false, false),
            s -> s.createPod(POD).unschedulable("0/3 nodes are available: 3 Insufficient cpu."));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason()).isEqualTo("unschedulable");
    assertThat(o.verdict().message())
        .isEqualTo(
            "error: pod "
                + POD
                + " did not start within 4s: Unschedulable: 0/3 nodes are available: 3 Insufficient"
                + " cpu.");
    assertNothingLeft();
  }

  @Test
  @DisplayName("image pull failure: reported with the kubelet's reason after the start bound")
  void imagePull() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    RunOutcome o =
        runAfterScript(
            f,
            request(f, Duration.ofSeconds(30), Duration.ofSeconds(4), false, false),
            s ->
                s.createPod(POD)
                    .schedule("cpu-node-1")
                    .waiting(
                        "ImagePullBackOff", "Back-off pulling image \"" + RunFixture.IMAGE + "\""));
    assertThat(o.exitReason()).isEqualTo("image-pull");
    assertThat(o.verdict().message())
        .isEqualTo(
            "error: pod "
                + POD
                + " did not start within 4s: ImagePullBackOff: Back-off pulling image \""
                + RunFixture.IMAGE
                + "\"");
    assertThat(o.exitCode()).isEqualTo(3);
  }

  @Test
  @DisplayName("an invalid image name fails at once, without waiting for the start bound")
  void invalidImage() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    long t0 = System.nanoTime();
    RunOutcome o =
        runWith(
            f,
            request(f, Duration.ofSeconds(60), Duration.ofSeconds(60), false, false),
            s ->
                s.createPod(POD)
                    .schedule("cpu-node-1")
                    .waiting("InvalidImageName", "couldn't parse image reference"));
    assertThat(o.exitReason()).isEqualTo("pod-start-failed");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(45));
  }

  @Test
  @DisplayName("deadline exceeded: the Job's DeadlineExceeded condition -> exit 3 with its message")
  void deadline() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, RunFixture.logWithoutSummary(137, "Profiling: 12/64"));
    RunOutcome o =
        runWith(
            f,
            request(f),
            s ->
                s.createPod(POD)
                    .schedule("cpu-node-1")
                    .running()
                    .jobCondition(
                        "Failed",
                        "DeadlineExceeded",
                        "Job was active longer than specified deadline"));
    assertThat(o.exitReason()).isEqualTo("deadline-exceeded");
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.verdict().message())
        .isEqualTo(
            "error: Job "
                + NS
                + "/"
                + RunFixture.JOB
                + " failed: DeadlineExceeded (Job was active longer than specified deadline); pod "
                + POD
                + "; log tail:\n"
                + "waiting for "
                + RunFixture.ENDPOINT
                + "/v1/models ... ok\n"
                + "Profiling: 12/64\n"
                + "==== benchplan:aiperf-exit:137 ====");
    assertNothingLeft();
  }

  @Test
  @DisplayName("--timeout: a Job still running at the bound is an error (exit 3) and is deleted")
  void timeout() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, "Profiling: 3/64\n");
    RunOutcome o =
        runAfterScript(
            f,
            request(f, Duration.ofSeconds(6), Duration.ofSeconds(5), false, false),
            s -> s.createPod(POD).schedule("cpu-node-1").running());
    assertThat(o.exitReason()).isEqualTo("timeout");
    assertThat(o.verdict().message())
        .isEqualTo(
            "error: Job "
                + NS
                + "/"
                + RunFixture.JOB
                + " did not finish within 6s; pod "
                + POD
                + "; log tail:\nProfiling: 3/64");
    assertThat(o.exitCode()).isEqualTo(3);
    assertNothingLeft();
  }

  @Test
  @DisplayName("--keep leaves the Job and ConfigMaps in place")
  void keep() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o =
        runWith(
            f,
            request(f, Duration.ofSeconds(30), Duration.ofSeconds(15), true, false),
            completes(0));
    assertThat(o.exitCode()).isZero();
    assertThat(client.batch().v1().jobs().inNamespace(NS).withName(RunFixture.JOB).get())
        .isNotNull();
    assertThat(client.configMaps().inNamespace(NS).withName(RunFixture.CONFIG_MAP).get())
        .isNotNull();
    assertThat(o.cleanup())
        .containsExactly("kept Job " + NS + "/" + RunFixture.JOB + " and its ConfigMaps (--keep)");
  }

  @Test
  @DisplayName(
      "an existing Job of the same name is refused (exit 2, nothing applied); --replace runs anyway")
  void existingJob() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    var old =
        client
            .getKubernetesSerialization()
            .unmarshal(
                Json.JSON.writeValueAsString(f.job),
                io.fabric8.kubernetes.api.model.batch.v1.Job.class);
    old.getMetadata().setNamespace(NS);
    client.batch().v1().jobs().inNamespace(NS).resource(old).create();
    assertThatThrownBy(() -> run(f, request(f)))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            "RUN_OBJECTS_EXIST: Job "
                + NS
                + "/"
                + RunFixture.JOB
                + " already exists (an earlier run of this perf.yaml, kept or still running): use"
                + " --replace to delete it and run again, or re-render for a new run-id (rule:"
                + " benchmarking/benchmark-isolation.md)");
    assertThat(client.configMaps().inNamespace(NS).withName(RunFixture.CONFIG_MAP).get()).isNull();
    assertThat(f.runDir().getParent()).doesNotExist();

    logs.set(POD, RunFixture.logWithRealSummary(0));
    String oldUid =
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace(NS)
            .withName(RunFixture.JOB)
            .get()
            .getMetadata()
            .getUid();
    FakeJobController c =
        new FakeJobController(
            client,
            NS,
            RunFixture.JOB,
            j -> j != null && !java.util.Objects.equals(j.getMetadata().getUid(), oldUid),
            completes(0));
    RunOutcome o;
    try {
      o = run(f, request(f, Duration.ofSeconds(30), Duration.ofSeconds(15), false, true));
    } finally {
      c.close();
    }
    assertThat(o.exitCode()).as(o.verdict().message()).isZero();
    assertThat(progress)
        .anyMatch(p -> p.startsWith("replace: Job " + NS + "/" + RunFixture.JOB + ": deleted"));
    // what the run's cleanup said, so a Job left behind (seen once under CI load) names its cause
    assertThat(o.cleanup())
        .as("cleanup; progress: %s", progress)
        .contains("Job " + NS + "/" + RunFixture.JOB + ": deleted");
    // a Job left behind names whose it is: the old one, the run's (uid in run.json) or another,
    // and whether the fake controller was still writing when the test went on
    var left = client.batch().v1().jobs().inNamespace(NS).withName(RunFixture.JOB).get();
    assertThat(left)
        .as(
            "Job left: uid %s (old %s, the run's %s), conditions %s; controller still running: %s;"
                + " cleanup %s; progress %s",
            left == null ? null : left.getMetadata().getUid(),
            oldUid,
            o.run().job().uid(),
            KubeRunService.conditions(left),
            c.stillRunning(),
            o.cleanup(),
            progress)
        .isNull();
    assertNothingLeft();
  }

  @Test
  @DisplayName(
      "a run directory of the same run-id is refused; --replace keeps the old one under a new name")
  void existingRunDir() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    Files.createDirectories(f.runDir());
    Files.writeString(f.runDir().resolve("run.json"), "{}");
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            f.runDir()
                + ": run "
                + RunFixture.RUN_ID
                + " was already collected: re-render for a new run-id, or use --replace (the"
                + " earlier directory is kept under a new name)");
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o =
        runWith(
            f,
            request(f, Duration.ofSeconds(30), Duration.ofSeconds(15), false, true),
            completes(0));
    assertThat(o.exitCode()).isZero();
    try (Stream<Path> s = Files.list(f.runDir().getParent())) {
      List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).hasSize(2).contains(RunFixture.RUN_ID);
      assertThat(names.get(1)).startsWith(RunFixture.RUN_ID + ".replaced-");
    }
  }

  @Test
  @DisplayName(
      "blocker: another active benchplan Job benchmarks the same endpoint (exit 2, cites the isolation rule)")
  void otherBenchmark() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("team-b").endMetadata().build())
        .create();
    var other =
        client
            .getKubernetesSerialization()
            .unmarshal(
                Json.JSON.writeValueAsString(f.job),
                io.fabric8.kubernetes.api.model.batch.v1.Job.class);
    other.getMetadata().setName("bp-someone-else-20261130t090000z-ffff");
    other.getMetadata().setNamespace("team-b");
    client.batch().v1().jobs().inNamespace("team-b").resource(other).create();
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            "ENDPOINT_BUSY: Job team-b/bp-someone-else-20261130t090000z-ffff is already"
                + " benchmarking "
                + RunFixture.ENDPOINT
                + "; never two benchmarks against one endpoint at once (rule:"
                + " benchmarking/benchmark-isolation.md)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThat(client.batch().v1().jobs().inNamespace(NS).withName(RunFixture.JOB).get()).isNull();
  }

  @Test
  @DisplayName("a finished benchplan Job on the same endpoint is not a blocker")
  void finishedOtherBenchmark() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    var other =
        client
            .getKubernetesSerialization()
            .unmarshal(
                Json.JSON.writeValueAsString(f.job),
                io.fabric8.kubernetes.api.model.batch.v1.Job.class);
    other.getMetadata().setName("bp-earlier");
    other.getMetadata().setNamespace(NS);
    other = client.batch().v1().jobs().inNamespace(NS).resource(other).create();
    other.setStatus(
        new io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder()
            .addNewCondition()
            .withType("Complete")
            .withStatus("True")
            .endCondition()
            .build());
    client.batch().v1().jobs().inNamespace(NS).resource(other).updateStatus();
    logs.set(POD, RunFixture.logWithRealSummary(0));
    assertThat(runWith(f, request(f), completes(0)).exitCode()).isZero();
  }

  /**
   * The mock server ignores field selectors other than metadata.name/namespace, so the pods-on-node
   * query is answered by an expectation, as an API server would: every pod bound to the node.
   */
  void podsOnNode(String node, io.fabric8.kubernetes.api.model.Pod... extra) {
    List<io.fabric8.kubernetes.api.model.Pod> items =
        new java.util.ArrayList<>(
            client.pods().inNamespace(RunFixture.DGD_NAMESPACE).list().getItems());
    items.addAll(List.of(extra));
    server
        .expect()
        .get()
        .withPath("/api/v1/pods?fieldSelector=spec.nodeName%3D" + node)
        .andReturn(
            200, new io.fabric8.kubernetes.api.model.PodListBuilder().withItems(items).build())
        .always();
  }

  @Test
  @DisplayName(
      "blocker: another pod uses GPUs on a serving node (exclusive serving GPUs are a hard gate)")
  void gpuNeighbour() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("ml").endMetadata().build())
        .create();
    podsOnNode(
        GPU_NODE,
        client
            .pods()
            .inNamespace("ml")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("trainer-0")
                    .withNamespace("ml")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName(GPU_NODE)
                    .addNewContainer()
                    .withName("t")
                    .withImage("pytorch")
                    .withNewResources()
                    .addToLimits("nvidia.com/gpu", new Quantity("2"))
                    .endResources()
                    .endContainer()
                    .endSpec()
                    .withNewStatus()
                    .withPhase("Running")
                    .endStatus()
                    .build())
            .create());
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            "SERVING_GPUS_IN_USE: other pods use GPUs on the serving nodes: [ml/trainer-0 on"
                + " gpu-node-1]; serving GPUs must be exclusive during a benchmark (rule:"
                + " benchmarking/benchmark-isolation.md)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
  }

  @Test
  @DisplayName(
      "time-sliced serving GPUs and a CPU neighbour are recorded; the run is not eligible as evidence")
  void sharedGpus() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    client
        .nodes()
        .withName(GPU_NODE)
        .edit(
            n ->
                new NodeBuilder(n)
                    .editMetadata()
                    .addToLabels("nvidia.com/gpu.replicas", "4")
                    .addToLabels("nvidia.com/gpu.sharing-strategy", "time-slicing")
                    .endMetadata()
                    .build());
    podsOnNode(
        GPU_NODE,
        client
            .pods()
            .inNamespace("default")
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("log-shipper")
                    .withNamespace("default")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName(GPU_NODE)
                    .addNewContainer()
                    .withName("c")
                    .withImage("fluentbit")
                    .endContainer()
                    .endSpec()
                    .withNewStatus()
                    .withPhase("Running")
                    .endStatus()
                    .build())
            .create());
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).isZero();
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(run.get("eligible").asBoolean()).isFalse();
    assertThat(run.get("ineligible_reasons").get(0).asString())
        .contains("SERVING_GPUS_SHARED: GPUs on serving node gpu-node-1 are shared");
    JsonNode node = run.get("isolation").get("serving_nodes").get(0);
    assertThat(node.get("gpu_sharing").get("gpu_replicas").asString()).isEqualTo("4");
    // a node that was read records its GPU product, an explicit null when unlabelled (absent only
    // when unreadable)
    assertThat(node.has("gpu_product")).isTrue();
    assertThat(node.get("gpu_product").isString() || node.get("gpu_product").isNull()).isTrue();
    assertThat(node.get("gpu_sharing").get("mig_resources").isArray()).isTrue();
    assertThat(node.get("other_pods").get(0).get("pod").asString())
        .isEqualTo("default/log-shipper");
    assertThat(run.get("isolation").get("verified").asBoolean()).isFalse();
  }

  @Test
  @DisplayName(
      "the AIPerf version in the export differs from the plan's pin: flagged, not eligible")
  void versionMismatch() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    String summary =
        Json.JSON.writeValueAsString(
            dev.benchplan.aiperf.export.ExportVariants.asVersionedLayout(
                dev.benchplan.aiperf.export.ExportVariants.realTree(), "0.12.0"));
    logs.set(POD, RunFixture.logWithSummary(summary, 0));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).isZero();
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(run.get("aiperf").get("export_version").asString()).isEqualTo("0.12.0");
    assertThat(run.get("aiperf").get("version_match").asBoolean()).isFalse();
    assertThat(run.get("eligible").asBoolean()).isFalse();
    assertThat(run.get("ineligible_reasons").get(0).asString())
        .isEqualTo("AIPERF_VERSION_MISMATCH: AIPerf 0.12.0 ran, but the series pins 0.13.0");
  }

  @Test
  @DisplayName("the namespace must exist (exit 2)")
  void namespaceMissing() {
    RunFixture f = RunFixture.create(tmp, null, 50, 35);
    RunRequest r = RunRequest.builder(f.deployRoot).namespace("nope").build();
    assertThatThrownBy(() -> run(f, r))
        .hasMessage(
            "RUN_NAMESPACE_MISSING: namespace 'nope' does not exist in the cluster (use"
                + " --namespace, or create it) (rule: benchmarking/benchmark-isolation.md)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
  }

  @Test
  @DisplayName("the plan must still hash to the SHA-256 perf.yaml was rendered from, and exist")
  void planChecks() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    String rendered = DigestUtils.sha256Hex(Files.readAllBytes(f.planFile));
    Files.writeString(f.planFile, Files.readString(f.planFile).replace("5000", "5001") + " ");
    String edited = DigestUtils.sha256Hex(Files.readAllBytes(f.planFile));
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            f.planFile
                + ": SHA-256 is "
                + edited
                + ", not "
                + rendered
                + " (recorded in "
                + f.perfYaml()
                + " as benchplan.dev/plan-sha256; re-render from the plan you mean to run): the"
                + " plan was edited or another file was named; expected the plan exactly as it was"
                + " written")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    Files.delete(f.planFile);
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            f.perfYaml()
                + ": the plan it was rendered from is missing: "
                + f.planFile
                + " (annotation benchplan.dev/plan-path)");
  }

  @Test
  @DisplayName(
      "403 on creating the Job: exit 3 with the API's message, the ConfigMap already created is removed")
  void forbidden() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    failNextJobCreate(
        403,
        "Forbidden",
        "jobs.batch is forbidden: User \"bench-bot\" cannot create resource \"jobs\" in API group \"batch\" in the namespace \"bench\"");
    assertThatThrownBy(() -> run(f, request(f)))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3))
        .hasMessage(
            "create Job "
                + NS
                + "/"
                + RunFixture.JOB
                + ": HTTP 403 Forbidden: jobs.batch is forbidden: User \"bench-bot\" cannot create"
                + " resource \"jobs\" in API group \"batch\" in the namespace \"bench\"; RBAC: the"
                + " context's user lacks this permission (grant it with a Role or ClusterRole;"
                + " check with 'kubectl auth can-i')");
    assertNothingLeft();
    assertThat(f.runDir().getParent()).doesNotExist();
  }

  @Test
  @DisplayName(
      "every missing required permission is named (exit 3) with the rbac command, before anything is created")
  void missingPermissions() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    denied.add("create jobs.batch " + NS);
    denied.add("get pods/log " + NS);
    assertThatThrownBy(() -> run(f, request(f)))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3))
        .hasMessage(
            "the API server denied the user of this context 2 permission(s) run needs, so nothing"
                + " was created: create jobs.batch in namespace "
                + NS
                + " (run apply: the AIPerf Job); get pods/log in namespace "
                + NS
                + " (run watch and collect: the AIPerf pod log (progress and summary)). Print the"
                + " Role(s) to grant with: benchplan rbac run --deploy-root "
                + f.deployRoot);
    assertNothingLeft();
    assertThat(f.runDir().getParent()).doesNotExist();
    // every required pair of the table was asked about, in the namespaces rbac prints
    assertThat(reviews.asked())
        .contains(
            "create jobs.batch " + NS,
            "create configmaps " + NS,
            "list pods " + NS,
            "watch jobs.batch " + NS,
            "delete configmaps " + NS);
  }

  @Test
  @DisplayName(
      "a missing isolation permission is not an error: the run goes on and says which check is skipped")
  void missingIsolationPermission() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    denied.add("get nodes *");
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o = runWith(f, request(f), completes(0));
    assertThat(o.exitCode()).as(o.verdict().message()).isZero();
    assertThat(progress)
        .anyMatch(
            p ->
                p.startsWith("permissions: isolation checks without permission")
                    && p.contains("get nodes (run preflight: GPU sharing on the serving nodes"));
  }

  @Test
  @DisplayName("409 and 5xx from the API server are cluster errors (exit 3) naming the action")
  void conflictAndServerError() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    failNextJobCreate(409, "AlreadyExists", "jobs.batch \"" + RunFixture.JOB + "\" already exists");
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            "create Job "
                + NS
                + "/"
                + RunFixture.JOB
                + ": HTTP 409 Conflict: jobs.batch \""
                + RunFixture.JOB
                + "\" already exists")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    server
        .expect()
        .post()
        .withPath("/api/v1/namespaces/" + NS + "/configmaps")
        .andReturn(
            503,
            new io.fabric8.kubernetes.api.model.StatusBuilder()
                .withCode(503)
                .withMessage("etcdserver: leader changed")
                .build())
        .always();
    assertThatThrownBy(() -> run(f, request(f)))
        .hasMessage(
            "create ConfigMap "
                + NS
                + "/"
                + RunFixture.CONFIG_MAP
                + ": HTTP 503 Service Unavailable: etcdserver: leader changed");
    assertNothingLeft();
  }

  @Test
  @DisplayName(
      "Ctrl-C mid-run: the hook deletes the Job and ConfigMaps, no run directory is left, exit 3")
  void interrupt() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    logs.set(POD, "Profiling: 3/64\n");
    assertThatThrownBy(
            () ->
                runWith(
                    f,
                    request(f, Duration.ofSeconds(60), Duration.ofSeconds(15), false, false),
                    s -> {
                      s.createPod(POD).schedule("cpu-node-1").running();
                      assertThat(hooks.interrupt()).isTrue();
                    }))
        .hasMessage(
            "interrupted: Job "
                + NS
                + "/"
                + RunFixture.JOB
                + " and its ConfigMaps deleted; no run directory written")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    assertNothingLeft();
    assertThat(progress).anyMatch(p -> p.startsWith("interrupted: cleaning up"));
    assertThat(f.runDir().getParent())
        .satisfiesAnyOf(p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyDirectory());
  }

  @Test
  @DisplayName(
      "a perf.yaml rendered by the real plan + render commands runs: plan verified, its four gates applied")
  void renderedPerfYaml() throws Exception {
    RenderedPerf r = RenderedPerf.create(tmp, NS);
    String pod = r.jobName() + "-q8x2v";
    logs.set(pod, RunFixture.logWithRealSummary(0));
    RunOutcome o = runCompleting(r.deployRoot(), r.jobName(), pod, "cpu-node-1");
    assertThat(o.runId()).isEqualTo(r.runId());
    assertThat(o.exitCode())
        .as(o.verdict().message())
        .isEqualTo(1); // 50 tokens/sec against a 1500 floor
    assertThat(o.verdict().constraints())
        .extracting(dev.benchplan.gate.ConstraintResult::name)
        .containsExactly(
            "time_to_first_token-p95",
            "inter_token_latency-p95",
            "inference-throughput",
            "inference-ttft-p99");
    assertThat(o.verdict().constraints())
        .extracting(cr -> cr.status().json())
        .containsExactly("pass", "pass", "fail", "pass");
    JsonNode run = json(o.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    // relative to DEPLOY_ROOT (the run directory's ../../..), written with '/'
    assertThat(run.get("plan").get("path").asString())
        .isEqualTo(dev.benchplan.plan.PlanPaths.relative(r.deployRoot(), r.plan()));
    assertThat(run.get("perf_yaml").get("path").asString()).isEqualTo("benchmark/perf.yaml");
    assertThat(run.get("aiperf").get("image_match").asBoolean()).isTrue();
    assertThat(run.get("dgd").asString()).isEqualTo("bench/vllm-agg");
    assertThat(client.batch().v1().jobs().inNamespace(NS).withName(r.jobName()).get()).isNull();
  }

  @Test
  @DisplayName(
      "verify RUN_DIR on a run made by plan + render + run with the real sweep: verified; the verdict"
          + " recomputed from the kept summary; an edited verdict, a flipped byte, a missing and an extra file: each named")
  void verifyRunDirectory() throws Exception {
    RenderedPerf r = RenderedPerf.create(tmp, NS);
    String pod = r.jobName() + "-v3r1f";
    logs.set(pod, withBlock(RunFixture.logWithRealSummary(0), artifactBlock(tmp)));
    RunOutcome o = runCompleting(r.deployRoot(), r.jobName(), pod, "cpu-node-1");
    Path dir = o.runDir();
    var ok = dev.benchplan.testing.CommandHarness.run("verify", dir.toString()).expectOk();
    assertThat(ok.out())
        .contains("verified: run " + dir)
        .contains("verdict recomputed")
        .doesNotContain("not recomputed");

    // an edited verdict, re-hashed in run.json so only the recomputation can tell
    Path verdict = dir.resolve("verdict.json");
    Files.writeString(
        verdict,
        Files.readString(verdict).replace("\"verdict\": \"fail\"", "\"verdict\": \"pass\""));
    Path runJson = dir.resolve("run.json");
    JsonNode before = json(runJson);
    Files.writeString(
        runJson,
        Files.readString(runJson)
            .replace(
                before.at("/artifacts/files/verdict.json").asString(),
                dev.benchplan.json.Sha256.ofFile(verdict)));
    var edited = dev.benchplan.testing.CommandHarness.run("verify", dir.toString()).expectExit(1);
    assertThat(edited.out())
        .contains(
            dir
                + "/verdict.json /verdict: recomputed from the kept profile_export_aiperf.json"
                + " and the plan's gates: recorded \"pass\", recomputed \"fail\"")
        .contains(dir + "/run.json /verdict: records fail, but verdict.json says pass");

    Path records = dir.resolve("aiperf/concurrency1/profile_export.jsonl");
    byte[] b = Files.readAllBytes(records);
    b[10] ^= 1;
    Files.write(records, b);
    Files.delete(dir.resolve("aiperf/concurrency2/profile_export_aiperf.json"));
    Files.writeString(dir.resolve("aiperf/notes.txt"), "added later\n");
    Files.writeString(dir.resolve("pod.log"), "\n", java.nio.file.StandardOpenOption.APPEND);
    var broken =
        dev.benchplan.testing.CommandHarness.run("verify", dir.toString(), "--format", "json")
            .expectExit(1);
    JsonNode out = Json.JSON.readTree(broken.out());
    assertThat(out.get("findings").findValuesAsString("file"))
        .contains(
            dir + "/aiperf/concurrency1/profile_export.jsonl",
            dir + "/aiperf/concurrency2/profile_export_aiperf.json",
            dir + "/aiperf/notes.txt",
            dir + "/pod.log",
            dir + "/verdict.json");
    assertThat(broken.out())
        .contains("present but not listed in artifacts.sha256 or run.json")
        .contains("listed in artifacts.sha256 but missing");
  }

  /**
   * plan + render + run of the example with the real sweep's artifact block, under {@code root}.
   */
  private RunOutcome renderedRun(Path root, String podSuffix, String block) throws Exception {
    RenderedPerf r = RenderedPerf.create(root, NS);
    String pod = r.jobName() + podSuffix;
    logs.set(pod, withBlock(RunFixture.logWithRealSummary(0), block));
    return runCompleting(r.deployRoot(), r.jobName(), pod, "cpu-node-1");
  }

  @Test
  @DisplayName(
      "two checkouts in different directories run the same plan: verdict.json and artifacts.sha256 are"
          + " byte-identical, no file of either run directory holds an absolute path, and a copied run verifies")
  void runDirectoryLocationIndependent() throws Exception {
    String block = artifactBlock(tmp);
    RunOutcome a = renderedRun(tmp.resolve("cl1"), "-a1b2c", block);
    RunOutcome b = renderedRun(tmp.resolve("second-checkout/deeper"), "-d3e4f", block);
    for (String name : List.of("verdict.json", "artifacts.sha256", "profile_export_aiperf.json")) {
      assertThat(Files.readAllBytes(b.runDir().resolve(name)))
          .as(name)
          .isEqualTo(Files.readAllBytes(a.runDir().resolve(name)));
    }
    JsonNode verdict = json(a.runDir().resolve("verdict.json"));
    assertThat(verdict.at("/source/path").asString()).isEqualTo("profile_export_aiperf.json");
    assertThat(verdict.at("/runs/0/source/path").asString())
        .isEqualTo("aiperf/concurrency1/profile_export_aiperf.json");
    for (RunOutcome o : List.of(a, b)) {
      try (Stream<Path> s = Files.list(o.runDir())) {
        for (Path f : s.filter(Files::isRegularFile).toList()) {
          assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1))
              .as(f.toString())
              .doesNotContain(tmp.toString());
        }
      }
    }
    Path moved = tmp.resolve("moved/again");
    Files.createDirectories(moved.getParent());
    Files.move(tmp.resolve("cl1"), moved);
    Path runDir = moved.resolve(tmp.resolve("cl1").relativize(a.runDir()).toString());
    var ok = dev.benchplan.testing.CommandHarness.run("verify", runDir.toString()).expectOk();
    assertThat(ok.out()).contains("verdict recomputed").doesNotContain("not recomputed");
  }

  /** A run checking the smoke evidence's age at {@code now}, with the default 72 h limit. */
  static RunRequest smokeChecked(Path deployRoot, String now) {
    return RunRequest.builder(deployRoot)
        .timeout(Duration.ofSeconds(30))
        .scheduleTimeout(Duration.ofSeconds(15))
        .smokeAge(
            new dev.benchplan.workload.SmokeEvidence.AgeCheck(
                dev.benchplan.workload.SmokeEvidence.DEFAULT_MAX_AGE, java.time.Instant.parse(now)))
        .build();
  }

  static void smokeAt(RunFixture f, String timestamp) {
    f.editPlan(
        p ->
            ((tools.jackson.databind.node.ObjectNode) p.at("/deployment/smoke_test"))
                .put("kind", "smoke_artifact")
                .put("url", RunFixture.ENDPOINT)
                .put("timestamp", timestamp));
  }

  @Test
  @DisplayName(
      "issue 36 item 3: a smoke artifact past --smoke-max-age is refused before anything is created (exit 2)")
  void staleSmokeRefused() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    smokeAt(f, "2026-11-20T10:00:00Z");
    assertThatThrownBy(() -> run(f, smokeChecked(f.deployRoot, "2026-11-30T12:00:00Z")))
        .isInstanceOfSatisfying(
            BenchplanException.class, e -> assertThat(e.exitCode()).isEqualTo(2))
        .hasMessage(
            "run: plan "
                + f.planFile
                + " /deployment/smoke_test: smoke test artifact smoke.json /timestamp"
                + " 2026-11-20T10:00:00Z is 242 h (10 days) old, past the limit of 72 h (3 days)"
                + " (SMOKE_STALE, rule: execution/deployment-ledger.md): run `benchplan smoke`"
                + " against the endpoint again and record the new artifact in the ledger (or raise"
                + " the limit with --smoke-max-age); nothing created");
    assertNothingLeft();
    assertThat(f.runDir().getParent()).doesNotExist();
    assertThat(progress).noneMatch(p -> p.startsWith("preflight"));
  }

  @Test
  @DisplayName(
      "issue 36 item 3: a fresh smoke artifact runs and run.json records how old it was (schema-valid)")
  void freshSmokeRecorded() throws Exception {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    smokeAt(f, "2026-11-30T10:00:00Z");
    logs.set(POD, RunFixture.logWithRealSummary(0));
    RunOutcome o = runWith(f, smokeChecked(f.deployRoot, "2026-11-30T12:00:00Z"), completes(0));
    assertThat(o.exitCode()).as(o.verdict().message()).isZero();
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    JsonNode smoke = run.get("smoke_evidence");
    assertThat(smoke.get("timestamp").asString()).isEqualTo("2026-11-30T10:00:00Z");
    assertThat(smoke.get("age_s").asLong()).isEqualTo(7200);
    assertThat(smoke.get("max_age_s").asLong()).isEqualTo(259200);
    assertThat(smoke.get("judged_at").asString()).isEqualTo("2026-11-30T12:00:00Z");
  }

  @Test
  @DisplayName(
      "issue 36 item 3: a candidate ledger render bound that is gone cannot be judged: exit 2, nothing created")
  void candidateLedgerGone() {
    RunFixture f = RunFixture.create(tmp, NS, 50, 35);
    smokeAt(f, "2026-11-30T10:00:00Z");
    f.editJob(
        j ->
            ((tools.jackson.databind.node.ObjectNode) j.at("/metadata/annotations"))
                .put(JobContract.LEDGER, "ledgers/next.yaml")
                .put(JobContract.LEDGER_SHA256, "1".repeat(64)));
    assertThatThrownBy(() -> run(f, smokeChecked(f.deployRoot, "2026-11-30T12:00:00Z")))
        .isInstanceOfSatisfying(
            BenchplanException.class, e -> assertThat(e.exitCode()).isEqualTo(2))
        .hasMessage(
            f.perfYaml()
                + ": the ledger it was rendered for (ledgers/next.yaml, sha256 "
                + "1".repeat(64)
                + ") is missing: its smoke evidence's age cannot be judged; expected that ledger,"
                + " or re-render with --ledger naming the candidate's current ledger; nothing"
                + " created");
    assertNothingLeft();
    assertThat(f.runDir().getParent()).doesNotExist();
  }
}
