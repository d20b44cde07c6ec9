package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.kubetest.FakeKubelet;
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
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 13: the AB/BA pair label round-trips on the real control plane. One plan, rendered four
 * times with {@code --pair} (pair p1 in AB order, pair p2 in BA order), each render run in turn in
 * its order (the Job's own command executed by the kubelet stand-in, against the DGD whose pods the
 * isolation preflight inspects); every run.json records the {@code /pair} render was given, and
 * {@code compare} pairs the runs by it (paired differences), whatever order they are given in.
 */
@KubeTestEnv
class PairRoundTripIT {
  private static FakeKubelet kubelet;
  @TempDir static Path work;
  @TempDir Path tmp;
  final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void cluster(KubeTestContext kube, KubernetesClient client) throws Exception {
    kubelet = RunCluster.start(kube, client);
  }

  private RunOutcome run(KubernetesClient client, Path deployRoot, String namespace) {
    return KubeRunServices.using(client, action -> () -> {})
        .run(
            RunRequest.builder(deployRoot)
                .namespace(namespace)
                .timeout(Duration.ofMinutes(3))
                .scheduleTimeout(Duration.ofSeconds(60))
                .build(),
            (phase, elapsed, detail) ->
                progress.add(phase + (detail == null ? "" : ": " + detail)));
  }

  @Test
  @DisplayName(
      "render --pair (p1 AB, p2 BA), run each arm in its order: run.json /pair as rendered; compare pairs"
          + " them by label (paired: true, paired differences) in any argument order")
  void pairRoundTrip(KubeTestContext kube, KubernetesClient client) throws Exception {
    long t0 = System.nanoTime();
    String ns = kube.namespace();
    RenderedPerf first =
        RenderedPerf.create(
            tmp.resolve("p1-A"),
            ns,
            // the load the stand-in AIPerf's real concurrency-4 export ran, so the audit finds the
            // executed config equal to the plan and compare reaches its verdict
            w ->
                w.replace("input_tokens: 512", "input_tokens: 100")
                    .replace("output_tokens: 128", "output_tokens: 200")
                    .replace("concurrency: [16]", "concurrency: [4]")
                    .replace("request_count: 1000", "request_count: 64")
                    // 64 requests cannot carry a gated percentile (SAMPLES_TOO_FEW): gate on
                    // throughput only
                    .replace("  ttft_ms_p95_max: 300\n", "")
                    .replace("  itl_ms_p95_max: 25\n", "")
                    .replace(
                        "  custom_slos:\n    - metric: time_to_first_token\n      stat: p99\n"
                            + "      max: 500\n",
                        ""),
            // the DGD whose pods the isolation preflight inspects runs in the test namespace
            l -> l.replace("\nnamespace: bench\n", "\nnamespace: " + ns + "\n"),
            List.of("--warmup-requests", "1", "--allow-short-points"),
            List.of("--pair", "p1", "--pair-order", "AB", "--pair-arm", "A"));
    String sha = Sha256.ofFile(first.plan());
    // run order: p1 is AB (A first), p2 is BA (B first)
    String[][] arms = {{"p1", "AB", "A"}, {"p1", "AB", "B"}, {"p2", "BA", "B"}, {"p2", "BA", "A"}};
    List<Path> reference = new ArrayList<>();
    List<Path> candidate = new ArrayList<>();
    for (String[] arm : arms) {
      String label = arm[0] + "-" + arm[2];
      Path deployRoot;
      String jobName;
      if (label.equals("p1-A")) {
        deployRoot = first.deployRoot();
        jobName = first.jobName();
      } else {
        deployRoot = Files.createDirectories(tmp.resolve(label).resolve("deploy"));
        JsonNode r =
            Json.JSON.readTree(
                CommandHarness.run(
                        "render",
                        "--plan",
                        first.plan().toString(),
                        "--plan-sha256",
                        sha,
                        "--deploy-root",
                        deployRoot.toString(),
                        "--namespace",
                        ns,
                        "--pair",
                        arm[0],
                        "--pair-order",
                        arm[1],
                        "--pair-arm",
                        arm[2],
                        "--format",
                        "json")
                    .expectOk()
                    .out());
        jobName = r.get("job_name").asString();
      }
      assertThat(Files.readString(deployRoot.resolve("benchmark/perf.yaml")))
          .contains("benchplan.dev/pair: " + arm[0] + "/" + arm[1] + "/" + arm[2]);
      kubelet.when(
          FakeKubelet.labelled("job-name", jobName),
          PodScript.execute(PodExecution.in(work.resolve(label))));
      RunOutcome o = run(client, deployRoot, ns);
      assertThat(o.exitCode()).as(String.join("\n", progress)).isIn(0, 1);
      JsonNode run = Json.JSON.readTree(Files.readAllBytes(o.runDir().resolve("run.json")));
      assertThat(
              List.of(
                  run.at("/pair/id").asString(),
                  run.at("/pair/order").asString(),
                  run.at("/pair/arm").asString()))
          .as(run.path("pair").toString())
          .containsExactly(arm[0], arm[1], arm[2]);
      assertThat(run.path("eligible").asBoolean())
          .as(run.path("ineligible_reasons").toString())
          .isTrue();
      (arm[2].equals("A") ? reference : candidate).add(o.runDir());
    }
    long ran = System.nanoTime();

    // the candidates given in the reverse of their pairs' order: paired by label, not by position
    List<String> args =
        new ArrayList<>(
            List.of(
                "compare",
                "--report-dir",
                tmp.resolve("cmp").toString(),
                "--format",
                "json",
                "--reference",
                reference.get(0).toString(),
                "--reference",
                reference.get(1).toString(),
                "--candidate",
                candidate.get(1).toString(),
                "--candidate",
                candidate.get(0).toString()));
    CommandHarness.Result cmp = CommandHarness.run(args.toArray(String[]::new));
    assertThat(cmp.exitCode()).as(cmp.err() + cmp.out()).isIn(0, 1);
    JsonNode doc = Json.JSON.readTree(cmp.out());
    assertThat(doc.path("paired").asBoolean()).as(cmp.out()).isTrue();
    JsonNode throughput = null;
    for (JsonNode m : doc.path("metrics")) {
      if (m.path("metric").asString().equals("output_token_throughput.avg")) {
        throughput = m;
      }
    }
    assertThat(throughput).as(cmp.out()).isNotNull();
    // the four runs replay one AIPerf output: identical values, zero spread, which is no noise
    // estimate (a paired t on them would call any difference certain); so no verdict, and a pilot
    assertThat(throughput.at("/effect/method").asString())
        .as(throughput.toString())
        .isEqualTo("none");
    assertThat(throughput.path("verdict").asString()).isEqualTo("inconclusive");
    assertThat(doc.at("/repeat_decision/decision").asString()).isEqualTo("necessary");
    System.out.println(
        "[PairRoundTripIT] four runs "
            + (ran - t0) / 1_000_000
            + " ms, compare "
            + (System.nanoTime() - ran) / 1_000_000
            + " ms; throughput row: "
            + throughput);
  }
}
