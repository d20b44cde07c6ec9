package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.Coreutils;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The PVC path on the real control plane ({@code render --artifacts-pvc}): the Job's own container
 * command executed by the kubelet stand-in writes a tree past the pod-log bound to the claim (a
 * local folder shared by every pod mounting it), prints too-large and its manifest; {@code run}
 * then starts collector pods (the real encoder in python3, mounting the claim read-only), joins
 * their parts, verifies against the Job's manifest, and removes every collector pod; a collector
 * that fails is exit 3, named, its partial copy kept aside as incomplete.
 */
@KubeTestEnv
class ArtifactCollectorIT {
  private static final String CLAIM = "bench-artifacts";

  /** Small parts, so a 13 MB tree needs several collector pods. */
  private static final ArtifactCollector.Settings SMALL_PARTS =
      new ArtifactCollector.Settings(200, Duration.ofMinutes(2));

  private static FakeKubelet kubelet;
  @TempDir static Path work;
  @TempDir Path tmp;
  final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void cluster(KubeTestContext kube) {
    kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-pvc", 0));
  }

  private RunOutcome run(KubernetesClient client, Path deployRoot) {
    return new KubeRunService(
            KubeClients.shared(client),
            Fabric8LogSource::new,
            action -> () -> {},
            Clock.systemUTC(),
            KubeRunService.Settings.CLI.withCollector(SMALL_PARTS))
        .run(
            RunRequest.builder(deployRoot)
                .timeout(Duration.ofMinutes(4))
                .scheduleTimeout(Duration.ofSeconds(60))
                .build(),
            (phase, elapsed, detail) ->
                progress.add(
                    "["
                        + elapsed.toMillis()
                        + " ms] "
                        + phase
                        + (detail == null ? "" : ": " + detail)));
  }

  private static Predicate<Pod> collector(String jobName) {
    return p ->
        FakeKubelet.labelled(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE).test(p)
            && p.getMetadata()
                .getName()
                .startsWith(jobName.substring(0, Math.min(jobName.length(), 40)));
  }

  /** Records every collector pod the API server saw created. */
  private static List<String> watchCollectors(
      KubernetesClient client, String ns, List<AutoCloseable> closers) {
    List<String> seen = new CopyOnWriteArrayList<>();
    var informer =
        client
            .pods()
            .inNamespace(ns)
            .withLabel(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE)
            .inform(
                new io.fabric8.kubernetes.client.informers.ResourceEventHandler<Pod>() {
                  @Override
                  public void onAdd(Pod p) {
                    seen.add(p.getMetadata().getName());
                  }

                  @Override
                  public void onUpdate(Pod o, Pod p) {}

                  @Override
                  public void onDelete(Pod p, boolean u) {}
                });
    closers.add(informer::close);
    return seen;
  }

  private static void sha256sumVerifies(Path runDir) throws Exception {
    String out = Coreutils.sha256sumCheck(runDir);
    assertThat(out).doesNotContain("FAILED");
  }

  /** Nothing of the run is left ({@link RunCluster#assertClean}), and no collector pod. */
  private static void assertClean(KubernetesClient client, String ns, String jobName) {
    RunCluster.assertClean(client, ns, jobName);
    assertThat(
            client
                .pods()
                .inNamespace(ns)
                .withLabel(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE)
                .list()
                .getItems())
        .as("collector pods left")
        .isEmpty();
  }

