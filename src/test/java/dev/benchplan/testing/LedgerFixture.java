package dev.benchplan.testing;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A deployment ledger (with its DGD manifest and smoke artifact) that agrees with a plan's {@code
 * /deployment}, written beside the plan, since render takes the candidate from a ledger. Fills the
 * plan's ledger, DGD and smoke hashes in.
 */
final class LedgerFixture {
  private LedgerFixture() {}

  /** Writes the ledger for {@code plan}'s deployment into {@code dir}; updates the plan. */
  static Path writeFor(ObjectNode plan, Path dir, String name) {
    ObjectNode d = plan.withObject("/deployment");
    try {
      Files.createDirectories(dir);
      String dgdName = d.path("dgd_name").asString();
      byte[] dgd =
          ("apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nmetadata:\n"
                  + "  name: "
                  + dgdName
                  + "\nspec:\n  services: {}\n")
              .getBytes(StandardCharsets.UTF_8);
      Path dgdFile = dir.resolve(name + "-dgd.yaml");
      Files.write(dgdFile, dgd);
      String model = d.path("served_model").asString();
      ObjectNode smoke =
          (ObjectNode)
              Json.JSON.readTree(Files.readAllBytes(Path.of("examples/smoke_test_artifact.json")));
      smoke.put("model", model);
      smoke.withObject("/models").putArray("served").add(model);
      smoke.withObject("/request").withObject("/body").put("model", model);
      smoke.withObject("/response").put("model", model);
      byte[] smokeBytes = CanonicalJson.bytes(smoke);
      Path smokeFile = dir.resolve(name + "-smoke.json");
      Files.write(smokeFile, smokeBytes);

      ObjectNode l = Json.JSON.createObjectNode();
      l.put("schema_version", "1");
      l.put("dgd_name", dgdName);
      l.put("kube_context", d.path("kube_context").asString());
      l.put("namespace", d.path("namespace").asString());
      l.putObject("applied_dgd")
          .put("path", dgdFile.getFileName().toString())
          .put("sha256", Sha256.hex(dgd));
      l.putObject("frontend")
          .put("service", d.path("frontend_service").asString())
          .put("port", d.path("frontend_port").asInt());
      l.put("served_model", model);
      l.put("tokenizer", d.path("tokenizer").asString());
      l.set("gpus", d.path("gpus").deepCopy());
      JsonNode ctx = d.path("max_context_length");
      l.set("max_context_length", ctx.isMissingNode() ? l.nullNode() : ctx.deepCopy());
      l.putObject("smoke_test")
          .put("artifact_path", smokeFile.getFileName().toString())
          .put("sha256", Sha256.hex(smokeBytes))
          .put("success", true);
      java.util.TreeSet<String> sorted = new java.util.TreeSet<>();
      d.path("secrets").forEach(s -> sorted.add(s.asString()));
      ArrayNode secrets = l.putArray("secrets");
      ArrayNode planSecrets = d.putArray("secrets"); // plan writes them sorted
      sorted.forEach(
          s -> {
            secrets.add(s);
            planSecrets.add(s);
          });
      byte[] ledger = CanonicalJson.bytes(l);
      Path ledgerFile = dir.resolve(name + "-ledger.json");
      Files.write(ledgerFile, ledger);

      d.put("ledger_path", ledgerFile.toAbsolutePath().normalize().toString());
      d.put("ledger_sha256", Sha256.hex(ledger));
      d.put("dgd_path", dgdFile.toAbsolutePath().normalize().toString());
      d.put("dgd_sha256", Sha256.hex(dgd));
      d.put(
          "endpoint_url",
          "http://"
              + d.path("frontend_service").asString()
              + "."
              + d.path("namespace").asString()
              + ".svc.cluster.local:"
              + d.path("frontend_port").asInt());
      return ledgerFile;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
