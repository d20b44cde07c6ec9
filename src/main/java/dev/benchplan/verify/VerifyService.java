package dev.benchplan.verify;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code benchplan verify PATH}: a plan file, a DEPLOY_ROOT, a run directory (one holding {@code
 * run.json} or {@code artifacts.sha256}), or what analyze or compare wrote.
 */
public final class VerifyService {
  private final PlanVerifier plans;

  /**
   * @param replay how a plan is re-derived from its recorded invocation
   */
  public VerifyService(PlanReplay replay) {
    this.plans = new PlanVerifier(replay);
  }

  /**
   * Verifies {@code path}.
   *
   * @param sha256 the SHA-256 a plan file must have, or null
   * @throws BenchplanException (exit 2) for bad input: a missing path, a file that is not a JSON
   *     plan, a directory that is not a run directory, a malformed --sha256
   */
  public VerifyReport verify(Path path, String sha256) {
    if (Files.isDirectory(path)) {
      if (sha256 != null) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--sha256", path),
            "--sha256 applies to a plan file; " + path + " is a directory");
      }
      if (Files.isRegularFile(
          path.resolve(dev.benchplan.render.PlanRenderer.BENCHMARK_DIR)
              .resolve(dev.benchplan.render.RenderManifest.FILE))) {
        return new DeployRootVerifier(plans).verify(path);
      }
      if (AnalysisVerifier.isAnalysis(path)) {
        return AnalysisVerifier.analysis(path);
      }
      if (AnalysisVerifier.isComparison(path)) {
        return AnalysisVerifier.comparison(path);
      }
      if (Files.isRegularFile(path.resolve("run.json"))
          || Files.isRegularFile(path.resolve(ArtifactsManifest.NAME))) {
        return new RunDirVerifier(plans).verify(path);
      }
      throw BenchplanException.invalid(
          ErrorLocation.file(path),
          path
              + ": neither run.json nor "
              + ArtifactsManifest.NAME
              + " is here: expected a plan file, a DEPLOY_ROOT"
              + " (with benchmark/render-manifest.json), a run directory"
              + " (<DEPLOY_ROOT>/benchmark/runs/<run-id>/), or an analysis or comparison directory"
              + " (with performance_analysis.json or comparison.json)");
    }
    return plans.verify(path, sha256);
  }
}