  /** Every file under {@code dir} by relative path, with its SHA-256. */
  private static java.util.Map<String, String> hashes(Path dir) throws Exception {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), dev.benchplan.json.Sha256.ofFile(p));
      }
    }
    return out;
  }

  private RenderedPerf render(KubeTestContext kube, Path root) throws Exception {
    return RenderedPerf.create(
        root,
        kube.namespace(),
        w -> w.replace("request_count: 1000", "request_count: 200"),
        List.of(),
        List.of("--artifacts-pvc", CLAIM));
  }

  @Test
  @DisplayName(
      "PVC path: a 13 MB tree past the log bound comes back through several collector pods, verifies with sha256sum -c, no collector pod left")
  void pvcPath(KubeTestContext kube, KubernetesClient client) throws Exception {
    RenderedPerf r = render(kube, tmp);
    PodExecution exec = PodExecution.in(work.resolve("pvc")).aiperfRecordsBytes(13_000_000);
    kubelet.when(FakeKubelet.labelled("job-name", r.jobName()), PodScript.execute(exec));
    kubelet.when(collector(r.jobName()), PodScript.execute(exec));
    List<AutoCloseable> closers = new ArrayList<>();
    List<String> collectors = watchCollectors(client, kube.namespace(), closers);
    RunOutcome o;
    try {
      o = run(client, r.deployRoot());
    } finally {
      for (AutoCloseable c : closers) {
        c.close();
      }
    }
    String why = String.join("\n", progress);
    String log = Files.readString(o.runDir().resolve("pod.log"));
    assertThat(log)
        .as(why)
        .contains("==== benchplan:artifacts:too-large ")
        .contains("==== benchplan:artifacts:manifest ")
        .doesNotContain("==== benchplan:artifacts:begin");
    assertThat(collectors)
        .as(why)
        .hasSizeGreaterThan(1)
        .allSatisfy(n -> assertThat(n).contains("-collect-"));
    long tree;
    try (Stream<Path> s = Files.walk(o.runDir().resolve("aiperf"))) {
      tree = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
    assertThat(tree).isGreaterThan(12L * 1024 * 1024);
    // what came back is byte for byte what the Job left on the claim
    Path onClaim = exec.claimDir(kube.namespace(), CLAIM).resolve(r.runId());
    assertThat(hashes(o.runDir().resolve("aiperf"))).isEqualTo(hashes(onClaim));
    sha256sumVerifies(o.runDir());
    JsonNode verdict = Json.JSON.readTree(Files.readAllBytes(o.runDir().resolve("verdict.json")));
    assertThat(verdict.path("verdict").asString()).as(why + "\n" + verdict).isIn("pass", "fail");
    assertThat(o.cleanup()).anySatisfy(c -> assertThat(c).contains("-collect-"));
    assertClean(client, kube.namespace(), r.jobName());
  }

  @Test
  @DisplayName(
      "a collector pod that fails: exit 3 naming the pod, the partial copy kept aside as incomplete, no run directory, no collector pod left")
  void collectorFails(KubeTestContext kube, KubernetesClient client) throws Exception {
    RenderedPerf r = render(kube, tmp);
    PodExecution exec = PodExecution.in(work.resolve("fail")).aiperfRecordsBytes(13_000_000);
    kubelet.when(FakeKubelet.labelled("job-name", r.jobName()), PodScript.execute(exec));
    kubelet.when(collector(r.jobName()), PodScript.execute(exec));
    // the second part's pod cannot read the claim
    kubelet.when(
        p -> collector(r.jobName()).test(p) && p.getMetadata().getName().endsWith("-collect-1"),
        PodScript.replayLog(
            "PermissionError: [Errno 13] Permission denied: '/artifacts/" + r.runId() + "'\n", 1));
    Throwable thrown = catchThrowable(() -> run(client, r.deployRoot()));
    Path runs = r.deployRoot().resolve("benchmark/runs");
    assertThat(runs.resolve(r.runId())).doesNotExist();
    Path aside;
    try (Stream<Path> s = Files.list(runs)) {
      aside =
          s.filter(p -> p.getFileName().toString().startsWith(r.runId() + ".incomplete-"))
              .findFirst()
              .orElseThrow();
    }
    // the pod is named after the Job, cut so that '-collect-1' keeps it a DNS label
    String pod =
        r.jobName().substring(0, 63 - "-collect-1".length()).replaceAll("-+$", "") + "-collect-1";
    assertThat(thrown)
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3))
        .hasMessage(
            "artifact collector pod "
                + kube.namespace()
                + "/"
                + pod
                + " failed (exit 1, Error); log tail: PermissionError: [Errno 13] Permission"
                + " denied: '/artifacts/"
                + r.runId()
                + "'; the partial copy is kept aside in "
                + aside
                + " (incomplete, not a run)");
    // the first part arrived and is kept with the failed copy
    assertThat(Files.readString(aside.resolve("collector-parts.log")))
        .startsWith("==== benchplan:artifacts:begin v1 ====");
    assertClean(client, kube.namespace(), r.jobName());
  }
}
