package dev.benchplan.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Sha256;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.testing.PlanFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan side of issue 8: a ledger whose smoke test is missing, tampered or failed is refused.
 */
class DeploymentLedgerReaderTest {
  @TempDir Path tmp;
  Path dir;

  static final String DGD =
      """
      apiVersion: nvidia.com/v1alpha1
      kind: DynamoGraphDeployment
      metadata: {name: vllm-agg}
      spec:
        services:
          VllmDecodeWorker:
            envFromSecret: hf-token-secret
            extraPodSpec:
              mainContainer:
                env:
                  - name: X
                    valueFrom: {secretKeyRef: {name: other-secret, key: k}}
      """;

  @BeforeEach
  void setUp() throws IOException {
    dir = tmp.resolve("deploy");
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("dgd.yaml"), DGD);
    smoke(EXAMPLE_SMOKE);
  }

  /** The committed example artifact (schemas/smoke-artifact.schema.json). */
  static final String EXAMPLE_SMOKE = read(Path.of("examples", "smoke_test_artifact.json"));

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void smoke(String json) throws IOException {
    Files.writeString(dir.resolve("smoke_test_artifact.json"), json);
  }

  private InputDocument ledger(String smokeSha, boolean success, String extra) throws IOException {
    Path p = dir.resolve("ledger.yaml");
    Files.writeString(
        p,
        PlanFixture.Inputs.ledgerYaml(Sha256.ofFile(dir.resolve("dgd.yaml")), smokeSha, success, 1)
            + extra);
    return InputDocument.read(p, "deployment ledger");
  }

  private String smokeSha() {
    return Sha256.ofFile(dir.resolve("smoke_test_artifact.json"));
  }

  private List<String> codes(InputDocument ledger) {
    RuleLog log = new RuleLog();
    assertThat(DeploymentLedgerReader.read(ledger, log)).isEmpty();
    log.blockers().forEach(b -> assertThat(b.rule()).isEqualTo("execution/deployment-ledger.md"));
    return log.blockers().stream().map(Blocker::code).toList();
  }

  @Test
  @DisplayName(
      "a valid ledger: paths resolve against the ledger's folder, secrets from the DGD are added")
  void valid() throws IOException {
    RuleLog log = new RuleLog();
    DeploymentRecord d =
        DeploymentLedgerReader.read(ledger(smokeSha(), true, ""), log).orElseThrow();
    assertThat(log.blockers()).isEmpty();
    assertThat(d.dgdPath()).isEqualTo(dir.resolve("dgd.yaml").toAbsolutePath().toString());
    assertThat(d.secrets()).containsExactly("hf-token-secret", "other-secret");
    assertThat(log.warnings()).anyMatch(w -> w.contains("'other-secret'"));
    assertThat(d.smoke()).isInstanceOf(SmokeEvidence.Artifact.class);
    assertThat(((SmokeEvidence.Artifact) d.smoke()).sha256()).isEqualTo(smokeSha());
    assertThat(d.endpointUrl()).isEqualTo("http://vllm-agg-frontend.bench.svc.cluster.local:8000");
  }

  @Test
  @DisplayName("a missing smoke artifact is SMOKE_MISSING")
  void smokeMissing() throws IOException {
    String sha = smokeSha();
    Files.delete(dir.resolve("smoke_test_artifact.json"));
    assertThat(codes(ledger(sha, true, ""))).containsExactly("SMOKE_MISSING");
  }

  @Test
  @DisplayName(
      "a smoke artifact that does not hash to the ledger's SHA-256 is SMOKE_SHA256_MISMATCH")
  void smokeTampered() throws IOException {
    String sha = smokeSha();
    smoke(EXAMPLE_SMOKE.replace("127.0.0.1:8000", "10.0.0.7:8000"));
    assertThat(codes(ledger(sha, true, ""))).containsExactly("SMOKE_SHA256_MISMATCH");
  }

  @Test
  @DisplayName("a smoke artifact saying success:false is SMOKE_FAILED, with its reason")
  void smokeFailed() throws IOException {
    smoke(
        EXAMPLE_SMOKE
            .replace("\"success\": true", "\"success\": false")
            .replace("\"reason\": null", "\"reason\": \"model not served\""));
    RuleLog log = new RuleLog();
    DeploymentLedgerReader.read(ledger(smokeSha(), true, ""), log);
    assertThat(log.blockers()).extracting(Blocker::code).containsExactly("SMOKE_FAILED");
    assertThat(log.blockers().get(0).message()).contains("model not served");
  }

  @Test
  @DisplayName("a ledger recording success:false is SMOKE_FAILED")
  void ledgerFailed() throws IOException {
    assertThat(codes(ledger(smokeSha(), false, ""))).containsExactly("SMOKE_FAILED");
  }

  @Test
  @DisplayName("a smoke test of another model, or not a smoke artifact at all, is refused")
  void smokeModelAndShape() throws IOException {
    smoke(
        EXAMPLE_SMOKE.replace(
            "\"model\": \"Qwen/Qwen3-0.6B\",\n  \"models\"",
            "\"model\": \"other/model\",\n  \"models\""));
    assertThat(codes(ledger(smokeSha(), true, ""))).containsExactly("SMOKE_MODEL_MISMATCH");
    smoke("{\"schema_version\": \"1\", \"success\": true, \"model\": \"Qwen/Qwen3-0.6B\"}");
    assertThat(codes(ledger(smokeSha(), true, ""))).containsExactly("SMOKE_INVALID");
    smoke("[1, 2]");
    assertThat(codes(ledger(smokeSha(), true, ""))).containsExactly("SMOKE_INVALID");
  }

  @Test
  @DisplayName("the applied DGD must exist, hash to its SHA-256 and carry the ledger's name")
  void dgdChecks() throws IOException {
    InputDocument l = ledger(smokeSha(), true, "");
    Files.writeString(dir.resolve("dgd.yaml"), DGD + "# edited after apply\n");
    assertThat(codes(l)).containsExactly("DGD_SHA256_MISMATCH");
    Files.writeString(dir.resolve("dgd.yaml"), DGD.replace("name: vllm-agg", "name: other"));
    assertThat(codes(ledger(smokeSha(), true, ""))).containsExactly("DGD_NAME_MISMATCH");
    Files.writeString(dir.resolve("dgd.yaml"), "apiVersion: v1\nkind: ConfigMap\n");
    assertThat(codes(ledger(smokeSha(), true, ""))).containsExactly("DGD_INVALID");
    Files.delete(dir.resolve("dgd.yaml"));
    Files.writeString(dir.resolve("dgd.yaml.bak"), DGD);
    assertThat(codes(l)).containsExactly("DGD_MISSING");
  }

  @Test
  @DisplayName("schema errors name the ledger, line and pointer")
  void schema() throws IOException {
    RuleLog log = new RuleLog();
    InputDocument l = ledger(smokeSha(), true, "frontend_port: 8000\n");
    DeploymentLedgerReader.read(l, log);
    assertThat(log.blockers()).extracting(Blocker::code).containsExactly("LEDGER_SCHEMA");
    assertThat(log.blockers().get(0).message()).contains(l.location() + ":12 /frontend_port");
  }

  @Test
  @DisplayName("a token in the ledger is refused without echoing it")
  void ledgerSecret() throws IOException {
    RuleLog log = new RuleLog();
    String token = "ghp_" + "Z".repeat(36);
    DeploymentLedgerReader.read(ledger(smokeSha(), true, "notes: " + token + "\n"), log);
    assertThat(log.blockers()).extracting(Blocker::code).containsExactly("LEDGER_SECRET");
    assertThat(log.blockers().get(0).message()).doesNotContain(token);
  }
}
