package dev.benchplan.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanPaths;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.CandidateBinding;
import dev.benchplan.runrecord.RunRecordDocument;
import dev.benchplan.workload.SmokeEvidence;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Plan's SMOKE_STALE rule applied again by {@code run} before anything is created: the smoke
 * evidence of the ledger the rendered files bind (their {@code benchplan.dev/ledger} and {@code
 * -sha256} annotations) must be younger than {@code --smoke-max-age} now.
 */
public final class RunSmokeAge {
  private RunSmokeAge() {}

  /**
   * Checks the bound ledger's smoke evidence; exit 2 when it is too old or the ledger render bound
   * has gone or changed (its age cannot be judged). Returns what run.json records, or null when
   * {@code check} is null (not asked for: validate deploys and proves readiness itself).
   *
   * @param file the rendered file the annotations come from (perf.yaml or aiperf-jobs.yaml)
   * @param ledger the ledger annotation (relative to DEPLOY_ROOT), or null in files rendered before
   *     it existed
   * @param ledgerSha256 its SHA-256 annotation, or null
   */
  public static RunRecordDocument.@Nullable SmokeAge check(
      VerifiedPlan plan,
      Path file,
      Path deployRoot,
      @Nullable String ledger,
      @Nullable String ledgerSha256,
      SmokeEvidence.@Nullable AgeCheck check) {
    if (check == null) {
      return null;
    }
    BenchmarkPlan.Deployment d = plan.plan().deployment();
    SmokeEvidence evidence;
    String where;
    if (ledgerSha256 == null || ledgerSha256.equals(d.ledgerSha256())) {
      // the plan's own ledger: the plan recorded its smoke evidence (verified by the plan's hash)
      BenchmarkPlan.SmokeTest s = d.smokeTest();
      if (s == null || !"smoke_artifact".equals(s.kind())) {
        return null;
      }
      evidence =
          new SmokeEvidence.Artifact(s.path(), s.sha256(), s.model(), s.url(), s.timestamp(), null);
      where = "run: plan " + plan.path() + " /deployment/smoke_test";
    } else {
      Path path = ledger == null ? null : PlanPaths.resolve(deployRoot, ledger);
      if (path == null || !Files.isRegularFile(path) || !ledgerSha256.equals(Sha256.ofFile(path))) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": the ledger it was rendered for ("
                + ledger
                + ", sha256 "
                + ledgerSha256
                + ") is "
                + (path == null || !Files.isRegularFile(path) ? "missing" : "changed")
                + ": its smoke evidence's age cannot be judged; expected that ledger, or re-render"
                + " with --ledger naming the candidate's current ledger; nothing created");
      }
      evidence = CandidateBinding.smokeOf(path, "ledger " + path);
      where = "run: ledger " + path;
    }
    Long age = check.requireFresh(evidence, where);
    String timestamp = evidence instanceof SmokeEvidence.Artifact a ? a.timestamp() : null;
    return new RunRecordDocument.SmokeAge(
        timestamp, age, check.maxAge().toSeconds(), check.now().toString());
  }
}
