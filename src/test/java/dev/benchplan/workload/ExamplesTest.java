package dev.benchplan.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The committed examples are real, consistent inputs. */
class ExamplesTest {
  static final Path EXAMPLES = Path.of("examples").toAbsolutePath();

  @Test
  @DisplayName("examples/traces/example_trace.jsonl is exactly what ExampleTraceGenerator writes")
  void exampleTraceIsGenerated() throws IOException {
    assertThat(Files.readAllBytes(EXAMPLES.resolve("traces/example_trace.jsonl")))
        .isEqualTo(ExampleTraceGenerator.generate());
    String[] lines =
        new String(ExampleTraceGenerator.generate(), java.nio.charset.StandardCharsets.UTF_8)
            .split("\n");
    assertThat(lines).hasSize(200);
    long last = Json.JSON.readTree(lines[lines.length - 1]).get("timestamp").asLong();
    assertThat(last).as("spans under 10 minutes").isLessThan(600_000);
  }

  @Test
  @DisplayName("every example workload and the ledger match their schemas")
  void schemas() throws IOException {
    for (String w :
        new String[] {"workload-static.yaml", "workload-trace.yaml", "workload-proxy.yaml"}) {
      assertThat(
              SchemaValidator.bundled("user-workload.schema.json")
                  .validate(InputDocument.read(EXAMPLES.resolve(w), "user workload").tree()))
          .as(w)
          .isEmpty();
    }
    assertThat(
            SchemaValidator.bundled("deployment-ledger.schema.json")
                .validate(
                    InputDocument.read(EXAMPLES.resolve("deployment-ledger.yaml"), "ledger")
                        .tree()))
        .isEmpty();
  }

  @Test
  @DisplayName("the ledger's SHA-256s are those of the example DGD and smoke artifact")
  void ledgerHashes() {
    JsonNode ledger =
        InputDocument.read(EXAMPLES.resolve("deployment-ledger.yaml"), "ledger").tree();
    assertThat(ledger.at("/applied_dgd/sha256").asString())
        .isEqualTo(Sha256.ofFile(EXAMPLES.resolve("dgd.yaml")));
    assertThat(ledger.at("/smoke_test/sha256").asString())
        .isEqualTo(Sha256.ofFile(EXAMPLES.resolve("smoke_test_artifact.json")));
    JsonNode workload = InputDocument.read(EXAMPLES.resolve("workload-static.yaml"), "w").tree();
    assertThat(workload.at("/deployment/dgd_sha256").asString())
        .isEqualTo(Sha256.ofFile(EXAMPLES.resolve("dgd.yaml")));
  }

  @Test
  @DisplayName(
      "examples/dgd.yaml is valid against the real v1alpha1 DGD CRD schema (Dynamo v0.9.0)")
  void dgdAgainstCrd(@TempDir Path tmp) throws IOException {
    Path crd =
        SharedData.require(
            "dynamo/v0.9.0/deploy/helm/charts/crds/templates/nvidia.com_dynamographdeployments.yaml");
    JsonNode crdTree = Json.YAML.readTree(Files.readAllBytes(crd));
    JsonNode schema = null;
    for (JsonNode v : crdTree.at("/spec/versions")) {
      if (v.path("name").asString().equals("v1alpha1")) {
        schema = v.at("/schema/openAPIV3Schema");
      }
    }
    assertThat(schema).as("v1alpha1 schema in the CRD").isNotNull();
    Path schemaFile = tmp.resolve("dgd.schema.json");
    Files.write(schemaFile, Json.JSON.writeValueAsBytes(schema));
    SchemaValidator validator = SchemaValidator.fromFile(schemaFile);
    JsonNode dgd = InputDocument.read(EXAMPLES.resolve("dgd.yaml"), "dgd").tree();
    assertThat(validator.validate(dgd)).isEmpty();
    // the check has teeth: a wrong type is reported
    ((tools.jackson.databind.node.ObjectNode) dgd.at("/spec/services/Frontend"))
        .put("replicas", "one");
    assertThat(validator.validate(dgd)).isNotEmpty();
    assertThat(DgdManifest.of(dgd).secretNames()).containsExactly("hf-token-secret");
  }
}
