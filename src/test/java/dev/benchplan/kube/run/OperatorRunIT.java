package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.kubetest.FakeAiperfOperator;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.render.AiperfJobContract;
import dev.benchplan.render.OperatorPlans;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.Coreutils;
import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code run} of an {@code aiperf-operator} plan on the real control plane: benchplan's test CRDs
 * (AIPerfJob, JobSet), an operator stand-in that drives each AIPerfJob's status and serves a real
 * AIPerf artifact tree (../shared/data/aiperf/sweep-qwen3-0.6b) at the results API's paths, reached
 * through the API server's service proxy. After every run, no AIPerfJob is left.
 */
@KubeTestEnv
class OperatorRunIT {
  private static final String SWEEP = "aiperf/sweep-qwen3-0.6b";
  private static final AtomicLong SEED = new AtomicLong(System.nanoTime());
  private static FakeAiperfOperator operator;

  @TempDir Path tmp;
  KubeTestContext kube;
  KubernetesClient client;
  final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void start(KubeTestContext kube, KubernetesClient client) throws Exception {
    Path sweep = SharedData.require(SWEEP);
    FakeAiperfOperator.installCrds(client);
    // a replay has no load point: it "writes" the first point's files
    operator =
        FakeAiperfOperator.start(
            client,
            kube.namespace(),
            job ->
                sweep.resolve(
                    "concurrency"
                        + job.getMetadata()
                            .getAnnotations()
                            .getOrDefault(AiperfJobContract.RUN_LOAD_POINT, "1")));
  }

  @AfterAll
  static void stop() {
    if (operator != null) {
      operator.close();
    }
  }

  @BeforeEach
  void inject(KubeTestContext kube, KubernetesClient client) {
    this.kube = kube;
    this.client = client;
    operator.mode(FakeAiperfOperator.Mode.COMPLETE);
    operator.holdRunning(false);
  }

  private Path render(int... concurrency) {
    return OperatorPlans.render(
        tmp,
        kube.namespace(),
        operator.resultsService(),
        Clock.systemUTC(),
        SEED.incrementAndGet(),
        concurrency);
  }

  private RunOutcome run(Path root, OperatorRun.Settings settings) {
    return run(root, settings, Duration.ofMinutes(2), action -> () -> {});
  }

  private RunOutcome run(
      Path root,
      OperatorRun.Settings settings,
      Duration timeout,
      dev.benchplan.run.ShutdownHooks hooks) {
    KubeRunService service =
        new KubeRunService(
            KubeClients.shared(client),
            Fabric8LogSource::new,
            hooks,
            Clock.systemUTC(),
            KubeRunService.Settings.of(Duration.ofMillis(100), Duration.ofSeconds(30))
                .withOperator(settings));
    return service.run(
        RunRequest.builder(root).namespace(kube.namespace()).timeout(timeout).build(),
        (phase, elapsed, detail) -> {
          progress.add(phase + (detail == null ? "" : ": " + detail));
          // a job held Running goes on once the run has reported that status
          if (phase.equals("running")
              && detail != null
              && detail.contains(": Running, profiling")) {
            operator.proceed(detail.substring(0, detail.indexOf(": ")));
          }
        });
  }

  private void assertNoRunDirectory(Path root) throws Exception {
    Path runs = root.resolve("benchmark/runs");
    if (Files.exists(runs)) {
      try (var s = Files.list(runs)) {
        assertThat(s.map(x -> x.getFileName().toString()).toList())
            .as("run directories")
            .noneMatch(n -> n.matches("\\d{8}T\\d{6}Z-[0-9a-f]{4}"));
      }
    }
  }

  @Test
  @DisplayName(
      "timeout: the AIPerfJob runs past run's bound -> spec.cancel set, the operator reports Cancelled,"
          + " exit 3 naming the timeout, the AIPerfJob deleted, no run directory")
  void timeoutCancels() throws Exception {
    operator.mode(FakeAiperfOperator.Mode.HANG);
    Path root = render(1);
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> run(root, settings(), Duration.ofSeconds(3), action -> () -> {}))
        .isInstanceOf(BenchplanException.class)
        .satisfies(
            e ->
                assertThat(e)
                    .hasMessage(
                        "timeout: AIPerfJob "
                            + kube.namespace()
                            + "/"
                            + operator.seen().get(operator.seen().size() - 1)
                            + " did not finish within 3 s; spec.cancel set, the operator cancelled"
                            + " it; no run directory written"))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    String name = operator.seen().get(operator.seen().size() - 1);
    assertThat(operator.cancelled()).contains(name);
    assertThat(progress)
        .anyMatch(p -> p.startsWith("timeout: " + name + ": set spec.cancel on AIPerfJob"));
    assertNoAiperfJobs();
    assertNoRunDirectory(root);
    System.out.println(
        "[OperatorRunIT] timeout -> cancelled in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
  }

