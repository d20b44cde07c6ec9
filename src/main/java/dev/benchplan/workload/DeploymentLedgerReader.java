package dev.benchplan.workload;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Reads a deployment ledger (YAML or JSON) into a {@link DeploymentRecord}: schema check, secret
 * check, the applied DGD manifest (present, SHA-256, name) and the smoke-test artifact (present,
 * SHA-256, {@code success: true}, same model). Paths in the ledger resolve against its folder.
 */
public final class DeploymentLedgerReader {
  /** The bundled schema file name. */
  public static final String SCHEMA = "deployment-ledger.schema.json";

  /** The smoke artifact schema (written by {@code benchplan smoke}). */
  public static final String SMOKE_SCHEMA = "smoke-artifact.schema.json";

  private static final int MAX_REPORTED = 20;

  private DeploymentLedgerReader() {}

  /**
   * Reads and checks the ledger; returns empty when any blocker was logged (LEDGER_SCHEMA,
   * LEDGER_SECRET, DGD_MISSING, DGD_SHA256_MISMATCH, DGD_INVALID, DGD_NAME_MISMATCH, SMOKE_MISSING,
   * SMOKE_SHA256_MISMATCH, SMOKE_INVALID, SMOKE_FAILED, SMOKE_MODEL_MISMATCH).
   */
  public static Optional<DeploymentRecord> read(InputDocument ledger, RuleLog log) {
    int before = log.blockers().size();
    for (SecretScanner.Finding f : SecretScanner.scan(ledger.tree())) {
      log.block(
          BlockerCode.LEDGER_SECRET,
          "deployment ledger "
              + ledger.at(f.pointer())
              + ": looks like "
              + f.kind()
              + " (value not shown); the ledger lists Secret names only");
    }
    java.util.Set<String> outOfRange =
        InputRanges.check(
            ledger, InputRanges.LEDGER, "deployment ledger", BlockerCode.LEDGER_SCHEMA, log);
    if (!outOfRange.isEmpty()) {
      // an enormous number can overflow the schema validator's own arithmetic: stop here
      return Optional.empty();
    }
    List<SchemaValidator.Problem> problems =
        SchemaValidator.bundled(SCHEMA).validate(ledger.tree()).stream()
            .filter(p -> !outOfRange.contains(SchemaProblemPointer.of(p)))
            .toList();
    for (int i = 0; i < Math.min(problems.size(), MAX_REPORTED); i++) {
      SchemaValidator.Problem p = problems.get(i);
      log.block(
          BlockerCode.LEDGER_SCHEMA,
          "deployment ledger "
              + ledger.at(SchemaProblemPointer.of(p))
              + ": "
              + p.message()
              + " (schema "
              + SCHEMA
              + ")");
    }
    if (log.blockers().size() > before) {
      return Optional.empty();
    }
    JsonNode t = ledger.tree();
    String dgdName = t.get("dgd_name").asString();
    String servedModel = t.get("served_model").asString();
    Path dgdPath = resolve(ledger, "/applied_dgd/path", BlockerCode.DGD_MISSING, log);
    List<String> dgdSecrets =
        dgdPath == null
            ? List.of()
            : checkDgd(ledger, dgdPath, t.at("/applied_dgd/sha256").asString(), dgdName, log);
    SmokeEvidence.Artifact smoke = checkSmoke(ledger, servedModel, log);
    if (log.blockers().size() > before) {
      return Optional.empty();
    }
    TreeSet<String> secrets = new TreeSet<>();
    t.get("secrets").forEach(s -> secrets.add(s.asString()));
    for (String s : dgdSecrets) {
      if (!secrets.contains(s)) {
        log.warn(
            RuleFile.DEPLOYMENT_LEDGER,
            "deployment ledger "
                + ledger.at("/secrets")
                + ": the applied DGD references Secret '"
                + s
                + "', which the ledger does not list;"
                + " recorded in the plan from the manifest");
      }
    }
    secrets.addAll(dgdSecrets);
    List<GpuAllocation> gpus = new ArrayList<>();
    t.get("gpus")
        .forEach(
            g ->
                gpus.add(
                    new GpuAllocation(
                        g.get("gpu_type").asString(),
                        (int) InputRanges.requiredWhole(g, "/gpu_count"))));
    JsonNode ctx = t.get("max_context_length");
    return Optional.of(
        new DeploymentRecord(
            ledger.location(),
            ledger.sha256(),
            dgdName,
            t.get("kube_context").asString(),
            t.get("namespace").asString(),
            Objects.requireNonNull(dgdPath, "no blocker, so the DGD path resolved").toString(),
            t.at("/applied_dgd/sha256").asString(),
            t.at("/frontend/service").asString(),
            (int) InputRanges.requiredWhole(t, "/frontend/port"),
            servedModel,
            t.get("tokenizer").asString(),
            gpus,
            ctx.isNumber() ? InputRanges.wholeValue(t, "/max_context_length") : null,
            Objects.requireNonNull(smoke, "no blocker, so the smoke evidence was read"),
            new ArrayList<>(secrets)));
  }

