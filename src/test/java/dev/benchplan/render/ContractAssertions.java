package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.PlanFixture;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The perf.yaml contract with {@code run} and {@code validate} (contracts.md). */
final class ContractAssertions {
  private ContractAssertions() {}

  static void assertPerfYamlContract(Rendered r, PlanFixture.Written plan, String version) {
    List<JsonNode> docs = r.docs();
    assertThat(docs.get(docs.size() - 1).path("kind").asString()).isEqualTo("Job");
    assertThat(docs.stream().filter(d -> d.path("kind").asString().equals("Job"))).hasSize(1);
    String runId = r.result().runId();
    String series = "qwen3-chat-capacity";
    for (JsonNode d : docs) {
      JsonNode labels = d.at("/metadata/labels");
      assertThat(labels.path("app.kubernetes.io/managed-by").asString()).isEqualTo("benchplan");
      assertThat(labels.path("benchplan.dev/series").asString()).isEqualTo(series);
      assertThat(labels.path("benchplan.dev/plan-sha256").asString())
          .isEqualTo(plan.sha256().substring(0, 12));
      assertThat(labels.path("benchplan.dev/run-id").asString()).isEqualTo(runId);
      assertThat(d.at("/metadata/namespace").asString()).isEqualTo(r.result().namespace());
    }
    JsonNode job = r.job();
    assertThat(job.at("/spec/template/metadata/labels")).isEqualTo(job.at("/metadata/labels"));
    String jobName = job.at("/metadata/name").asString();
    assertThat(jobName).isEqualTo(r.result().jobName());
    assertThat(KubeNames.isDns1123Label(jobName)).isTrue();
    JsonNode ann = job.at("/metadata/annotations");
    // relative to DEPLOY_ROOT (perf.yaml's ../..), written with '/'
    java.nio.file.Path deployRoot =
        r.result().perfYaml().toAbsolutePath().normalize().getParent().getParent();
    assertThat(ann.path("benchplan.dev/plan-path").asString())
        .isEqualTo(dev.benchplan.plan.PlanPaths.relative(deployRoot, plan.path()))
        .doesNotStartWith("/");
    assertThat(deployRoot.resolve(ann.path("benchplan.dev/plan-path").asString()).normalize())
        .isEqualTo(plan.path().toAbsolutePath().normalize());
    assertThat(ann.path("benchplan.dev/plan-sha256").asString()).isEqualTo(plan.sha256());
    assertThat(ann.path("benchplan.dev/endpoint").asString()).startsWith("http://");
    assertThat(ann.path("benchplan.dev/aiperf-version").asString()).isEqualTo(version);
    assertThat(ann.path("benchplan.dev/dgd").asString()).isEqualTo("dynamo/vllm-agg");
    assertThat(ann.path("benchplan.dev/artifacts").asString()).matches("emptyDir|pvc:.+");

    JsonNode spec = job.path("spec");
    assertThat(spec.path("backoffLimit").asInt()).isZero();
    assertThat(spec.path("activeDeadlineSeconds").asLong())
        .isEqualTo(900L + new JobBudget(900, true).setupMarginSeconds());
    JsonNode pod = spec.at("/template/spec");
    assertThat(pod.path("restartPolicy").asString()).isEqualTo("Never");
    assertThat(pod.toString()).doesNotContain("hostPath");
    JsonNode c = r.container();
    assertThat(c.path("name").asString()).isEqualTo(JobContract.CONTAINER);
    assertThat(c.path("image").asString()).isEqualTo("nvcr.io/nvidia/ai-dynamo/aiperf:" + version);
    assertThat(c.at("/resources/requests/cpu").asString()).isNotEmpty();
    assertThat(c.at("/resources/requests/memory").asString()).isNotEmpty();
    assertThat(c.at("/securityContext/privileged").asBoolean()).isFalse();
    JsonNode artifacts = PlanRendererTest.mount(c, "artifacts");
    assertThat(artifacts.path("mountPath").asString()).isEqualTo("/artifacts");
    assertThat(PlanRendererTest.envValue(r, "BENCHPLAN_ARTIFACT_DIR"))
        .isEqualTo("/artifacts/" + runId);
    PlanRendererTest.volume(pod, "artifacts");
    JsonNode weighted =
        pod.at("/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/0");
    assertThat(weighted.path("weight").asInt()).isEqualTo(100);
    JsonNode term = weighted.path("podAffinityTerm");
    assertThat(term.at("/labelSelector/matchExpressions/0/key").asString())
        .isEqualTo("nvidia.com/dynamo-graph-deployment-name");
    assertThat(term.at("/labelSelector/matchExpressions/0/values/0").asString())
        .isEqualTo("vllm-agg");
    assertThat(term.at("/namespaces/0").asString()).isEqualTo("dynamo");
    assertThat(term.path("topologyKey").asString()).isEqualTo("kubernetes.io/hostname");
  }
}