  @Test
  @DisplayName(
      "Ctrl-C while the AIPerfJob runs: spec.cancel set, the AIPerfJob deleted, exit 3 'interrupted',"
          + " no run directory")
  void interruptCancels() throws Exception {
    operator.mode(FakeAiperfOperator.Mode.HANG);
    Path root = render(2);
    AtomicReference<Runnable> hook = new AtomicReference<>();
    dev.benchplan.run.ShutdownHooks hooks =
        action -> {
          hook.set(action);
          return () -> hook.set(null);
        };
    int before = operator.seen().size();
    Thread ctrlC =
        new Thread(
            () -> {
              try {
                String name = operator.awaitSeen(before, 60);
                if (name != null && operator.awaitRunning(name, 60) && hook.get() != null) {
                  hook.get().run(); // what the JVM's shutdown hook runs on SIGINT
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    ctrlC.start();
    assertThatThrownBy(() -> run(root, settings(), Duration.ofMinutes(2), hooks))
        .isInstanceOf(BenchplanException.class)
        .satisfies(
            e ->
                assertThat(e)
                    .hasMessage(
                        "interrupted: AIPerfJob "
                            + kube.namespace()
                            + "/"
                            + operator.seen().get(before)
                            + " cancelled; no run directory written"))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    ctrlC.join(10_000);
    String name = operator.seen().get(before);
    // the stand-in's informer sees the patch asynchronously
    boolean cancelSeen = operator.awaitCancelled(name, 10);
    progress.forEach(l -> System.out.println("[OperatorRunIT] interrupt: " + l));
    assertThat(cancelSeen).as("spec.cancel seen by the operator within 10 s").isTrue();
    assertThat(operator.cancelled()).as("spec.cancel seen by the operator").contains(name);
    assertThat(progress)
        .anyMatch(
            p ->
                p.startsWith(
                    "interrupted: set spec.cancel on AIPerfJob " + kube.namespace() + "/" + name));
    assertNoAiperfJobs();
    assertNoRunDirectory(root);
  }

  private static OperatorRun.Settings settings() {
    OperatorRun.Settings d = OperatorRun.Settings.defaults();
    return new OperatorRun.Settings(
        d.crds(), Duration.ofSeconds(30), Duration.ofMillis(200), Duration.ofSeconds(30));
  }

  private void assertNoAiperfJobs() {
    assertThat(
            client
                .genericKubernetesResources(FakeAiperfOperator.AIPERFJOBS)
                .inNamespace(kube.namespace())
                .list()
                .getItems())
        .as("AIPerfJobs left")
        .isEmpty();
  }

  @Test
  @DisplayName(
      "a 3-point grid, rendered as arm B of an AB/BA pair: three AIPerfJobs one after another, results"
          + " through the service proxy, a verified run directory (sha256sum -c passes), run.json's /pair"
          + " from the AIPerfJobs' label, nothing left")
  void grid() throws Exception {
    // each AIPerfJob stays Running until the run reported it, so the progress assertion below holds
    operator.holdRunning(true);
    Path root =
        OperatorPlans.render(
            tmp,
            kube.namespace(),
            operator.resultsService(),
            Clock.systemUTC(),
            SEED.incrementAndGet(),
            new dev.benchplan.render.PairLabel("op1", "BA", "B"),
            1,
            2,
            4);
    RunOutcome o = run(root, settings());
    assertThat(o.exitCode()).as(String.join("\n", progress)).isIn(0, 1);
    Path dir = o.runDir();
    for (int c : new int[] {1, 2, 4}) {
      Path src = SharedData.require(SWEEP).resolve("concurrency" + c);
      try (var s = Files.list(src)) {
        for (Path f : s.toList()) {
          assertThat(dir.resolve("aiperf/concurrency_" + c + "/" + f.getFileName()))
              .hasSameBinaryContentAs(f);
        }
      }
      assertThat(dir.resolve("aiperf/concurrency_" + c + "/" + FakeAiperfOperator.READY_MARKER))
          .exists();
    }
    String out = Coreutils.sha256sumCheck(dir);
    assertThat(out.lines().count()).isEqualTo(12); // 3 files + the ready marker, per point
    JsonNode run = Json.JSON.readTree(Files.readAllBytes(dir.resolve("run.json")));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    assertThat(run.path("engine").asString()).isEqualTo("aiperf-operator");
    // issue 33: what run --format json prints under /run (RunOutcome.record) is run.json, field for
    // field: engine and operator included (both as text, parsed, trees compared)
    assertThat(Json.JSON.readTree(Json.JSON.writeValueAsString(o.record()))).isEqualTo(run);
    assertThat(o.run().engine())
        .isEqualTo(dev.benchplan.runrecord.RunRecordDocument.Engine.AIPERF_OPERATOR);
    assertThat(o.run().operator().jobs()).hasSize(3);
    // issue 13: the pair reaches run.json on the operator engine as on the plain Job
    assertThat(
            List.of(
                run.at("/pair/id").asString(),
                run.at("/pair/order").asString(),
                run.at("/pair/arm").asString()))
        .containsExactly("op1", "BA", "B");
    assertThat(run.at("/artifacts/volume").asString())
        .isEqualTo("operator:" + operator.resultsService());
    assertThat(run.at("/operator/jobs")).hasSize(3);
    assertThat(run.at("/operator/transport").asString()).contains("service proxy");
    assertThat(String.join("\n", progress))
        .contains("profiling, 40/80 requests")
        .contains("Completed");
    assertThat(dir.resolve("verdict.json")).exists();
    assertNoAiperfJobs();
    progress.forEach(l -> System.out.println("[OperatorRunIT] " + l));
    System.out.println("[OperatorRunIT] sha256sum -c: " + out.lines().limit(3).toList());
    System.out.println("[OperatorRunIT] cleanup: " + o.cleanup());
  }

  @Test
  @DisplayName(
      "issue 33: `benchplan run --format json` of an operator deploy root (the CLI, in-process): its"
          + " stdout's run is run.json field for field, engine and operator included; nothing left")
  void cliJsonIsRunJson() throws Exception {
    Path root = render(1);
    Path kubeconfig =
        kube.cluster()
            .writeKubeconfig(
                tmp.resolve("kubeconfig"), kube.cluster().adminToken(), kube.namespace());
    String previous = System.setProperty("kubeconfig", kubeconfig.toString());
    try {
      var r =
          dev.benchplan.testing.CommandHarness.run(
              "run", "--deploy-root", root.toString(), "--format", "json");
      assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
      JsonNode out = dev.benchplan.testing.JsonDocuments.assertStdout("run", r.out());
      JsonNode run =
          Json.JSON.readTree(
              Files.readAllBytes(Path.of(out.get("run_dir").asString()).resolve("run.json")));
      // both parsed and compared as trees: every field, nested ones included
      assertThat(out.get("run")).isEqualTo(run);
      assertThat(out.at("/run/engine").asString()).isEqualTo("aiperf-operator");
      assertThat(out.at("/run/operator/jobs")).hasSize(1);
      assertThat(r.err()).contains("run [preflight] ").contains(" AIPerfJob(s), operator results");
    } finally {
      if (previous == null) {
        System.clearProperty("kubeconfig");
      } else {
        System.setProperty("kubeconfig", previous);
      }
    }
    assertNoAiperfJobs();
  }

  @Test
  @DisplayName(
      "a trace replay: the trace's ConfigMap applied before the AIPerfJob (its SHA-256 the one the pods"
          + " check), results collected, the ConfigMap and AIPerfJob deleted")
  void traceReplay() throws Exception {
    Path trace = SharedData.require("aiperf/precise_schedule.jsonl");
    Path root =
        OperatorPlans.renderTrace(
            tmp,
            kube.namespace(),
            operator.resultsService(),
            Clock.systemUTC(),
            SEED.incrementAndGet(),
            trace);
    RunOutcome o = run(root, settings());
    assertThat(o.exitCode()).as(String.join("\n", progress)).isIn(0, 1);
    String name = operator.seen().get(operator.seen().size() - 1);
    assertThat(operator.traceChecks().get(name))
        .isEqualTo("ok " + dev.benchplan.json.Sha256.ofFile(trace));
    assertThat(progress)
        .anyMatch(p -> p.startsWith("applied: ConfigMap ") && p.contains("the replayed trace"));
    assertThat(o.cleanup()).anyMatch(c -> c.startsWith("deleted ConfigMap "));
    assertThat(client.configMaps().inNamespace(kube.namespace()).list().getItems())
        .noneMatch(c -> c.getMetadata().getName().endsWith("-trace"));
    assertThat(o.runDir().resolve("aiperf/" + FakeAiperfOperator.READY_MARKER)).exists();
    assertNoAiperfJobs();
  }

  @Test
  @DisplayName(
      "the operator reports Failed: exit 3 naming the phase and its error, no run directory, nothing left")
  void failed() {
    operator.mode(FakeAiperfOperator.Mode.FAIL);
    Path root = render(1);
    assertThatThrownBy(() -> run(root, settings()))
        .isInstanceOf(BenchplanException.class)
        // 'worker pods lost: ...' is FakeAiperfOperator's status error, passed through
        .satisfies(
            e ->
                assertThat(e)
                    .hasMessage(
                        "AIPerfJob "
                            + kube.namespace()
                            + "/"
                            + operator.seen().get(operator.seen().size() - 1)
                            + " ended Failed: worker pods lost: 2 of 3 workers exited; no run"
                            + " directory written"))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    assertThat(root.resolve("benchmark/runs"))
        .satisfies(
            r ->
                assertThat(
                        !Files.exists(r)
                            || Files.list(r)
                                .noneMatch(
                                    x ->
                                        x.getFileName()
                                            .toString()
                                            .matches("\\d{8}T\\d{6}Z-[0-9a-f]{4}")))
                    .isTrue());
    assertNoAiperfJobs();
  }

  @Test
  @DisplayName(
      "a results file arrives short: exit 3 naming the file, the partial copy set aside, nothing left")
  void shortFile() throws Exception {
    operator.mode(FakeAiperfOperator.Mode.SHORT_FILE);
    Path root = render(2);
    assertThatThrownBy(() -> run(root, settings()))
        .isInstanceOf(BenchplanException.class)
        // the run id in the kept-aside name and the time it was set aside are the unknown parts
        .satisfies(
            e ->
                assertThat(e)
                    .hasMessageMatching(
                        java.util.regex.Pattern.quote(
                                "AIPerfJob "
                                    + operator.seen().get(operator.seen().size() - 1)
                                    + ": results file profile_export.jsonl arrived short (19006"
                                    + " bytes arrived, the listing says 38012); the partial copy"
                                    + " is kept aside in "
                                    + root.resolve("benchmark/runs")
                                    + "/")
                            + "\\d{8}T\\d{6}Z-[0-9a-f]{4}\\.incomplete-\\d{8}T\\d{6}Z"
                            + java.util.regex.Pattern.quote(" (incomplete, not a run)")))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    try (var s = Files.list(root.resolve("benchmark/runs"))) {
      assertThat(s.map(x -> x.getFileName().toString()).toList())
          .allMatch(n -> n.contains(".incomplete-"));
    }
    assertNoAiperfJobs();
  }

  @Test
  @DisplayName(
      "an absent CRD: exit 2 naming it, nothing applied (the check is pointed at a CRD name no cluster has)")
  void absentCrd() {
    Path root = render(1);
    int before = operator.seen().size();
    OperatorRun.Settings s = settings();
    OperatorRun.Settings absent =
        new OperatorRun.Settings(
            List.of(AiperfJobContract.CRD, "aiperfjobs-absent.aiperf.nvidia.com"),
            s.resultsWait(),
            s.poll(),
            s.requestTimeout());
    assertThatThrownBy(() -> run(root, absent))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            root.resolve("benchmark/aiperfjobs.yaml")
                + ": engine aiperf-operator needs AIPerf's operator, but the cluster has no"
                + " established CustomResourceDefinition aiperfjobs-absent.aiperf.nvidia.com;"
                + " nothing was applied: expected AIPerf's operator installed (its Helm chart"
                + " aiperf-operator, with JobSet), or a plan with --engine job")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThat(operator.seen()).hasSize(before);
    assertThat(root.resolve("benchmark/runs")).doesNotExist();
    assertNoAiperfJobs();
  }
}
