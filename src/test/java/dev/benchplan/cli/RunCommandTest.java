package dev.benchplan.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.kube.run.RunFixtures;
import dev.benchplan.testing.CommandHarness;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code benchplan run} through the CLI, against the fabric8 mock server reached via a kubeconfig.
 */
@org.junit.jupiter.api.extension.ExtendWith(dev.benchplan.kube.MockApiServer.class)
class RunCommandTest {
  KubernetesMockServer server;
  KubernetesClient client;
  @TempDir Path tmp;
  String previousKubeconfig;

  @BeforeEach
  void kubeconfig() throws Exception {
    Path kubeconfig = tmp.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "current-context: other",
            "clusters:",
            "- name: mock",
            "  cluster: {server: '" + client.getMasterUrl().toString().replaceAll("/$", "") + "'}",
            "- name: elsewhere",
            "  cluster: {server: 'http://127.0.0.1:1'}",
            "contexts:",
            "- name: mock",
            "  context: {cluster: mock, user: tester, namespace: bench}",
            "- name: other",
            "  context: {cluster: elsewhere, user: tester}",
            "users:",
            "- name: tester",
            "  user: {token: test-token}",
            ""));
    // fabric8 reads the kubeconfig location from this system property before $KUBECONFIG
    previousKubeconfig = System.setProperty("kubeconfig", kubeconfig.toString());
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("bench").endMetadata().build())
        .create();
    dev.benchplan.kube.AccessReviews.install(
        server, review -> false); // run asks before it creates anything
  }

  @AfterEach
  void restore() {
    if (previousKubeconfig == null) {
      System.clearProperty("kubeconfig");
    } else {
      System.setProperty("kubeconfig", previousKubeconfig);
    }
  }

  @Test
  @DisplayName("a missing perf.yaml is exit 2 with one line, before any cluster access")
  void missingPerf() {
    var r =
        CommandHarness.run("run", "--deploy-root", tmp.resolve("nothing").toString()).expectExit(2);
    assertThat(r.err())
        .isEqualTo(
            "benchplan: "
                + tmp.resolve("nothing/benchmark/perf.yaml")
                + ": perf.yaml not found; run 'benchplan render' first\n");
  }

  @Test
  @DisplayName("an unknown --context is exit 2")
  void unknownContext() {
    RunFixtures.create(tmp, null, 50, 35);
    CommandHarness.run(
            "run", "--deploy-root", tmp.resolve("deploy").toString(), "--context", "nosuch")
        .expectError(
            2,
            "option --context: context 'nosuch' is not in the kubeconfig "
                + tmp.resolve("kubeconfig")
                + " (it has: other, mock)");
  }

  @Test
  @DisplayName(
      "end to end through the CLI: the context's namespace, progress on stderr, one JSON document on stdout")
  void endToEnd() throws Exception {
    RunFixtures.create(tmp, null, 50, 35);
    String pod = RunFixtures.JOB + "-abcde";
    server
        .expect()
        .get()
        .withPath("/api/v1/namespaces/bench/pods/" + pod + "/log?pretty=false&container=aiperf")
        .andReturn(200, RunFixtures.realLog())
        .always();
    Runnable stopController = RunFixtures.completingController(client, "bench", pod);
    try {
      var r =
          CommandHarness.run(
              "run",
              "--deploy-root",
              tmp.resolve("deploy").toString(),
              "--context",
              "mock",
              "--format",
              "json");
      r.expectOk();
      JsonNode out = dev.benchplan.testing.JsonDocuments.assertStdout("run", r.out());
      assertThat(
              dev.benchplan.testing.JsonDocuments.assertFiles(
                  java.util.List.of("render", "run"), tmp.resolve("deploy")))
          .isGreaterThanOrEqualTo(3);
      dev.benchplan.testing.JsonDocuments.assertRejectsTampering(
          "run-result.schema.json", out, "cleanup");
      assertThat(out.get("run_id").asString()).isEqualTo(RunFixtures.RUN_ID);
      assertThat(out.get("verdict").get("verdict").asString()).isEqualTo("pass");
      assertThat(out.get("run").get("cluster").get("context").asString()).isEqualTo("mock");
      assertThat(out.get("run").get("cluster").get("namespace").asString()).isEqualTo("bench");
      assertThat(out.get("cleanup").get(0).asString()).contains("deleted");
      Path runJson = Path.of(out.get("run_dir").asString()).resolve("run.json");
      // issue 33: stdout's run is run.json, field for field (both parsed, trees compared)
      assertThat(out.get("run"))
          .isEqualTo(dev.benchplan.json.Json.JSON.readTree(Files.readAllBytes(runJson)));
      assertThat(r.err())
          .contains("run [preflight] ")
          .contains(": namespace bench")
          .contains("run [applied] ")
          .contains(": Job bench/")
          .contains("run [done] ")
          .contains(": pass -> ");
    } finally {
      stopController.run();
    }
  }
}
