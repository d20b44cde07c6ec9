package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.testing.SharedData;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of rendered perf.yaml applied with a server-side dry run against the real Kubernetes
 * 1.20 apiserver of the kube test environment (admission and validation run, nothing is stored),
 * through the client and through {@code kubectl apply --dry-run=server} as a user would.
 */
@KubeTestEnv
class RenderDryRunIT {
  @TempDir Path tmp;

  private Map<String, Rendered> renderAll(String namespace) throws Exception {
    Path trace = Traces.write(tmp.resolve("plans/t.jsonl"), 40);
    Path sample = SharedData.require("aiperf/precise_schedule.jsonl");
    Path big = SharedData.require("mooncake/conversation_trace.jsonl");
    Map<String, PlanFixture> plans = new LinkedHashMap<>();
    for (String v : PlanFixture.VERSIONS) {
      plans.put("static closed loop " + v, PlanFixture.userStatic().aiperf(v));
    }
    plans.put("open loop poisson", PlanFixture.userStatic().openLoop("poisson", 2.5));
    plans.put(
        "open loop constant, duration",
        PlanFixture.userStatic().openLoop("constant", 4.0).requestCount(null).duration(300));
    plans.put("recipe proxy grid", PlanFixture.recipeProxy());
    plans.put(
        "trace replay",
        PlanFixture.userTrace(trace, "t.jsonl").goodput(Map.of("time_to_first_token", 2000.0)));
    plans.put(
        "trace replay window, flags",
        PlanFixture.userTrace(trace, "t.jsonl").window(0, 5000, 21).aiperf("0.9.0"));
    plans.put("AIPerf sample trace", PlanFixture.userTrace(sample, sample.toString()));
    plans.put("Mooncake trace from a PVC", PlanFixture.userTrace(big, big.toString()));
    plans.put(
        "hostile model name", PlanFixture.userStatic().model("org/m: v1 # \"q\" 'x'\nline 2"));
    Map<String, Rendered> out = new LinkedHashMap<>();
    int i = 0;
    for (var e : plans.entrySet()) {
      PlanFixture.Written w = e.getValue().write(tmp.resolve("plans/p" + i + ".json"));
      List<String> opts = new ArrayList<>(List.of("--namespace", namespace));
      if (e.getKey().contains("grid")) {
        opts.addAll(List.of("--load-point", "64"));
      }
      if (e.getKey().contains("PVC")) {
        opts.addAll(
            List.of(
                "--trace-source",
                "pvc:traces/mooncake/conversation_trace.jsonl",
                "--artifacts",
                "pvc:bench-results/qwen3"));
      }
      out.put(
          e.getKey(),
          Rendered.render(
              w, Files.createDirectories(tmp.resolve("d" + i++)), opts.toArray(String[]::new)));
    }
    return out;
  }

  @Test
  @DisplayName("every rendered perf.yaml passes a server-side dry run; nothing is stored")
  void everyPerfYamlPassesDryRun(KubeTestContext kube, KubernetesClient client) throws Exception {
    Map<String, Rendered> all = renderAll(kube.namespace());
    for (var e : all.entrySet()) {
      Rendered r = e.getValue();
      List<HasMetadata> result = kube.dryRunApply(r.result().perfYaml());
      assertThat(result).as(e.getKey()).hasSize(r.docs().size());
      assertThat(result.get(result.size() - 1)).isInstanceOf(Job.class);
      Job job = (Job) result.get(result.size() - 1);
      assertThat(job.getMetadata().getName()).isEqualTo(r.result().jobName());
      assertThat(job.getSpec().getBackoffLimit()).isZero();
      assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getName())
          .isEqualTo("aiperf");
      ConfigMap cm = (ConfigMap) result.get(0);
      assertThat(cm.getData().get("aiperf-config.yaml")).as(e.getKey()).isEqualTo(r.configText());
      assertThat(
              job.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                  .filter(v -> v.getName().equals("BENCHPLAN_MODEL"))
                  .findFirst()
                  .orElseThrow()
                  .getValue())
          .isEqualTo(
              r.config()
                  .at(r.config().has("settings") ? "/settings/benchmark/model" : "/benchmark/model")
                  .asString());
    }
    assertThat(client.batch().v1().jobs().list().getItems()).isEmpty();
    assertThat(client.configMaps().list().getItems())
        .noneMatch(
            c ->
                c.getMetadata().getLabels() != null
                    && "benchplan"
                        .equals(c.getMetadata().getLabels().get("app.kubernetes.io/managed-by")));
  }

  @Test
  @DisplayName("kubectl apply --dry-run=server -f perf.yaml works on its own")
  void kubectlApplies(KubeTestContext kube) throws Exception {
    Path kubectl = onPath("kubectl");
    org.junit.jupiter.api.Assumptions.assumeTrue(kubectl != null, "skipped: no kubectl on PATH");
    PlanFixture.Written w =
        PlanFixture.userTrace(Traces.write(tmp.resolve("t.jsonl"), 30), "t.jsonl")
            .write(tmp.resolve("p.json"));
    Rendered r =
        Rendered.render(
            w, Files.createDirectories(tmp.resolve("d")), "--namespace", kube.namespace());
    ProcessBuilder pb =
        new ProcessBuilder(
            kubectl.toString(),
            "--kubeconfig",
            kube.cluster().kubeconfig().toString(),
            "apply",
            "--dry-run=server",
            "-f",
            r.result().perfYaml().toString());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out)
        .contains("configmap/" + r.result().jobName() + "-config created (server dry run)")
        .contains("configmap/" + r.result().jobName() + "-trace created (server dry run)")
        .contains("job.batch/" + r.result().jobName() + " created (server dry run)");
  }

  @Test
  @DisplayName("the dry run would catch a broken manifest (so passing it means something)")
  void dryRunCatchesBreakage(KubeTestContext kube) throws Exception {
    PlanFixture.Written w = PlanFixture.userStatic().write(tmp.resolve("p.json"));
    Rendered r =
        Rendered.render(
            w, Files.createDirectories(tmp.resolve("d")), "--namespace", kube.namespace());
    String broken = r.perfText().replace("restartPolicy: Never", "restartPolicy: Always");
    assertThat(broken).isNotEqualTo(r.perfText());
    assertThatThrownBy(() -> kube.dryRunApply(broken))
        .isInstanceOf(KubernetesClientException.class)
        // the API server's structured cause, whole: the field and its reason
        .satisfies(
            e ->
                assertThat(((KubernetesClientException) e).getStatus().getDetails().getCauses())
                    .extracting(c -> c.getField() + ": " + c.getReason())
                    .containsExactly("spec.template.spec.restartPolicy: FieldValueRequired"));
  }

  private static Path onPath(String tool) {
    for (String dir : System.getenv("PATH").split(":")) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }
}