  private static List<String> checkDgd(
      InputDocument ledger, Path dgdPath, String expectedSha, String dgdName, RuleLog log) {
    if (!Files.isRegularFile(dgdPath)) {
      log.block(
          BlockerCode.DGD_MISSING,
          "deployment ledger "
              + ledger.at("/applied_dgd/path")
              + ": the applied DGD manifest "
              + dgdPath
              + " does not exist");
      return List.of();
    }
    String actual = Sha256.ofFile(dgdPath);
    if (!actual.equals(expectedSha)) {
      log.block(
          BlockerCode.DGD_SHA256_MISMATCH,
          "deployment ledger "
              + ledger.at("/applied_dgd/sha256")
              + ": "
              + dgdPath
              + " hashes to "
              + actual
              + ", the ledger records "
              + expectedSha
              + "; the manifest changed after it was applied");
      return List.of();
    }
    DgdManifest manifest;
    try {
      manifest = DgdManifest.of(InputDocument.read(dgdPath, "DGD manifest").tree());
    } catch (BenchplanException e) {
      log.block(BlockerCode.DGD_INVALID, String.valueOf(e.getMessage()));
      return List.of();
    }
    if (!manifest.isDgd()) {
      log.block(
          BlockerCode.DGD_INVALID,
          "DGD manifest "
              + dgdPath
              + ": expected apiVersion nvidia.com/* and kind DynamoGraphDeployment, found "
              + manifest.apiVersion()
              + " "
              + manifest.kind());
      return List.of();
    }
    if (!dgdName.equals(manifest.name())) {
      log.block(
          BlockerCode.DGD_NAME_MISMATCH,
          "deployment ledger "
              + ledger.at("/dgd_name")
              + ": '"
              + dgdName
              + "' but the applied manifest "
              + dgdPath
              + " has metadata.name '"
              + manifest.name()
              + "'");
    }
    return manifest.secretNames();
  }

