package dev.benchplan.kube.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.testing.Await;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.api.model.Namespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Ctrl-C on the real launcher: the shutdown hook deletes what validate created, then it exits. */
@KubeTestEnv
class ValidateInterruptIT {
  @TempDir Path dir;

  @Test
  @DisplayName(
      "SIGINT while waiting for readiness: DGD and namespace deleted, verdict error naming the step")
  void sigint(KubeTestContext kube) throws Exception {
    Path launcher = Path.of("bin", "benchplan").toAbsolutePath();
    Path jar = Path.of("target", "benchplan.jar").toAbsolutePath();
    Assumptions.assumeTrue(
        Files.isRegularFile(jar), "needs the packaged jar (mvn verify builds it first)");
    String tag = kube.namespace();
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
    FakeKubelet kubelet =
        kube.startKubelet(
            KubeTestContext.Scope.ALL_NAMESPACES,
            FakeNode.withGpus(tag + "-gpu", 2).withLabel("benchplan.dev/validate-it", tag));
    // workers never start, so validate sits in its readiness wait
    kubelet.when(
        FakeKubelet.namePrefix("benchplan-validate-vllmdecodeworker"), PodScript.stayPending());

    Path report = dir.resolve("report");
    Instant before = Instant.now();
    ProcessBuilder pb =
        new ProcessBuilder(
            // a shell started without job control passes SIGINT on ignored, and the JVM keeps it
            // ignored (Ctrl-C would then do nothing): perl restores the default, then execs the
            // launcher, which execs java, so the pid stays the one this test signals
            "perl",
            "-e",
            "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\\n\"",
            launcher.toString(),
            "validate",
            "--namespace",
            kube.namespace(),
            "--node-selector",
            "benchplan.dev/validate-it=" + tag,
            "--aiperf-version",
            "0.4.0",
            "--timeout-dgd-ready",
            "5m",
            "--no-model-cache", // no StorageClass on the test control plane
            "--report-dir",
            report.toString(),
            "--format",
            "json");
    pb.environment().put("KUBECONFIG", kube.cluster().kubeconfig().toString());
    pb.redirectErrorStream(true);
    pb.redirectOutput(dir.resolve("output.txt").toFile());
    Process p = pb.start();
    try {
      Namespace ns = awaitValidateNamespace(kube, before, dir.resolve("output.txt"));
      // the DGD exists before we interrupt
      String name = ns.getMetadata().getName();
      kube.client()
          .genericKubernetesResources(FakeDynamoOperator.DGD)
          .inNamespace(name)
          .withName("benchplan-validate")
          .waitUntilCondition(d -> d != null, 30, TimeUnit.SECONDS);
      Await.until(
          "the launcher's output to show 'validate [readiness]'",
          Duration.ofSeconds(30),
          () -> readQuietly(dir.resolve("output.txt")).contains("validate [readiness]"));
      new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(120, TimeUnit.SECONDS))
          .as(() -> readQuietly(dir.resolve("output.txt")))
          .isTrue();
      String output = Files.readString(dir.resolve("output.txt"));
      assertThat(p.exitValue()).as(output).isEqualTo(3);
      assertThat(output).contains("interrupted during step readiness");
      assertThat(kube.client().namespaces().withName(name).get()).as(output).isNull();
      JsonNode verdict = Json.JSON.readTree(Files.readString(report.resolve("verdict.json")));
      assertThat(verdict.path("verdict").asString()).isEqualTo("error");
      assertThat(verdict.path("failed_step").asString()).isEqualTo("readiness");
      assertThat(verdict.path("cleanup").path("deleted").toString()).contains("Namespace " + name);
      ValidateItSupport.assertNothingLeft(kube.client(), verdict.path("run_id").asString());
    } finally {
      p.destroyForcibly();
    }
  }

  /** The namespace this validate created (labelled with a run id, created since {@code after}). */
  private static Namespace awaitValidateNamespace(KubeTestContext kube, Instant after, Path output)
      throws Exception {
    Predicate<Namespace> ours =
        n ->
            n.getMetadata().getLabels().containsKey(ValidateRun.RUN_LABEL)
                && !Instant.parse(n.getMetadata().getCreationTimestamp())
                    .isBefore(after.minusSeconds(2));
    CompletableFuture<List<Namespace>> seen =
        kube.client()
            .namespaces()
            .withLabel(ValidateRun.COMPONENT, "validate")
            .informOnCondition(items -> items.stream().anyMatch(ours));
    try {
      return seen.get(60, TimeUnit.SECONDS).stream().filter(ours).findFirst().orElseThrow();
    } catch (TimeoutException e) {
      throw new AssertionError(
          "no validate namespace within 60 s; launcher output:\n" + readQuietly(output), e);
    } finally {
      seen.cancel(true); // stops the informer when the condition never held
    }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
