package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The smoke -> plan hand-off with real artifacts: {@code benchplan smoke} against llama-server on
 * 127.0.0.1 (BENCHPLAN_ENDPOINT_URL, started by scripts/test.sh) writes the artifact the ledger
 * records; {@code plan} accepts it, and refuses a failed or tampered one.
 */
@Tag("endpoint")
class PlanSmokeEndpointIT {
  static final String MODEL = "tiny-test-model";
  static String url;
  @TempDir Path dir;

  @BeforeAll
  static void endpoint() {
    url = System.getenv("BENCHPLAN_ENDPOINT_URL");
    if (url == null || url.isBlank()) {
      String why = "BENCHPLAN_ENDPOINT_URL is not set (scripts/test.sh starts the endpoint)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        org.junit.jupiter.api.Assertions.fail("endpoint tier cannot run in CI: " + why);
      }
      Assumptions.abort(why);
    }
    url = url.strip();
  }

  private JsonNode smoke(String model, String out, int exit) throws Exception {
    var r =
        CommandHarness.run(
                "smoke",
                "--url",
                url,
                "--model",
                model,
                "--out",
                dir.resolve(out).toString(),
                "--format",
                "json")
            .expectExit(exit);
    return Json.JSON.readTree(r.out());
  }

  private void ledger(String artifact, String sha, boolean success) throws Exception {
    PlanFixture.Inputs.write(dir.resolve("dgd.yaml"), PlanFixture.Inputs.DGD);
    PlanFixture.Inputs.write(
        dir.resolve("ledger.yaml"),
        """
        dgd_name: vllm-agg
        kube_context: kind-test
        namespace: bench
        applied_dgd: {path: dgd.yaml, sha256: %s}
        frontend: {service: vllm-agg-frontend, port: 8000}
        served_model: %s
        tokenizer: %s
        gpus: [{gpu_type: CPU, gpu_count: 1}]
        max_context_length: 2048
        smoke_test: {artifact_path: %s, sha256: %s, success: %s}
        secrets: [hf-token-secret]
        """
            .formatted(
                Sha256.ofFile(dir.resolve("dgd.yaml")), MODEL, MODEL, artifact, sha, success));
  }

  private CommandHarness.Result plan(int exit) {
    PlanFixture.Inputs.write(
        dir.resolve("workload.yaml"),
        """
        profile: {name: smoke-handoff, type: chat}
        traffic: {input_tokens: 64, output_tokens: 16, concurrency: [2]}
        """);
    return CommandHarness.run(
            "plan",
            "--workload",
            dir.resolve("workload.yaml").toString(),
            "--ledger",
            dir.resolve("ledger.yaml").toString(),
            "--question",
            "Does it serve?",
            "--aiperf-version",
            "0.13.0",
            "--exp-root",
            dir.resolve("exp").toString(),
            "--format",
            "json")
        .expectExit(exit);
  }

  @Test
  @DisplayName("a real successful smoke artifact is accepted and recorded by path and SHA-256")
  void accepted() throws Exception {
    JsonNode s = smoke(MODEL, "smoke_test_artifact.json", 0);
    ledger("smoke_test_artifact.json", s.get("sha256").asString(), true);
    JsonNode out = Json.JSON.readTree(plan(0).out());
    JsonNode plan = Json.JSON.readTree(Files.readString(Path.of(out.get("plan_path").asString())));
    assertThat(plan.at("/deployment/smoke_test/sha256").asString())
        .isEqualTo(s.get("sha256").asString());
    assertThat(plan.at("/deployment/smoke_test/url").asString()).isEqualTo(url);
  }

  @Test
  @DisplayName("a real failed smoke artifact (model not served) is SMOKE_FAILED")
  void failed() throws Exception {
    JsonNode s = smoke("not-served-model", "failed.json", 3);
    assertThat(s.get("success").asBoolean()).isFalse();
    ledger("failed.json", s.get("sha256").asString(), true);
    var r = plan(2);
    assertThat(Json.JSON.readTree(r.out()).at("/blockers/0/code").asString())
        .isEqualTo("SMOKE_FAILED");
    assertThat(r.err()).contains("model not served");
    assertThat(dir.resolve("exp")).doesNotExist();
  }

  @Test
  @DisplayName("a real artifact edited after the ledger recorded it is SMOKE_SHA256_MISMATCH")
  void tampered() throws Exception {
    JsonNode s = smoke(MODEL, "smoke_test_artifact.json", 0);
    ledger("smoke_test_artifact.json", s.get("sha256").asString(), true);
    Path artifact = dir.resolve("smoke_test_artifact.json");
    Files.writeString(
        artifact, Files.readString(artifact).replace("\"warnings\"", "\"warnings \""));
    var r = plan(2);
    assertThat(Json.JSON.readTree(r.out()).at("/blockers/0/code").asString())
        .isEqualTo("SMOKE_SHA256_MISMATCH");
    Files.delete(artifact);
    assertThat(Json.JSON.readTree(plan(2).out()).at("/blockers/0/code").asString())
        .isEqualTo("SMOKE_MISSING");
  }
}
