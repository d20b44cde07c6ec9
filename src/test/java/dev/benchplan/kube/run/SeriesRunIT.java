package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.Coreutils;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A whole plan measured by one {@code run} on the real control plane, the Job's own container
 * command executed by the kubelet stand-in (python3, the Job program, the stand-in aiperf writing
 * the real sweep's files): a 3-point grid (job-sequence) and the series' noise-floor pilot
 * (aiperf-multi-run). The run directory verifies with {@code sha256sum -c}, the verdict has one
 * entry per load point and repetition, the grid names its capacity, nothing benchplan created
 * remains.
 */
@KubeTestEnv
class SeriesRunIT {
  private static FakeKubelet kubelet;
  @TempDir static Path work;
  @TempDir Path tmp;
  final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void cluster(KubeTestContext kube) {
    kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-series", 0));
  }

  private RunOutcome run(KubernetesClient client, Path deployRoot) {
    return KubeRunServices.using(client, action -> () -> {})
        .run(
            RunRequest.builder(deployRoot)
                .timeout(Duration.ofMinutes(3))
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

  /** {@code sha256sum -c artifacts.sha256} in the run directory: coreutils alone verify the run. */
  private static void assertVerifies(Path runDir) throws Exception {
    assertThat(Coreutils.sha256sumCheck(runDir)).doesNotContain("FAILED");
  }

  private static JsonNode json(Path p) throws Exception {
    return Json.JSON.readTree(Files.readAllBytes(p));
  }

  @Test
  @DisplayName(
      "3-point grid in one Job (job-sequence): verified tree, one verdict per point, capacity concurrency 2, exit 1 for c=4")
  void grid(KubeTestContext kube, KubernetesClient client) throws Exception {
    RenderedPerf r =
        RenderedPerf.create(
            tmp,
            kube.namespace(),
            w ->
                w.replace("concurrency: [16]", "concurrency: [1, 2, 4]")
                    .replace("request_count: 1000", "request_count: 200")
                    .replace("output_tput_per_gpu_min: 1500", "output_tput_per_gpu_min: 40")
                    .replace("max: 500", "max: 50"));
    kubelet.when(
        FakeKubelet.labelled("job-name", r.jobName()),
        PodScript.execute(PodExecution.in(work.resolve("grid"))));
    RunOutcome o = run(client, r.deployRoot());
    String why = String.join("\n", progress) + "\n" + o.verdict().message();
    JsonNode verdict = json(o.runDir().resolve("verdict.json"));
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(verdict))
        .as(verdict.toString())
        .isEmpty();
    assertThat(verdict.get("runs")).as(why).hasSize(3);
    assertThat(verdict.at("/runs/0/directory").asString()).isEqualTo("concurrency_1");
    assertThat(verdict.at("/runs/2/verdict").asString()).as(verdict.toString()).isEqualTo("fail");
    assertThat(verdict.at("/runs/1/verdict").asString()).as(verdict.toString()).isEqualTo("pass");
    assertThat(verdict.at("/capacity/load_point").asString()).isEqualTo("2");
    assertThat(o.exitCode()).as(why).isEqualTo(1);
    JsonNode run = json(o.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run))
        .as(run.toString())
        .isEmpty();
    assertThat(run.at("/measured_runs/mechanism").asString()).isEqualTo("job-sequence");
    assertThat(run.at("/measured_runs/runs")).hasSize(3);
    assertThat(run.at("/measured_runs/runs/2/load_point").asString()).isEqualTo("4");
    assertThat(run.at("/measured_runs/runs/2/summary_sha256").asString())
        .isEqualTo("df8e48c341030096778f8edd5217089baa92ffd33dc5da605eee3ebfc2d4b4dd");
    assertThat(run.at("/measured_runs/runs/0/role").asString()).isEqualTo("measurement");
    assertThat(o.runDir().resolve("aiperf/concurrency_4/profile_export.jsonl")).exists();
    assertVerifies(o.runDir());
    RunCluster.assertClean(client, kube.namespace(), r.jobName());
  }

  @Test
  @DisplayName(
      "noise-floor pilot (n = 3, aiperf-multi-run): profile_runs/run_000{1,2,3} verified, three verdicts, marked as the pilot")
  void pilot(KubeTestContext kube, KubernetesClient client) throws Exception {
    RenderedPerf r =
        RenderedPerf.create(
            tmp,
            kube.namespace(),
            w -> w.replace("request_count: 1000", "request_count: 200"),
            "--pilot");
    kubelet.when(
        FakeKubelet.labelled("job-name", r.jobName()),
        PodScript.execute(PodExecution.in(work.resolve("pilot"))));
    RunOutcome o = run(client, r.deployRoot());
    String why = String.join("\n", progress) + "\n" + o.verdict().message();
    JsonNode verdict = json(o.runDir().resolve("verdict.json"));
    assertThat(SchemaValidator.bundled("verdict.schema.json").validate(verdict))
        .as(verdict.toString())
        .isEmpty();
    assertThat(verdict.get("runs")).as(why).hasSize(3);
    assertThat(verdict.at("/runs/2/repetition").asInt()).isEqualTo(3);
    assertThat(verdict.get("capacity").isNull()).isTrue();
    // the example's throughput gate (1500 tokens/s per GPU) fails on the real numbers: a gated
    // failure, exit 1
    assertThat(o.exitCode()).as(why).isEqualTo(1);
    JsonNode run = json(o.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run))
        .as(run.toString())
        .isEmpty();
    assertThat(run.at("/measured_runs/mechanism").asString()).isEqualTo("aiperf-multi-run");
    assertThat(run.at("/measured_runs/pilot").asBoolean()).isTrue();
    assertThat(run.at("/measured_runs/runs")).hasSize(3);
    for (JsonNode m : run.at("/measured_runs/runs")) {
      assertThat(m.get("role").asString()).isEqualTo("noise-floor-pilot");
      assertThat(m.get("load_point").asString()).isEqualTo("16");
    }
    try (Stream<Path> s = Files.list(o.runDir().resolve("aiperf/profile_runs"))) {
      assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactly("run_0001", "run_0002", "run_0003");
    }
    assertThat(o.runDir().resolve("aiperf/aggregate/profile_export_aiperf_aggregate.json"))
        .exists();
    assertVerifies(o.runDir());
    RunCluster.assertClean(client, kube.namespace(), r.jobName());
  }

  @Test
  @DisplayName(
      "a log cut in the middle of the artifact block: exit 3 naming what is missing, the partial copy kept aside as incomplete, no run directory, nothing left")
  void logCut(KubeTestContext kube, KubernetesClient client) throws Exception {
    RenderedPerf r =
        RenderedPerf.create(
            tmp,
            kube.namespace(),
            w ->
                w.replace("concurrency: [16]", "concurrency: [1, 2, 4]")
                    .replace("request_count: 1000", "request_count: 200"));
    // the three runs' records grown to 1 MB each: the block is far longer than the 200 kB served
    kubelet.when(
        FakeKubelet.labelled("job-name", r.jobName()),
        PodScript.execute(
            PodExecution.in(work.resolve("cut")).aiperfRecordsBytes(1_000_000).cutLogAt(200_000)));
    assertThatThrownBy(() -> run(client, r.deployRoot()))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3))
        .hasMessageContaining("kept aside")
        .hasMessageContaining("incomplete");
    Path runs = r.deployRoot().resolve("benchmark/runs");
    assertThat(runs.resolve(r.runId())).doesNotExist();
    try (Stream<Path> s = Files.list(runs)) {
      assertThat(s.map(p -> p.getFileName().toString()).toList())
          .anySatisfy(n -> assertThat(n).startsWith(r.runId() + ".incomplete-"));
    }
    RunCluster.assertClean(client, kube.namespace(), r.jobName());
  }

  @Test
  @DisplayName(
      "transport figures: pod completion -> verified run directory for 1 MB and 10 MB trees (printed, written to target/)")
  void transportFigures(KubeTestContext kube, KubernetesClient client) throws Exception {
    List<String> lines = new ArrayList<>();
    for (long mb : List.of(1L, 10L)) {
      Path root = tmp.resolve("t" + mb);
      RenderedPerf r =
          RenderedPerf.create(
              root, kube.namespace(), w -> w.replace("request_count: 1000", "request_count: 200"));
      kubelet.when(
          FakeKubelet.labelled("job-name", r.jobName()),
          PodScript.execute(
              PodExecution.in(work.resolve("t" + mb)).aiperfRecordsBytes(mb * 1_000_000)));
      java.util.concurrent.atomic.AtomicReference<java.time.Instant> completed =
          new java.util.concurrent.atomic.AtomicReference<>();
      var watch =
          client
              .pods()
              .withLabel("job-name", r.jobName())
              .inform(
                  new io.fabric8.kubernetes.client.informers.ResourceEventHandler<
                      io.fabric8.kubernetes.api.model.Pod>() {
                    @Override
                    public void onAdd(io.fabric8.kubernetes.api.model.Pod p) {
                      seen(p);
                    }

                    @Override
                    public void onUpdate(
                        io.fabric8.kubernetes.api.model.Pod o,
                        io.fabric8.kubernetes.api.model.Pod p) {
                      seen(p);
                    }

                    @Override
                    public void onDelete(io.fabric8.kubernetes.api.model.Pod p, boolean u) {}

                    private void seen(io.fabric8.kubernetes.api.model.Pod p) {
                      if (p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase())) {
                        completed.compareAndSet(null, java.time.Instant.now());
                      }
                    }
                  });
      RunOutcome o;
      try {
        o = run(client, r.deployRoot());
      } finally {
        watch.close();
      }
      java.time.Instant onDisk = Files.getLastModifiedTime(o.runDir().getParent()).toInstant();
      long tree;
      try (Stream<Path> s = Files.walk(o.runDir().resolve("aiperf"))) {
        tree = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
      }
      assertVerifies(o.runDir());
      lines.add(
          String.format(
              java.util.Locale.ROOT,
              "tree %d bytes, pod.log %d bytes: pod Succeeded -> verified run directory %.2f s",
              tree,
              Files.size(o.runDir().resolve("pod.log")),
              java.time.Duration.between(completed.get(), onDisk).toMillis() / 1000.0));
      RunCluster.assertClean(client, kube.namespace(), r.jobName());
    }
    System.out.println("[SeriesRunIT] " + String.join("; ", lines));
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "run-transport.txt"), String.join("\n", lines) + "\n");
  }
}
