package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.manifest.YamlDocuments;
import dev.benchplan.testing.CommandHarness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 15 items 1 and 9: a reused series measures the candidate of the ledger given now, never the
 * plan's first one; a plan edited by hand to point elsewhere is refused by render.
 */
class CandidateReuseTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();
  @TempDir Path tmp;
  Path ledgerB;
  JsonNode planA;

  @BeforeEach
  void planCandidateA() throws Exception {
    planA =
        Json.JSON.readTree(
            CommandHarness.run(
                    "plan",
                    "--workload",
                    EXAMPLES.resolve("workload-static.yaml").toString(),
                    "--ledger",
                    EXAMPLES.resolve("deployment-ledger.yaml").toString(),
                    "--question",
                    "Is candidate B as fast as A?",
                    "--aiperf-version",
                    "0.13.0",
                    "--exp-root",
                    tmp.resolve("exp").toString(),
                    "--format",
                    "json")
                .expectOk()
                .out());
    ledgerB = candidateB(tmp.resolve("b"), "Qwen/Qwen3-0.6B");
  }

  /** Candidate B: DGD vllm-agg-b, Service vllm-agg-b-frontend, namespace bench2. */
  static Path candidateB(Path dir, String model) throws Exception {
    Files.createDirectories(dir);
    String dgd =
        Files.readString(EXAMPLES.resolve("dgd.yaml"))
            .replace("name: vllm-agg\n", "name: vllm-agg-b\n");
    Files.writeString(dir.resolve("dgd-b.yaml"), dgd);
    Files.copy(
        EXAMPLES.resolve("smoke_test_artifact.json"), dir.resolve("smoke_test_artifact.json"));
    String ledger =
        Files.readString(EXAMPLES.resolve("deployment-ledger.yaml"))
            .replace("dgd_name: vllm-agg\n", "dgd_name: vllm-agg-b\n")
            .replace("namespace: bench\n", "namespace: bench2\n")
            .replace("service: vllm-agg-frontend\n", "service: vllm-agg-b-frontend\n")
            .replace("path: dgd.yaml\n", "path: dgd-b.yaml\n")
            .replaceAll(
                "(applied_dgd:\n  path: dgd-b.yaml\n  sha256: )[0-9a-f]{64}",
                "$1" + Sha256.ofFile(dir.resolve("dgd-b.yaml")))
            .replace("tokenizer: Qwen/Qwen3-0.6B\n", "tokenizer: " + model + "\n");
    Path p = dir.resolve("ledger-b.yaml");
    Files.writeString(p, ledger);
    return p;
  }

  private CommandHarness.Result planReuse(Path ledger) {
    return CommandHarness.run(
        "plan",
        "--workload",
        EXAMPLES.resolve("workload-static.yaml").toString(),
        "--ledger",
        ledger.toString(),
        "--question",
        "Is candidate B as fast as A?",
        "--exp-root",
        tmp.resolve("exp").toString(),
        "--reuse-plan",
        planA.get("plan_path").asString(),
        "--reuse-sha256",
        planA.get("sha256").asString(),
        "--format",
        "json");
  }

  private CommandHarness.Result render(Path deployRoot, String... extra) throws Exception {
    Files.createDirectories(deployRoot);
    List<String> args =
        new ArrayList<>(
            List.of(
                "render",
                "--plan",
                planA.get("plan_path").asString(),
                "--plan-sha256",
                planA.get("sha256").asString(),
                "--deploy-root",
                deployRoot.toString()));
    args.addAll(List.of(extra));
    return CommandHarness.run(args.toArray(String[]::new));
  }

  @Test
  @DisplayName(
      "reuse for candidate B, render --ledger B --namespace bench2: every place names B,"
          + " none names A")
  void reusedSeriesMeasuresCandidateB() throws Exception {
    JsonNode reused = Json.JSON.readTree(planReuse(ledgerB).expectOk().out());
    assertThat(reused.get("reused").asBoolean()).isTrue();
    assertThat(reused.get("plan_path").asString()).isEqualTo(planA.get("plan_path").asString());
    // the reuse tells how to render B, and that render without --ledger measures A
    assertThat(reused.get("warnings").toString())
        .contains("--ledger " + ledgerB.toAbsolutePath().normalize())
        .contains("bench2/vllm-agg-b");

    Path root = tmp.resolve("deploy-b");
    JsonNode out =
        Json.JSON.readTree(
            render(
                    root,
                    "--ledger",
                    ledgerB.toString(),
                    "--namespace",
                    "bench2",
                    "--format",
                    "json")
                .expectOk()
                .out());
    assertThat(out.at("/candidate/dgd").asString()).isEqualTo("bench2/vllm-agg-b");
    assertThat(out.at("/namespace").asString()).isEqualTo("bench2");

    String perfText = Files.readString(root.resolve("benchmark/perf.yaml"), StandardCharsets.UTF_8);
    String configText =
        Files.readString(root.resolve("benchmark/aiperf-config.yaml"), StandardCharsets.UTF_8);
    String urlB = "http://vllm-agg-b-frontend.bench2.svc.cluster.local:8000";
    List<JsonNode> docs = YamlDocuments.read(perfText);
    JsonNode job = docs.get(docs.size() - 1);
    JsonNode ann = job.at("/metadata/annotations");
    assertThat(ann.path(JobContract.ENDPOINT).asString()).isEqualTo(urlB);
    assertThat(ann.path(JobContract.DGD).asString()).isEqualTo("bench2/vllm-agg-b");
    // relative to DEPLOY_ROOT, like the plan path: no checkout's location in the rendered files
    assertThat(ann.path(JobContract.LEDGER).asString())
        .isEqualTo(dev.benchplan.plan.PlanPaths.relative(root, ledgerB))
        .isEqualTo("../b/ledger-b.yaml");
    assertThat(ann.path(JobContract.LEDGER_SHA256).asString()).isEqualTo(Sha256.ofFile(ledgerB));
    // the candidate's DGD manifest, as its ledger records it: run.json's candidate identity
    assertThat(ann.path(JobContract.DGD_SHA256).asString()).matches("[0-9a-f]{64}");
    assertThat(ann.path(JobContract.PLAN_SHA256).asString())
        .isEqualTo(planA.get("sha256").asString());
    assertThat(job.at("/metadata/namespace").asString()).isEqualTo("bench2");
    JsonNode term =
        job.at(
            "/spec/template/spec/affinity/podAntiAffinity"
                + "/preferredDuringSchedulingIgnoredDuringExecution/0/podAffinityTerm");
    assertThat(term.at("/labelSelector/matchExpressions/0/values/0").asString())
        .isEqualTo("vllm-agg-b");
    assertThat(term.at("/namespaces/0").asString()).isEqualTo("bench2");
    List<String> env = new ArrayList<>();
    job.at("/spec/template/spec/containers/0/env")
        .forEach(e -> env.add(e.path("name").asString() + "=" + e.path("value").asString()));
    assertThat(env).contains("BENCHPLAN_ENDPOINT=" + urlB);
    JsonNode config = YamlDocuments.read(configText).get(0);
    assertThat(config.at("/benchmark/endpoint/url").asString()).isEqualTo(urlB);
    for (JsonNode d : docs) {
      assertThat(d.at("/metadata/namespace").asString()).isEqualTo("bench2");
    }
    // candidate A appears nowhere: not its DGD, Service, namespace or ledger
    for (String text : List.of(perfText, configText)) {
      assertThat(text)
          .doesNotContainPattern("vllm-agg(?!-b)")
          .doesNotContain(".bench.svc")
          .doesNotContain("bench/")
          .doesNotContain(EXAMPLES.resolve("deployment-ledger.yaml").toString());
    }
  }

  @Test
  @DisplayName("without --ledger render measures the plan's own candidate, re-read from its ledger")
  void defaultIsThePlansCandidate() throws Exception {
    JsonNode out =
        Json.JSON.readTree(render(tmp.resolve("deploy-a"), "--format", "json").expectOk().out());
    assertThat(out.at("/candidate/dgd").asString()).isEqualTo("bench/vllm-agg");
    assertThat(out.at("/candidate/ledger_sha256").asString())
        .isEqualTo(Sha256.ofFile(EXAMPLES.resolve("deployment-ledger.yaml")));
  }

  @Test
  @DisplayName("a candidate whose frozen fields differ from the series' is refused, naming them")
  void frozenFieldsChecked() throws Exception {
    Path other = candidateB(tmp.resolve("c"), "Qwen/Qwen3-8B");
    var r = render(tmp.resolve("deploy-c"), "--ledger", other.toString()).expectExit(2);
    assertThat(r.err())
        .contains("/deployment/tokenizer")
        .contains("frozen")
        .contains("Qwen/Qwen3-8B");
    assertThat(tmp.resolve("deploy-c/benchmark")).doesNotExist();
    // and plan --reuse-plan refuses it too (SERIES_BOUNDARY)
    assertThat(planReuse(other).expectExit(2).err())
        .contains("SERIES_BOUNDARY")
        .contains("/deployment/tokenizer");
  }

  @Test
  @DisplayName(
      "a plan edited by hand to another endpoint and kube-system, with its new SHA-256,"
          + " is refused naming the fields")
  void handEditedPlanRefused() throws Exception {
    Path original = Path.of(planA.get("plan_path").asString());
    ObjectNode tree = (ObjectNode) Json.JSON.readTree(Files.readAllBytes(original));
    tree.withObject("/deployment")
        .put("namespace", "kube-system")
        .put("endpoint_url", "http://evil.kube-system.svc.cluster.local:8000");
    Path edited = tmp.resolve("edited/plan.json");
    Files.createDirectories(edited.getParent());
    byte[] bytes = dev.benchplan.json.CanonicalJson.bytes(tree);
    Files.write(edited, bytes);
    Path root = Files.createDirectories(tmp.resolve("deploy-e"));
    var r =
        CommandHarness.run(
                "render",
                "--plan",
                edited.toString(),
                "--plan-sha256",
                Sha256.hex(bytes),
                "--deploy-root",
                root.toString())
            .expectExit(2);
    assertThat(r.err())
        .contains("/deployment/namespace")
        .contains("kube-system")
        .contains("/deployment/endpoint_url")
        .contains("disagrees with its ledger");
    assertThat(root.resolve("benchmark")).doesNotExist();
  }

  @Test
  @DisplayName("the plan's ledger changed or gone: refused, pointing at --ledger")
  void ledgerGoneOrChanged() throws Exception {
    // a plan written from a copy of the examples, whose ledger is then changed and removed
    Path dir = tmp.resolve("copy");
    Files.createDirectories(dir);
    for (String f :
        List.of(
            "deployment-ledger.yaml",
            "dgd.yaml",
            "smoke_test_artifact.json",
            "workload-static.yaml")) {
      Files.copy(EXAMPLES.resolve(f), dir.resolve(f));
    }
    JsonNode p =
        Json.JSON.readTree(
            CommandHarness.run(
                    "plan",
                    "--workload",
                    dir.resolve("workload-static.yaml").toString(),
                    "--ledger",
                    dir.resolve("deployment-ledger.yaml").toString(),
                    "--question",
                    "Which ledger?",
                    "--aiperf-version",
                    "0.13.0",
                    "--series-id",
                    "copy-1",
                    "--exp-root",
                    tmp.resolve("exp2").toString(),
                    "--format",
                    "json")
                .expectOk()
                .out());
    Files.writeString(
        dir.resolve("deployment-ledger.yaml"),
        "\n# edited\n",
        java.nio.file.StandardOpenOption.APPEND);
    Path root = Files.createDirectories(tmp.resolve("deploy-g"));
    String[] args = {
      "render",
      "--plan",
      p.get("plan_path").asString(),
      "--plan-sha256",
      p.get("sha256").asString(),
      "--deploy-root",
      root.toString()
    };
    assertThat(CommandHarness.run(args).expectExit(2).err())
        .contains("/deployment/ledger_sha256")
        .contains("--ledger");
    Files.delete(dir.resolve("deployment-ledger.yaml"));
    assertThat(CommandHarness.run(args).expectExit(2).err())
        .contains("/deployment/ledger_path")
        .contains("--ledger FILE");
    assertThat(root.resolve("benchmark")).doesNotExist();
  }
}
