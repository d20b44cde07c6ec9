package dev.benchplan.validate;

import dev.benchplan.progress.ProgressSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * Plans, renders and runs the benchmark against a target and gates it, in three calls so that the
 * plan and the rendered Job exist (and any problem with them is found) before validate deploys
 * anything. Each call throws {@link dev.benchplan.error.BenchplanException} on failure; validate
 * records the step.
 */
public interface BenchmarkRunner {
  /** Writes the series plan (under the request's work folder) for the target and load. */
  PlannedBenchmark plan(BenchmarkRequest request);

  /** Renders the plan into the AIPerf config and the Job manifest (files only). */
  RenderedBenchmark render(BenchmarkRequest request, PlannedBenchmark plan);

  /**
   * Applies the rendered objects (recording each in the ledger before creating it), waits for the
   * Job, collects the evidence and gates it.
   */
  BenchmarkOutcome run(
      BenchmarkRequest request,
      PlannedBenchmark plan,
      RenderedBenchmark rendered,
      ProgressSink progress);

  /**
   * Called from validate's Ctrl-C handler before its own cleanup: stop what {@link #run} started.
   */
  default void interrupt() {}

  /**
   * What to benchmark and how.
   *
   * @param run the validate run
   * @param options the validate options (context, AIPerf pin, timeouts, keep)
   * @param target the endpoint (for the default deployment: as it will be once ready)
   * @param shape the load
   * @param constraints the constraints to gate on
   * @param dgdDocument the DGD measured: as read from the cluster, or the manifest validate deploys
   * @param gpuType the GPU model for the record ({@code nvidia.com/gpu.product} label, or {@code
   *     unknown})
   * @param workDir the run's evidence folder under --report-dir
   * @param ledger the created-objects ledger
   * @param inputs the resolved inputs and their sources (recorded with the plan), or null
   */
  record BenchmarkRequest(
      ValidateRun run,
      ValidateOptions options,
      FrontendTarget target,
      BenchmarkShape shape,
      PerformanceRequest constraints,
      ObjectNode dgdDocument,
      String gpuType,
      Path workDir,
      CreatedObjects ledger,
      ValidateInputs inputs) {
    public BenchmarkRequest {
      Objects.requireNonNull(run, "run");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(shape, "shape");
      Objects.requireNonNull(workDir, "workDir");
      Objects.requireNonNull(ledger, "ledger");
    }
  }

  /**
   * The written plan.
   *
   * @param planPath the plan file
   * @param planSha256 its SHA-256
   * @param seriesId its series ID
   * @param aiperfVersion the AIPerf version it pins
   * @param aiperfResolution how that version was chosen (operator_pin, package_index, ...)
   */
  record PlannedBenchmark(
      Path planPath,
      String planSha256,
      String seriesId,
      String aiperfVersion,
      String aiperfResolution) {}

  /**
   * The rendered files and the objects the run will create.
   *
   * @param deployRoot the render output root
   * @param perfYaml the Job manifest
   * @param perfYamlSha256 its SHA-256
   * @param jobName the AIPerf Job's name
   * @param namespace where the Job runs
   * @param runId render's run ID
   * @param objects the ConfigMaps and the Job of perf.yaml, in creation order
   */
  record RenderedBenchmark(
      Path deployRoot,
      Path perfYaml,
      String perfYamlSha256,
      String jobName,
      String namespace,
      String runId,
      List<CreatedObject> objects) {
    public RenderedBenchmark {
      objects = List.copyOf(objects);
    }
  }
}
