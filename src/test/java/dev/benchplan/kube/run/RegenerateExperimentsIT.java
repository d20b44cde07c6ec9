package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodExecution;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import dev.benchplan.testing.CommandHarness;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Regenerates the worked example series committed in experiments/ (only with {@code
 * -Dbenchplan.regenerate=experiments}; scripts/regenerate-experiments.sh), on the project's real
 * test control plane: plans of a grid and a pilot from experiments/inputs/workloads and examples/,
 * both rendered, both run by {@code run} as Jobs. The real Job controller runs the Jobs; the
 * kubelet stand-in executes each Job's own container command (python3 running the Job program and
 * the artifact encoder mounted from the config ConfigMap) with the stand-in aiperf in its synthetic
 * mode: it generates every run from a seeded made-up latency model and writes {@code
 * SYNTHETIC.txt}, which {@code run} records in run.json ({@code /artifacts/synthetic}, {@code
 * RUN_SYNTHETIC}). Then {@code analyze} on both runs writes the analysis and its report under
 * experiments/analysis/. ExperimentsExampleTest verifies what this wrote on every test run; CI
 * never regenerates.
 */
@KubeTestEnv
class RegenerateExperimentsIT {
  static final Path EXP = Path.of("experiments");
  @TempDir Path work;

  private static void deleteTree(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> w = Files.walk(dir)) {
      for (Path p : w.sorted(Comparator.reverseOrder()).toList()) {
        p.toFile().setWritable(true);
        Files.delete(p);
      }
    }
  }

  @Test
  @DisplayName(
      "regenerate experiments/ on the test control plane (only with -Dbenchplan.regenerate=experiments)")
  void regenerate(KubeTestContext kube, KubernetesClient client) throws Exception {
    Assumptions.assumeTrue(
        "experiments".equals(System.getProperty("benchplan.regenerate")),
        "regenerates the committed example only when asked");
    for (String old : List.of("inputs/benchmark-plans", "deploy", "analysis")) {
      deleteTree(EXP.resolve(old));
    }
    FakeKubelet kubelet = kube.startKubelet(FakeNode.withGpus("example-cpu-node", 0));
    String[][] series = {
      {
        "synthetic-grid",
        "Up to which concurrency does vllm-agg keep every gate (worked example, synthetic runs)?"
      },
      {"synthetic-pilot", "How noisy is vllm-agg at concurrency 2 (worked example: the pilot)?"}
    };
    List<String> runDirs = new ArrayList<>();
    for (String[] sr : series) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "plan",
                  "--workload",
                  "experiments/inputs/workloads/" + sr[0] + ".yaml",
                  "--ledger",
                  "examples/deployment-ledger.yaml",
                  "--question",
                  sr[1],
                  "--aiperf-version",
                  "0.13.0",
                  "--exp-root",
                  "experiments",
                  "--format",
                  "json"));
      if (sr[0].endsWith("pilot")) {
        args.add("--pilot");
      }
      JsonNode plan =
          Json.JSON.readTree(CommandHarness.run(args.toArray(String[]::new)).expectOk().out());
      Path deployRoot =
          Files.createDirectories(EXP.resolve("deploy").resolve(plan.get("series_id").asString()));
      JsonNode r =
          Json.JSON.readTree(
              CommandHarness.run(
                      "render",
                      "--plan",
                      plan.get("plan_path").asString(),
                      "--plan-sha256",
                      plan.get("sha256").asString(),
                      "--deploy-root",
                      deployRoot.toString(),
                      "--namespace",
                      kube.namespace(),
                      "--format",
                      "json")
                  .expectOk()
                  .out());
      kubelet.when(
          FakeKubelet.labelled("job-name", r.get("job_name").asString()),
          PodScript.execute(PodExecution.synthetic(work.resolve(sr[0]))));
      List<String> progress = new ArrayList<>();
      RunOutcome o =
          KubeRunServices.using(client, action -> () -> {})
              .run(
                  RunRequest.builder(deployRoot)
                      .timeout(Duration.ofMinutes(3))
                      .scheduleTimeout(Duration.ofSeconds(60))
                      .build(),
                  (phase, elapsed, detail) ->
                      progress.add(phase + (detail == null ? "" : ": " + detail)));
      JsonNode run = Json.JSON.readTree(Files.readAllBytes(o.runDir().resolve("run.json")));
      assertThat(run.at("/artifacts/synthetic").asString())
          .as(String.join("\n", progress))
          .startsWith("synthetic: generated by benchplan's stand-in aiperf");
      assertThat(run.at("/exit_reason").asString()).isEqualTo("completed");
      System.err.println(
          "regenerated " + o.runDir() + " (exit " + o.exitCode() + "): " + o.verdict().message());
      runDirs.add(Path.of("").toAbsolutePath().relativize(o.runDir().toAbsolutePath()).toString());
    }
    // the analysis of both runs, from the project root with relative paths (as verify resolves
    // them)
    List<String> analyze = new ArrayList<>(List.of("analyze"));
    analyze.addAll(runDirs);
    analyze.addAll(List.of("--exp-root", "experiments", "--format", "json"));
    JsonNode a =
        Json.JSON.readTree(CommandHarness.run(analyze.toArray(String[]::new)).expectOk().out());
    System.err.println("analysis: " + a);
  }
}
