package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transport benchmark behind {@code scripts/bench-run-pvc.sh} (skipped unless {@code
 * -Dbenchplan.bench.transport=1}; it measures, it asserts no time): the packaged CLI ({@code
 * target/benchplan.jar} in a fresh JVM under {@code /usr/bin/time -v}) runs a Job rendered with
 * {@code --artifacts-pvc} whose pod (the Job's own command, executed by the kubelet stand-in)
 * writes a tree of 1, 10 and 100 MB; 1 and 10 MB come back through the pod log, 100 MB through
 * collector pods. Per size: seconds from the pod's Succeeded (seen through the API) to the verified
 * run directory renamed into place, the peak RSS of {@code run}, and the load average; written to
 * {@code target/run-transport-bench.txt}.
 */
@KubeTestEnv
class TransportBenchIT {
  private static FakeKubelet kubelet;
  @TempDir static Path work;

  @BeforeAll
  static void cluster(KubeTestContext kube) {
    Assumptions.assumeTrue(
        "1".equals(System.getProperty("benchplan.bench.transport")),
        "a benchmark: run it with -Dbenchplan.bench.transport=1 (scripts/bench-run-pvc.sh)");
    kubelet = kube.startKubelet(FakeNode.withGpus(kube.namespace() + "-bench", 0));
  }

  @Test
  @DisplayName(
      "pod completion -> verified run directory and peak RSS of run, for 1, 10 and 100 MB trees (printed, written to target/)")
  void transport(KubeTestContext kube, KubernetesClient client) throws Exception {
    Path jar = Path.of("target", "benchplan.jar").toAbsolutePath();
    Assumptions.assumeTrue(
        Files.isRegularFile(jar), "no " + jar + " (mvn -o package -DskipTests first)");
    Assumptions.assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/time")), "no GNU time at /usr/bin/time");
    Path kubeconfig =
        kube.cluster()
            .writeKubeconfig(
                work.resolve("kubeconfig"), kube.cluster().adminToken(), kube.namespace());
    List<String> lines = new ArrayList<>();
    String sizes = System.getProperty("benchplan.bench.sizes", "1,10,100");
    for (String s : sizes.split(",")) {
      long mb = Long.parseLong(s.trim());
      Path root = work.resolve("t" + mb);
      RenderedPerf r =
          RenderedPerf.create(
              root,
              kube.namespace(),
              w -> w.replace("request_count: 1000", "request_count: 200"),
              List.of(),
              List.of("--artifacts-pvc", "bench"));
      PodExecution exec =
          PodExecution.in(work.resolve("exec" + mb)).aiperfRecordsBytes(mb * 1_000_000);
      kubelet.when(FakeKubelet.labelled("job-name", r.jobName()), PodScript.execute(exec));
      kubelet.when(
          FakeKubelet.labelled(ArtifactCollector.ROLE_LABEL, ArtifactCollector.ROLE),
          PodScript.execute(exec));
      AtomicReference<Instant> completed = new AtomicReference<>();
      SharedIndexInformer<Pod> watch =
          client
              .pods()
              .withLabel("job-name", r.jobName())
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Pod p) {
                      seen(p);
                    }

                    @Override
                    public void onUpdate(Pod o, Pod p) {
                      seen(p);
                    }

                    @Override
                    public void onDelete(Pod p, boolean u) {}

                    private void seen(Pod p) {
                      if (p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase())) {
                        completed.compareAndSet(null, Instant.now());
                      }
                    }
                  });
      Path err = root.resolve("run.err");
      try {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder pb =
            new ProcessBuilder(
                    "/usr/bin/time",
                    "-v",
                    java.toString(),
                    "-jar",
                    jar.toString(),
                    "run",
                    "--deploy-root",
                    r.deployRoot().toString(),
                    "--format",
                    "json")
                .redirectOutput(root.resolve("run.out").toFile())
                .redirectError(err.toFile());
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        Process p = pb.start();
        assertThat(p.waitFor(15, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isIn(0, 1);
      } finally {
        watch.close();
      }
      Path runDir = r.deployRoot().resolve("benchmark/runs").resolve(r.runId());
      Instant onDisk = Files.getLastModifiedTime(runDir.getParent()).toInstant();
      long tree;
      try (Stream<Path> st = Files.walk(runDir.resolve("aiperf"))) {
        tree = st.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      }
      Process check =
          new ProcessBuilder("sha256sum", "-c", "--strict", "--quiet", "artifacts.sha256")
              .directory(runDir.toFile())
              .redirectErrorStream(true)
              .start();
      assertThat(check.waitFor(5, TimeUnit.MINUTES)).isTrue();
      assertThat(check.exitValue()).isZero();
      String stderr = Files.readString(err, StandardCharsets.UTF_8);
      Matcher rss =
          Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)").matcher(stderr);
      String how =
          Files.readString(runDir.resolve("pod.log"))
                  .contains("==== benchplan:artifacts:too-large ")
              ? "collector pods"
              : "pod log";
      lines.add(
          String.format(
              Locale.ROOT,
              "tree %,d bytes via %s: pod Succeeded -> verified run directory %.2f s; run peak RSS %s MiB; load average %s",
              tree,
              how,
              Duration.between(completed.get(), onDisk).toMillis() / 1000.0,
              rss.find() ? Long.parseLong(rss.group(1)) / 1024 : "?",
              Files.readString(Path.of("/proc/loadavg")).trim()));
    }
    System.out.println("[TransportBenchIT] " + String.join("\n[TransportBenchIT] ", lines));
    Files.createDirectories(Path.of("target"));
    Files.writeString(
        Path.of("target", "run-transport-bench.txt"), String.join("\n", lines) + "\n");
  }
}
