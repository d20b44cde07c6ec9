package dev.benchplan.verify;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Sha256;
import dev.benchplan.runrecord.RunRecordDocument;
import dev.benchplan.runrecord.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    Path record = dir.resolve(RunRecordReader.FILE_NAME);
    RunRecordDocument run = null;
    if (Files.isRegularFile(record)) {
      RunRecordReader.Checked checked;
      try {
        checked = RunRecordReader.check(Files.readAllBytes(record), record);
      } catch (java.io.IOException e) {
        findings.add(
            new Finding(label + "/run.json", "", "cannot read: " + InputErrors.describe(e)));
        return new VerifyReport("run", label, null, checks, findings, notes);
      }
      run = checked.record();
      if (run == null) {
        findings.add(new Finding(label + "/run.json", checked.pointer(), checked.problem()));
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
      for (Map.Entry<String, String> e : run.artifacts().files().entrySet()) {
        String name = e.getKey();
        String sha = e.getValue();
        recordedFiles.add(name);
        Path f = dir.resolve(name).normalize();
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
    String planPath = run.plan().path();
    Path plan = resolvePlan(dir, planPath);
    try {
      VerifyReport p = plans.verify(plan, run.plan().sha256());
      findings.addAll(p.findings());
      p.notes().forEach(n -> notes.add("plan " + planPath + ": " + n));
    } catch (BenchplanException e) {
      findings.add(new Finding(label + "/run.json", "/plan/path", e.getMessage()));
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
      Path dir, String label, RunRecordDocument run, List<String> checks, List<Finding> findings) {
    Path tree = dir.resolve("aiperf");
    String marker =
        Files.isDirectory(tree) ? dev.benchplan.artifacts.SyntheticMarker.label(tree) : null;
    String recorded = run.artifacts().synthetic();
    if (marker == null && recorded == null) {
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
    } else if (!marker.equals(recorded)) {
      findings.add(
          new Finding(
              label + "/run.json",
              "/artifacts/synthetic",
              "the tree's "
                  + dev.benchplan.artifacts.SyntheticMarker.NAME
                  + " says \""
                  + marker
                  + "\", run.json records "
                  + (recorded == null ? "no synthetic label" : "\"" + recorded + "\"")));
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
