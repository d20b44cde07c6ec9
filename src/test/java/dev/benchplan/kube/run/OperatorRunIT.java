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
import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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
    operator = FakeAiperfOperator.start(client, kube.namespace(), job -> sweep.resolve("concurrency"
        + job.getMetadata().getAnnotations().get(AiperfJobContract.RUN_LOAD_POINT)));
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
  }

  private Path render(int... concurrency) {
    return OperatorPlans.render(tmp, kube.namespace(), operator.resultsService(), Clock.systemUTC(),
        SEED.incrementAndGet(), concurrency);
  }

  private RunOutcome run(Path root, OperatorRun.Settings settings) {
    KubeRunService service = new KubeRunService(KubeClients.shared(client), Fabric8LogSource::new,
        action -> () -> {}, Clock.systemUTC(), Duration.ofMillis(100), Duration.ofSeconds(30), settings);
    return service.run(new RunRequest(root, null, kube.namespace(), null, Duration.ofMinutes(2), null, false, false),
        (phase, elapsed, detail) -> progress.add(phase + (detail == null ? "" : ": " + detail)));
  }

  private static OperatorRun.Settings settings() {
    OperatorRun.Settings d = OperatorRun.Settings.defaults();
    return new OperatorRun.Settings(d.crds(), Duration.ofSeconds(30), Duration.ofMillis(200), Duration.ofSeconds(30));
  }

  private void assertNoAiperfJobs() {
    assertThat(client.genericKubernetesResources(FakeAiperfOperator.AIPERFJOBS).inNamespace(kube.namespace())
        .list().getItems()).as("AIPerfJobs left").isEmpty();
  }

  @Test
  @DisplayName("a 3-point grid: three AIPerfJobs one after another, results through the service proxy, a verified run directory (sha256sum -c passes), nothing left")
  void grid() throws Exception {
    Path root = render(1, 2, 4);
    RunOutcome o = run(root, settings());
    assertThat(o.exitCode()).as(String.join("\n", progress)).isIn(0, 1);
    Path dir = o.runDir();
    for (int c : new int[] {1, 2, 4}) {
      Path src = SharedData.require(SWEEP).resolve("concurrency" + c);
      try (var s = Files.list(src)) {
        for (Path f : s.toList()) {
          assertThat(dir.resolve("aiperf/concurrency_" + c + "/" + f.getFileName())).hasSameBinaryContentAs(f);
        }
      }
      assertThat(dir.resolve("aiperf/concurrency_" + c + "/" + FakeAiperfOperator.READY_MARKER)).exists();
    }
    Process p = new ProcessBuilder("sha256sum", "-c", "--strict", "artifacts.sha256").directory(dir.toFile())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out.lines().count()).isEqualTo(12); // 3 files + the ready marker, per point
    JsonNode run = Json.JSON.readTree(Files.readAllBytes(dir.resolve("run.json")));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    assertThat(run.path("engine").asString()).isEqualTo("aiperf-operator");
    assertThat(run.at("/artifacts/volume").asString()).isEqualTo("operator:" + operator.resultsService());
    assertThat(run.at("/operator/jobs")).hasSize(3);
    assertThat(run.at("/operator/transport").asString()).contains("service proxy");
    assertThat(String.join("\n", progress)).contains("profiling, 40/80 requests").contains("Completed");
    assertThat(dir.resolve("verdict.json")).exists();
    assertNoAiperfJobs();
    progress.forEach(l -> System.out.println("[OperatorRunIT] " + l));
    System.out.println("[OperatorRunIT] sha256sum -c: " + out.lines().limit(3).toList());
    System.out.println("[OperatorRunIT] cleanup: " + o.cleanup());
  }

  @Test
  @DisplayName("the operator reports Failed: exit 3 naming the phase and its error, no run directory, nothing left")
  void failed() {
    operator.mode(FakeAiperfOperator.Mode.FAIL);
    Path root = render(1);
    assertThatThrownBy(() -> run(root, settings())).isInstanceOf(BenchplanException.class)
        .hasMessageContaining("ended Failed").hasMessageContaining("worker pods lost")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    assertThat(root.resolve("benchmark/runs")).satisfies(r -> assertThat(!Files.exists(r)
        || Files.list(r).noneMatch(x -> x.getFileName().toString().matches("\\d{8}T\\d{6}Z-[0-9a-f]{4}")))
        .isTrue());
    assertNoAiperfJobs();
  }

  @Test
  @DisplayName("a results file arrives short: exit 3 naming the file, the partial copy set aside, nothing left")
  void shortFile() throws Exception {
    operator.mode(FakeAiperfOperator.Mode.SHORT_FILE);
    Path root = render(2);
    assertThatThrownBy(() -> run(root, settings())).isInstanceOf(BenchplanException.class)
        .hasMessageContaining("profile_export.jsonl").hasMessageContaining("arrived short")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3));
    try (var s = Files.list(root.resolve("benchmark/runs"))) {
      assertThat(s.map(x -> x.getFileName().toString()).toList()).allMatch(n -> n.contains(".incomplete-"));
    }
    assertNoAiperfJobs();
  }

  @Test
  @DisplayName("an absent CRD: exit 2 naming it, nothing applied (the check is pointed at a CRD name no cluster has)")
  void absentCrd() {
    Path root = render(1);
    int before = operator.seen().size();
    OperatorRun.Settings s = settings();
    OperatorRun.Settings absent = new OperatorRun.Settings(List.of(AiperfJobContract.CRD,
        "aiperfjobs-absent.aiperf.nvidia.com"), s.resultsWait(), s.poll(), s.requestTimeout());
    assertThatThrownBy(() -> run(root, absent)).isInstanceOf(BenchplanException.class)
        .hasMessageContaining("aiperfjobs-absent.aiperf.nvidia.com").hasMessageContaining("nothing was applied")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThat(operator.seen()).hasSize(before);
    assertThat(root.resolve("benchmark/runs")).doesNotExist();
    assertNoAiperfJobs();
  }
}
