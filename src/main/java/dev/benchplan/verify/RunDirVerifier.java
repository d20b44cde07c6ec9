package dev.benchplan.verify;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.JsonInput;
import dev.benchplan.json.Sha256;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Verifies a run directory ({@code <DEPLOY_ROOT>/benchmark/runs/<run-id>/}): its {@code
 * artifacts.sha256} (AIPerf's tree) and run.json's {@code /artifacts/files} (the files run wrote
 * beside it) hold, no file is unaccounted for, the plan run.json names (path relative to
 * DEPLOY_ROOT + SHA-256) verifies, and the verdict recomputed from the kept summary and the plan's
 * gates equals the stored {@code verdict.json}.
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
    Path record = dir.resolve("run.json");
    JsonNode run = null;
    if (Files.isRegularFile(record)) {
      JsonInput.Parsed parsed;
      try {
        parsed = JsonInput.parse(Files.readAllBytes(record));
      } catch (java.io.IOException e) {
        findings.add(
            new Finding(label + "/run.json", "", "cannot read: " + InputErrors.describe(e)));
        return new VerifyReport("run", label, null, checks, findings, notes);
      }
      run = parsed.tree();
      if (run == null) {
        findings.add(
            new Finding(
                label + "/run.json", "", parsed.explain("the run record run wrote (run.json)")));
        return new VerifyReport("run", label, null, checks, findings, notes);
      }
    } else {
      findings.add(
          new Finding(
              label, "run.json", "missing: a run directory records its run in" + " run.json"));
    }
    Set<String> recordedFiles = new HashSet<>();
    if (run != null) {
      recordedFiles.add("run.json");
      checks.add("run.json /artifacts/files");
      JsonNode files = run.at("/artifacts/files");
      for (String name : files.propertyNames()) {
        recordedFiles.add(name);
        Path f = dir.resolve(name).normalize();
        String sha = files.get(name).asString("");
        if (!f.startsWith(dir.normalize()) || !Files.isRegularFile(f)) {
          findings.add(
              new Finding(
                  label + "/run.json",
                  "/artifacts/files/" + pointerToken(name),
                  name + " is listed but missing"));
        } else if (!Sha256.ofFile(f).equals(sha)) {
          findings.add(
              new Finding(
                  label + "/" + name,
                  "",
                  "SHA-256 is "
                      + Sha256.ofFile(f)
                      + ", run.json /artifacts/files lists "
                      + sha
                      + ": the file changed after collection"));
        }
      }
    }
    if (Files.isRegularFile(dir.resolve(ArtifactsManifest.NAME))) {
      checks.add(ArtifactsManifest.NAME);
      findings.addAll(ArtifactsManifest.check(dir, label, recordedFiles));
    } else {
      notes.add(
          "no "
              + ArtifactsManifest.NAME
              + ": AIPerf's tree was not checked (a run"
              + " that kept only the summary)");
    }
    if (run == null) {
      return new VerifyReport("run", label, null, checks, findings, notes);
    }
    syntheticLabel(dir, label, run, checks, findings);
    checks.add("the plan run.json names");
    String planPath = run.at("/plan/path").asString("");
    String planSha = run.at("/plan/sha256").asString("");
    Path plan = null;
    if (planPath.isEmpty() || planSha.isEmpty()) {
      findings.add(new Finding(label + "/run.json", "/plan", "names no plan path and SHA-256"));
    } else {
      plan = resolvePlan(dir, planPath);
      try {
        VerifyReport p = plans.verify(plan, planSha);
        findings.addAll(p.findings());
        p.notes().forEach(n -> notes.add("plan " + planPath + ": " + n));
      } catch (BenchplanException e) {
        findings.add(new Finding(label + "/run.json", "/plan/path", e.getMessage()));
      }
    }
    checks.add("verdict recomputed");
    VerdictRecomputation.check(dir, label, run, plan, findings, notes);
    return new VerifyReport("run", label, null, checks, findings, notes);
  }

  /**
   * A tree that says it is synthetic (a {@code SYNTHETIC.txt} in {@code aiperf/}) and run.json's
   * {@code /artifacts/synthetic} must agree: a label removed from either side is a finding.
   */
  private static void syntheticLabel(
      Path dir, String label, JsonNode run, List<String> checks, List<Finding> findings) {
    Path tree = dir.resolve("aiperf");
    String marker =
        Files.isDirectory(tree) ? dev.benchplan.artifacts.SyntheticMarker.label(tree) : null;
    JsonNode recorded = run.at("/artifacts/synthetic");
    if (marker == null && recorded.isMissingNode()) {
      return;
    }
    checks.add("synthetic label");
    if (marker == null) {
      findings.add(
          new Finding(
              label + "/run.json",
              "/artifacts/synthetic",
              "says the tree is synthetic, but aiperf/ holds no "
                  + dev.benchplan.artifacts.SyntheticMarker.NAME));
    } else if (!marker.equals(recorded.asString(""))) {
      findings.add(
          new Finding(
              label + "/run.json",
              "/artifacts/synthetic",
              "the tree's "
                  + dev.benchplan.artifacts.SyntheticMarker.NAME
                  + " says \""
                  + marker
                  + "\", run.json records "
                  + (recorded.isMissingNode()
                      ? "no synthetic label"
                      : "\"" + recorded.asString("") + "\"")));
    }
  }

  /**
   * run.json's plan path: relative to DEPLOY_ROOT (the run directory's {@code ../../..}), or
   * absolute in records written before paths were recorded relative.
   */
  static Path resolvePlan(Path runDir, String recorded) {
    Path p = Path.of(recorded);
    if (p.isAbsolute()) {
      return p;
    }
    Path abs = runDir.toAbsolutePath().normalize();
    Path deployRoot =
        abs.getParent() == null
                || abs.getParent().getParent() == null
                || abs.getParent().getParent().getParent() == null
            ? abs
            : abs.getParent().getParent().getParent();
    return deployRoot.resolve(recorded).normalize();
  }

  private static String pointerToken(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
