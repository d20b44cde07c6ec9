package dev.benchplan.kube.rbac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.kube.run.RunFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class RbacManifestTest {
  @TempDir Path tmp;

  RbacManifest run() {
    RunFixtures.create(tmp, "bench", 50, 35);
    return RbacManifests.run(tmp.resolve("deploy"), null, null);
  }

  static List<JsonNode> yamlDocuments(String yaml) {
    List<JsonNode> docs = new ArrayList<>();
    try (var it = Json.YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNextValue()) {
        JsonNode n = (JsonNode) it.nextValue();
        if (n != null && !n.isNull() && !n.isMissingNode()) {
          docs.add(n);
        }
      }
    }
    return docs;
  }

  static JsonNode object(RbacManifest m, String kind, String name) {
    return m.objects().stream()
        .map(RbacManifest.Item::object)
        .filter(
            o ->
                o.path("kind").asString().equals(kind)
                    && o.path("metadata").path("name").asString().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in " + m.json()));
  }

  /** Every (verb, group, resource) a role grants. */
  static List<String> grants(JsonNode role) {
    List<String> out = new ArrayList<>();
    for (JsonNode rule : role.path("rules")) {
      for (JsonNode v : rule.path("verbs")) {
        out.add(
            v.asString()
                + " "
                + rule.path("resources").get(0).asString()
                + "."
                + rule.path("apiGroups").get(0).asString());
      }
    }
    return out;
  }

  @Test
  @DisplayName("the YAML documents are exactly the JSON List's items, with no wildcard anywhere")
  void yamlEqualsJson() {
    for (RbacManifest m :
        List.of(
            run(),
            RbacManifests.validate("dynamo/vllm-agg", null, null),
            RbacManifests.validate(null, "dynamo", null))) {
      List<JsonNode> docs = yamlDocuments(m.yaml());
      List<JsonNode> items = new ArrayList<>();
      m.json().path("items").forEach(items::add);
      assertThat(docs).isEqualTo(items);
      assertThat(m.yaml()).doesNotContain("\"*\"").doesNotContain("- '*'").doesNotContain("- *");
      assertThat(Json.JSON.writeValueAsString(m.json())).doesNotContain("\"*\"");
    }
  }

  @Test
  @DisplayName(
      "run: required rules in a Role in the Job's namespace only; isolation apart, cluster-wide only where it must be")
  void runObjects() {
    RbacManifest m = run();
    assertThat(m.objects())
        .extracting(
            i ->
                i.object().path("kind").asString()
                    + " "
                    + i.object().path("metadata").path("namespace").asString("")
                    + "/"
                    + i.object().path("metadata").path("name").asString())
        .containsExactly(
            "Role bench/benchplan-run",
            "RoleBinding bench/benchplan-run",
            "Role dynamo/benchplan-run-isolation",
            "RoleBinding dynamo/benchplan-run-isolation",
            "ClusterRole /benchplan-run-isolation-cluster",
            "ClusterRoleBinding /benchplan-run-isolation-cluster");
    JsonNode required = object(m, "Role", "benchplan-run");
    assertThat(grants(required))
        .containsExactlyInAnyOrder(
            "get jobs.batch",
            "list jobs.batch",
            "watch jobs.batch",
            "create jobs.batch",
            "delete jobs.batch",
            "get configmaps.",
            "create configmaps.",
            "delete configmaps.",
            "list pods.",
            "watch pods.",
            "get pods.",
            "get pods/log.",
            "list events.");
    assertThat(grants(object(m, "Role", "benchplan-run-isolation"))).containsExactly("list pods.");
    JsonNode cluster = object(m, "ClusterRole", "benchplan-run-isolation-cluster");
    assertThat(grants(cluster))
        .containsExactlyInAnyOrder(
            "get namespaces.", "list jobs.batch", "get nodes.", "list pods.");
    // reading the namespace is limited to the run's own
    assertThat(cluster.path("rules").findValues("resourceNames")).hasSize(1);
    assertThat(cluster.path("rules").findValues("resourceNames").get(0).get(0).asString())
        .isEqualTo("bench");
    assertThat(
            object(m, "RoleBinding", "benchplan-run")
                .path("subjects")
                .get(0)
                .path("name")
                .asString())
        .isEqualTo("benchplan");
    assertThat(
            object(m, "Role", "benchplan-run")
                .path("metadata")
                .path("labels")
                .path(RbacManifest.NEED_LABEL)
                .asString())
        .isEqualTo("required");
  }

  @Test
  @DisplayName(
      "run of a deploy root rendered with an artifact claim: the collector pod's rights in the Job's namespace too")
  void runWithClaim() throws Exception {
    RunFixtures.create(tmp, "bench", 50, 35);
    Path perf = tmp.resolve("deploy/benchmark/perf.yaml");
    java.nio.file.Files.writeString(
        perf,
        java.nio.file.Files.readString(perf)
            .replace(
                "benchplan.dev/artifacts: \"emptyDir\"",
                "benchplan.dev/artifacts: \"pvc:bench-artifacts\"")
            .replace(
                "benchplan.dev/artifacts: emptyDir",
                "benchplan.dev/artifacts: pvc:bench-artifacts"));
    RbacManifest m = RbacManifests.run(tmp.resolve("deploy"), null, null);
    assertThat(grants(object(m, "Role", "benchplan-run")))
        .contains(
            "create pods.",
            "delete pods.",
            "get pods.",
            "list pods.",
            "watch pods.",
            "get pods/log.");
    assertThat(m.yaml()).contains("collector pod");
    assertThat(grants(object(run(), "Role", "benchplan-run")))
        .doesNotContain("create pods.", "delete pods.");
  }

  @Test
  @DisplayName("every rule has a comment naming the step that needs it")
  void ruleComments() {
    String yaml = run().yaml();
    assertThat(yaml)
        .contains(
            "  # run apply: the AIPerf Job\n- apiGroups:\n  - batch\n  resources:\n  - jobs\n  verbs:\n  - create\n")
        .contains("# run preflight: GPU sharing on the serving nodes (403: not checked)")
        .contains(
            "# required: benchplan run fails (exit 3, nothing created) without every rule of this; namespace bench")
        .contains("# isolation: without these rules the isolation checks are skipped");
    for (RbacManifest.Item i : run().objects()) {
      assertThat(i.ruleSteps()).hasSize(i.object().path("rules").size());
      i.ruleSteps().forEach(s -> assertThat(s).isNotBlank());
    }
  }

  @Test
  @DisplayName("each command's printed rules grant every verb of every table row it makes")
  void coversTheTable() {
    record Case(KubeCall.Command command, RbacManifest manifest) {}
    for (Case c :
        List.of(
            new Case(KubeCall.Command.RUN, run()),
            new Case(
                KubeCall.Command.VALIDATE_DGD,
                RbacManifests.validate("dynamo/vllm-agg", null, null)),
            new Case(KubeCall.Command.VALIDATE_DEPLOY, RbacManifests.validate(null, null, null)))) {
      List<String> granted = new ArrayList<>();
      c.manifest().objects().forEach(i -> granted.addAll(grants(i.object())));
      for (KubeCall row : KubeCall.values()) {
        if (row.commands().contains(c.command())) {
          for (String verb : row.verbs()) {
            assertThat(granted)
                .as(c.command() + " " + row)
                .contains(verb + " " + row.rbacResource() + "." + row.group());
          }
        }
      }
    }
  }

  @Test
  @DisplayName(
      "validate --dgd: one Role in the DGD's namespace; discovery cluster-wide unless --namespace")
  void validateDgd() {
    RbacManifest all = RbacManifests.validate("dynamo/vllm-agg", null, null);
    assertThat(grants(object(all, "ClusterRole", "benchplan-validate-cluster")))
        .containsExactlyInAnyOrder("list dynamographdeployments.nvidia.com", "list services.");
    RbacManifest one = RbacManifests.validate("dynamo/vllm-agg", "dynamo", null);
    assertThat(one.objects())
        .noneMatch(
            i ->
                i.object().path("kind").asString().equals("ClusterRole")
                    && i.object()
                        .path("metadata")
                        .path("labels")
                        .path(RbacManifest.NEED_LABEL)
                        .asString()
                        .equals("required"));
    assertThat(grants(object(one, "Role", "benchplan-validate")))
        .contains("get dynamographdeployments.nvidia.com", "create jobs.batch", "list services.");
  }

  @Test
  @DisplayName(
      "validate auto-deploy: a required ClusterRole (the fresh namespace is named at run time)")
  void validateDeploy() {
    RbacManifest m =
        RbacManifests.validate(null, null, new RbacManifest.Subject("User", "ci-bot", null));
    JsonNode cr = object(m, "ClusterRole", "benchplan-validate-deploy-cluster");
    assertThat(grants(cr))
        .contains(
            "create namespaces.",
            "delete namespaces.",
            "create dynamographdeployments.nvidia.com",
            "list nodes.",
            "create jobs.batch",
            "get pods/log.");
    JsonNode subject =
        object(m, "ClusterRoleBinding", "benchplan-validate-deploy-cluster")
            .path("subjects")
            .get(0);
    assertThat(subject.path("kind").asString()).isEqualTo("User");
    assertThat(subject.path("name").asString()).isEqualTo("ci-bot");
  }

  @Test
  @DisplayName(
      "validate auto-deploy: the model cache's rows (StorageClass, PVC, populate Job) are required with the"
          + " cache and left out without it; every other row stays")
  void modelCacheRows() {
    List<String> cacheRows =
        List.of(
            "get storageclasses.storage.k8s.io",
            "list storageclasses.storage.k8s.io",
            "create persistentvolumeclaims.");
    List<String> with = new ArrayList<>();
    RbacManifests.validate(null, null, null)
        .objects()
        .forEach(i -> with.addAll(grants(i.object())));
    List<String> without = new ArrayList<>();
    RbacManifest off = RbacManifests.validate(null, null, null, false);
    off.objects().forEach(i -> without.addAll(grants(i.object())));
    assertThat(with).containsAll(cacheRows);
    assertThat(without).doesNotContainAnyElementsOf(cacheRows);
    // the AIPerf Job still needs jobs create and watch: only the cache's own rows go
    assertThat(without)
        .contains(
            "create jobs.batch", "watch jobs.batch", "create dynamographdeployments.nvidia.com");
    assertThat(off.yaml()).contains("--no-model-cache").contains("model cache off");

    List<KubeCall> needed =
        Permissions.required(RbacTargets.validateDeploy(null, true)).stream()
            .map(Permission::row)
            .distinct()
            .toList();
    List<KubeCall> neededOff =
        Permissions.required(RbacTargets.validateDeploy(null, false)).stream()
            .map(Permission::row)
            .distinct()
            .toList();
    for (KubeCall row : KubeCall.values()) {
      if (!row.commands().contains(KubeCall.Command.VALIDATE_DEPLOY)
          || row.need() != KubeCall.Need.REQUIRED) {
        continue;
      }
      assertThat(needed).as(row.name()).contains(row);
      if (row.feature() == KubeCall.Feature.MODEL_CACHE) {
        assertThat(neededOff).as(row.name()).doesNotContain(row);
      } else {
        assertThat(neededOff).as(row.name()).contains(row);
      }
    }
    assertThat(
            java.util.Arrays.stream(KubeCall.values())
                .filter(r -> r.feature() == KubeCall.Feature.MODEL_CACHE))
        .extracting(Enum::name)
        .containsExactlyInAnyOrder(
            "DEPLOY_STORAGECLASS_GET",
            "DEPLOY_STORAGECLASSES_LIST",
            "DEPLOY_PVC_CREATE",
            "DEPLOY_CACHE_JOB_CREATE",
            "DEPLOY_CACHE_JOB_WATCH");
  }

  @Test
  @DisplayName("bad input is exit 2 with one line naming the option")
  void badInput() {
    assertThatThrownBy(() -> RbacManifests.validate("vllm-agg", null, null))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "option --dgd: expected NAMESPACE/NAME (the DGD's namespace decides where the AIPerf Job runs),"
                + " got 'vllm-agg'")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThatThrownBy(() -> RbacManifests.run(tmp.resolve("none"), null, null))
        .hasMessage(
            tmp.resolve("none/benchmark/perf.yaml")
                + ": not found; option --deploy-root: expected the DEPLOY_ROOT 'benchplan render'"
                + " wrote (holding benchmark/perf.yaml)");
    assertThatThrownBy(() -> RbacManifest.Subject.serviceAccount("nons"))
        .hasMessage("option --service-account: expected NAMESPACE/NAME, got 'nons'");
    assertThatThrownBy(() -> RbacManifests.validate(null, "Bad_NS", null))
        .hasMessage(
            "option --namespace: expected a namespace name (lower-case DNS label), got 'Bad_NS'");
  }
}