  private static SmokeEvidence.@Nullable Artifact checkSmoke(
      InputDocument ledger, String servedModel, RuleLog log) {
    if (!ledger.tree().at("/smoke_test/success").asBoolean()) {
      log.block(
          BlockerCode.SMOKE_FAILED,
          "deployment ledger "
              + ledger.at("/smoke_test/success")
              + ": the smoke test did not succeed; run"
              + " `benchplan smoke` against the deployed endpoint until it passes, then record it");
      return null;
    }
    Path path = resolve(ledger, "/smoke_test/artifact_path", BlockerCode.SMOKE_MISSING, log);
    if (path == null) {
      return null;
    }
    if (!Files.isRegularFile(path)) {
      log.block(
          BlockerCode.SMOKE_MISSING,
          "deployment ledger "
              + ledger.at("/smoke_test/artifact_path")
              + ": smoke test artifact "
              + path
              + " does not exist; a plan requires a successful smoke test (`benchplan smoke`)");
      return null;
    }
    String expected = ledger.tree().at("/smoke_test/sha256").asString();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      log.block(
          BlockerCode.SMOKE_MISSING,
          "smoke test artifact " + path + ": cannot read: " + e.getMessage());
      return null;
    }
    String actual = Sha256.hex(bytes);
    if (!actual.equals(expected)) {
      log.block(
          BlockerCode.SMOKE_SHA256_MISMATCH,
          "deployment ledger "
              + ledger.at("/smoke_test/sha256")
              + ": smoke test artifact "
              + path
              + " hashes to "
              + actual
              + ", the ledger records "
              + expected);
      return null;
    }
    JsonNode artifact;
    try {
      artifact = Json.JSON.readTree(bytes);
    } catch (JacksonException e) {
      log.block(
          BlockerCode.SMOKE_INVALID,
          "smoke test artifact " + path + ": not valid JSON" + lineOf(e));
      return null;
    }
    if (!artifact.isObject() || !artifact.path("success").isBoolean()) {
      log.block(
          BlockerCode.SMOKE_INVALID,
          "smoke test artifact "
              + path
              + " /success: expected a boolean (the artifact `benchplan smoke` writes)");
      return null;
    }
    if (!artifact.get("success").asBoolean()) {
      String reason =
          artifact.path("reason").isString() ? artifact.get("reason").asString() : "none";
      log.block(
          BlockerCode.SMOKE_FAILED,
          "smoke test artifact "
              + path
              + " /success: false (reason: "
              + reason
              + "); the endpoint must pass a smoke test first");
      return null;
    }
    List<SchemaValidator.Problem> problems =
        SchemaValidator.bundled(SMOKE_SCHEMA).validate(artifact);
    if (!problems.isEmpty()) {
      log.block(
          BlockerCode.SMOKE_INVALID,
          "smoke test artifact "
              + path
              + " "
              + problems.get(0)
              + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : "")
              + ": not an artifact `benchplan smoke` writes (schema "
              + SMOKE_SCHEMA
              + ")");
      return null;
    }
    String model = artifact.path("model").isString() ? artifact.get("model").asString() : null;
    if (model != null && !model.equals(servedModel)) {
      log.block(
          BlockerCode.SMOKE_MODEL_MISMATCH,
          "smoke test artifact "
              + path
              + " /model: '"
              + model
              + "' but the ledger's served_model is '"
              + servedModel
              + "'; the smoke test must exercise the served model");
      return null;
    }
    return new SmokeEvidence.Artifact(
        path.toString(),
        actual,
        model,
        artifact.path("url").isString() ? artifact.get("url").asString() : null,
        artifact.path("timestamp").isString() ? artifact.get("timestamp").asString() : null,
        timing(artifact));
  }

  /** The smoke request's timings, or null when absent or inconsistent (no estimate then). */
  private static @Nullable SmokeTiming timing(JsonNode artifact) {
    JsonNode ttft = artifact.at("/timings/ttft_ms");
    JsonNode total = artifact.at("/timings/total_ms");
    if (!ttft.isNumber()
        || !total.isNumber()
        || ttft.decimalValue().signum() < 0
        || total.decimalValue().compareTo(ttft.decimalValue()) < 0) {
      return null;
    }
    JsonNode prompt = artifact.at("/response/usage/prompt_tokens");
    JsonNode completion = artifact.at("/response/usage/completion_tokens");
    return new SmokeTiming(
        ttft.decimalValue(),
        total.decimalValue(),
        prompt.isIntegralNumber() && prompt.canConvertToLong() ? prompt.asLong() : null,
        completion.isIntegralNumber() && completion.canConvertToLong()
            ? completion.asLong()
            : null);
  }

  private static @Nullable Path resolve(
      InputDocument ledger, String pointer, BlockerCode code, RuleLog log) {
    try {
      return ledger.resolve(ledger.tree().at(pointer).asString());
    } catch (IllegalArgumentException e) {
      log.block(code, "deployment ledger " + ledger.at(pointer) + ": " + e.getMessage());
      return null;
    }
  }

  private static String lineOf(JacksonException e) {
    return e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
  }
}
