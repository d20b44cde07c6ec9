package dev.benchplan.verify;

import dev.benchplan.json.Json;
import dev.benchplan.error.BenchplanException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Verifies a run directory ({@code <DEPLOY_ROOT>/benchmark/runs/<run-id>/}): its {@code
 * artifacts.sha256} holds, and the plan its {@code run.json} names (path + SHA-256) verifies.
 */
final class RunDirVerifier {
  private final PlanVerifier plans;

  RunDirVerifier(PlanVerifier plans) {
    this.plans = plans;
  }

  VerifyReport verify(Path dir) {
    String label = dir.toString();
    List<String> checks = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    if (Files.isRegularFile(dir.resolve(ArtifactsManifest.NAME))) {
      checks.add(ArtifactsManifest.NAME);
      findings.addAll(ArtifactsManifest.check(dir, label));
    } else {
      notes.add("no " + ArtifactsManifest.NAME + ": the artifacts were not checked (a run"
          + " collected before the manifest existed)");
    }
    Path record = dir.resolve("run.json");
    if (Files.isRegularFile(record)) {
      checks.add("the plan run.json names");
      JsonNode run;
      try {
        run = Json.JSON.readTree(Files.readAllBytes(record));
      } catch (JacksonException | java.io.IOException e) {
        findings.add(new Finding(label + "/run.json", "", "not readable JSON: " + e.getMessage()));
        return new VerifyReport("run", label, null, checks, findings, notes);
      }
      String planPath = run.at("/plan/path").asString("");
      String planSha = run.at("/plan/sha256").asString("");
      if (planPath.isEmpty() || planSha.isEmpty()) {
        findings.add(new Finding(label + "/run.json", "/plan", "names no plan path and SHA-256"));
      } else {
        Path plan = Path.of(planPath).isAbsolute() ? Path.of(planPath)
            : dir.resolve(planPath).normalize();
        try {
          VerifyReport p = plans.verify(plan, planSha);
          findings.addAll(p.findings());
          p.notes().forEach(n -> notes.add("plan " + planPath + ": " + n));
        } catch (BenchplanException e) {
          findings.add(new Finding(label + "/run.json", "/plan/path", String.valueOf(e.getMessage())));
        }
      }
    } else {
      findings.add(new Finding(label, "run.json", "missing: a run directory records its run in"
          + " run.json"));
    }
    notes.add("the verdict was not recomputed from the kept artifacts (not built yet)");
    return new VerifyReport("run", label, null, checks, findings, notes);
  }
}
