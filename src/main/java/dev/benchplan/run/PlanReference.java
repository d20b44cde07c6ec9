package dev.benchplan.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.render.JobContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The plan a perf.yaml was rendered from, found through the Job's {@code benchplan.dev/plan-path}
 * annotation and verified by {@link PlanFile} against {@code benchplan.dev/plan-sha256}: a run
 * never executes a manifest whose plan changed, vanished or breaks the plan schema.
 *
 * @param verified the plan file, its SHA-256 (equal to the annotation) and the typed plan
 */
public record PlanReference(VerifiedPlan verified) {
  public PlanReference {
    Objects.requireNonNull(verified, "verified");
  }

  /** Finds and verifies the plan named by perf.yaml (exit 2 when missing, changed or invalid). */
  public static PlanReference verify(PerfYaml perf) {
    return verify(
        perf.file(),
        perf.deployRoot(),
        perf.annotation(JobContract.PLAN_PATH),
        perf.annotation(JobContract.PLAN_SHA256));
  }

  /**
   * Finds and verifies the plan a rendered {@code file} of DEPLOY_ROOT {@code deployRoot} names in
   * its annotations (a relative path is DEPLOY_ROOT's; older renders named it absolutely): exit 2
   * when an annotation is missing, or the plan is missing, changed or invalid.
   */
  public static PlanReference verify(
      Path file, Path deployRoot, @Nullable String recorded, @Nullable String sha256) {
    if (recorded == null || sha256 == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/metadata/annotations"),
          file
              + ": /metadata/annotations: "
              + JobContract.PLAN_PATH
              + " and "
              + JobContract.PLAN_SHA256
              + " are required: expected what benchplan render wrote");
    }
    Path given = Path.of(recorded);
    Path path = given.isAbsolute() ? given : deployRoot.resolve(recorded).normalize();
    if (!Files.exists(path)) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file
              + ": the plan it was rendered from is missing: "
              + path
              + " (annotation "
              + JobContract.PLAN_PATH
              + ")");
    }
    return new PlanReference(
        PlanFile.verify(
            path,
            sha256,
            "recorded in "
                + file
                + " as "
                + JobContract.PLAN_SHA256
                + "; re-render from the"
                + " plan you mean to run"));
  }

  /** The plan file. */
  public Path path() {
    return verified.path();
  }

  /** Its SHA-256. */
  public String sha256() {
    return verified.sha256();
  }

  private BenchmarkPlan plan() {
    return verified.plan();
  }

  /** The AIPerf version the series pins ({@code /aiperf/version}). */
  public String aiperfVersion() {
    return plan().aiperf().version();
  }

  /** The AIPerf image the plan names ({@code /aiperf/image}). */
  public String aiperfImage() {
    return plan().aiperf().image();
  }

  /** {@code /series_id}. */
  public String seriesId() {
    return plan().seriesId();
  }

  /** {@code /plan_id}. */
  public String planId() {
    return plan().planId();
  }

  /** {@code /objectives/gates}. */
  public List<BenchmarkPlan.Gate> gates() {
    return plan().objectives().gates();
  }
}
