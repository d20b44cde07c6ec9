package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.kube.run.RunFixtures;
import dev.benchplan.testing.CommandHarness;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code benchplan rbac}: YAML by default, the same objects with --format json, one-line errors.
 */
class RbacCommandTest {
  @TempDir Path tmp;

  @Test
  @DisplayName("rbac run prints YAML; --format json prints the same objects as one v1 List")
  void runYamlAndJson() {
    RunFixtures.create(tmp, "bench", 50, 35);
    String root = tmp.resolve("deploy").toString();
    var yaml =
        CommandHarness.run(
                "rbac", "run", "--deploy-root", root, "--service-account", "ci/bench-bot")
            .expectOk();
    assertThat(yaml.out())
        .startsWith("# RBAC for benchplan run --deploy-root " + root + "\n")
        .contains("kind: Role\n")
        .contains("kind: ClusterRole\n")
        .contains("  name: bench-bot\n  namespace: ci\n");
    var json =
        CommandHarness.run(
                "rbac",
                "run",
                "--deploy-root",
                root,
                "--service-account",
                "ci/bench-bot",
                "--format",
                "json")
            .expectOk();
    JsonNode list = Json.JSON.readTree(json.out());
    assertThat(list.path("kind").asString()).isEqualTo("List");
    java.util.List<JsonNode> docs = new java.util.ArrayList<>();
    try (var it = Json.YAML.readerFor(JsonNode.class).readValues(yaml.out())) {
      while (it.hasNextValue()) {
        JsonNode n = (JsonNode) it.nextValue();
        if (n != null && !n.isNull() && !n.isMissingNode()) {
          docs.add(n);
        }
      }
    }
    java.util.List<JsonNode> items = new java.util.ArrayList<>();
    list.path("items").forEach(items::add);
    assertThat(docs).isEqualTo(items);
  }

  @Test
  @DisplayName("rbac validate without --dgd covers the auto-deployment")
  void validateDeploy() {
    var r = CommandHarness.run("rbac", "validate").expectOk();
    assertThat(r.out())
        .contains("# RBAC for benchplan validate (auto-deploy)")
        .contains("name: benchplan-validate-deploy-cluster")
        .contains("  - namespaces\n");
  }

  @Test
  @DisplayName(
      "rbac validate --no-model-cache: no rule for the cache's StorageClass or PVC; without it, both")
  void noModelCache() {
    var off = CommandHarness.run("rbac", "validate", "--no-model-cache").expectOk();
    assertThat(off.out())
        .contains("# RBAC for benchplan validate (auto-deploy) --no-model-cache")
        .doesNotContain("persistentvolumeclaims")
        .doesNotContain("storageclasses");
    var on = CommandHarness.run("rbac", "validate").expectOk();
    assertThat(on.out()).contains("persistentvolumeclaims").contains("storageclasses");
  }

  @Test
  @DisplayName("bad input: exit 2 and one line")
  void badInput() {
    var r = CommandHarness.run("rbac", "validate", "--dgd", "vllm-agg").expectExit(2);
    assertThat(r.err())
        .isEqualTo(
            "benchplan: option --dgd: expected NAMESPACE/NAME (the DGD's namespace decides"
                + " where the AIPerf Job runs), got 'vllm-agg'\n");
    assertThat(r.out()).isEmpty();
    CommandHarness.run("rbac", "validate", "--user", "u", "--service-account", "a/b")
        .expectError(2, "options --user and --service-account: give one subject, not both");
  }
}
