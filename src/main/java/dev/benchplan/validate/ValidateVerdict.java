package dev.benchplan.validate;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * validate's {@code verdict.json} (schemas/validate-verdict.schema.json), as typed values; Jackson
 * writes it only at the file edge ({@link ValidateReports}). {@link ValidateVerdictBuilder} builds
 * it. Its constraints are the gate's results (or the requested constraints marked {@code not_run}),
 * and its CTRF and JUnit reports are the gate's writers' output on the same verdict.
 *
 * @param schemaVersion always {@code "1"}
 * @param check AICR's check name, {@value ValidateReports#TEST_NAME}
 * @param verdict pass, fail, skip or error (the gate's statuses)
 * @param exitCode the process exit code
 * @param reason one line saying why
 * @param failedStep the step that failed, or null
 * @param runId the validate run ID
 * @param startedAt ISO-8601 instant
 * @param finishedAt ISO-8601 instant
 * @param steps each step in order
 * @param cluster context and server, once connected
 * @param constraintsSource where the constraints came from
 * @param constraints the constraints and their results
 * @param measured the two AICR measurements, once the benchmark ran
 * @param discovery what discovery saw and decided
 * @param deployment the auto-deployed DGD
 * @param target the frontend measured
 * @param benchmark the load and the pipeline's artifacts
 * @param cleanup what was created and removed
 * @param findings what the diagnostics found in the run's records and AIPerf's log (stalled worker,
 *     client bound), once the benchmark ran
 * @param repeats {@code --repeats} above 1: each repeat's figures and whether they disagree
 * @param inputs every resolved input (model, load, routing, cache class, runtime image, AICR's load
 *     figures) with its value and source
 * @param warnings what the run should tell the user (ignored constraint names, thresholds judged
 *     with other inputs than AICR calibrated them for, a runtime older than the platform)
 * @param gpus the GPUs the load and the per-GPU figures rest on
 * @param floorScaling the throughput floor's scaling on a partly occupied node, or null
 * @param reports the report files written
 * @param isolationSkipped the isolation checks the user's permissions did not allow (each a 403
 *     that degrades to "not verified"): the table row, the permission missing and what went
 *     unchecked; absent when every isolation permission was granted or none was asked yet
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ValidateVerdict(
    String schemaVersion,
    String check,
    @Nullable String verdict,
    @Nullable Integer exitCode,
    @Nullable String reason,
    @Nullable String failedStep,
    String runId,
    String startedAt,
    @Nullable String finishedAt,
    List<Step> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String cluster,
    @Nullable ConstraintsSource constraintsSource,
    List<ConstraintLine> constraints,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Measured measured,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Discovery discovery,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Deployment deployment,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Target target,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Benchmark benchmark,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Cleanup cleanup,
    @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable List<dev.benchplan.diagnostics.FindingLine> findings,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Repeats repeats,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, ResolvedInput> inputs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> warnings,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Gpus gpus,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable FloorScaling floorScaling,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Reports reports,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<SkippedCheck> isolationSkipped) {
  /** The document's schema version. */
  public static final String SCHEMA_VERSION = "1";

  public ValidateVerdict {
    steps = List.copyOf(steps);
    constraints = List.copyOf(constraints);
    inputs =
        inputs == null
            ? null
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(inputs));
    warnings = warnings == null ? null : List.copyOf(warnings);
    isolationSkipped =
        isolationSkipped == null || isolationSkipped.isEmpty()
            ? null
            : List.copyOf(isolationSkipped);
  }

  /**
   * {@code --repeats}: the gate took the median of each gated metric over {@code count}
   * measurements.
   *
   * @param count the repeats measured
   * @param mechanism how: one AIPerf Job per repeat
   * @param unstable the repeats disagree on a gate
   * @param disagreements which gate, who passed and who failed
   * @param runs each repeat with its verdict and figures
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Repeats(
      int count,
      String mechanism,
      boolean unstable,
      List<String> disagreements,
      List<Repeat> runs) {}

  /** One repeat: its label, its own verdict and what it measured for each constraint. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Repeat(
      String run, String verdict, String message, List<ConstraintLine> constraints) {}

  /** One step: its ID, {@code ok} or {@code failed}, seconds taken, its bound, and a detail. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Step(
      String step,
      String status,
      double elapsedS,
      @Nullable Long boundS,
      @Nullable String detail) {}

  /** Where the constraints came from and the checks the overlay lists. */
  public record ConstraintsSource(String source, List<String> checks) {
    public ConstraintsSource {
      checks = List.copyOf(checks);
    }
  }

  /**
   * One constraint: the gate's result ({@code pass}, {@code fail}, {@code error}) or, when the
   * benchmark did not run, {@code not_run}. Thresholds and measurements are in {@code unit}.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ConstraintLine(
      String name,
      String metric,
      String stat,
      String operator,
      BigDecimal threshold,
      BigDecimal tolerance,
      BigDecimal effectiveThreshold,
      @Nullable BigDecimal measured,
      String unit,
      String status,
      @Nullable String message) {}

  /**
   * The two AICR measurements (null when not measured) and the output throughput per GPU (null when
   * the GPU count is unknown, e.g. GPUs from DRA claims).
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Measured(
      @Nullable BigDecimal outputTokenThroughput,
      String outputTokenThroughputUnit,
      @Nullable BigDecimal timeToFirstTokenP99,
      String timeToFirstTokenP99Unit,
      @Nullable BigDecimal outputTokenThroughputPerGpu,
      @Nullable Integer gpuCount,
      String gpuCountSource) {}

  /**
   * The GPUs behind the target: their count (null when it has no per-GPU figure), where the count
   * came from, and why there is none.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Gpus(@Nullable Integer count, String source, @Nullable String note) {}

  /** AICR's scaling of the throughput floor on a partly occupied node: floor x free / node GPUs. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record FloorScaling(
      String node,
      long freeGpus,
      long nodeGpus,
      BigDecimal factor,
      BigDecimal floor,
      BigDecimal scaledFloor) {}

  /** Discovery: the scope searched, every DGD seen, the decision and why. */
  public record Discovery(String scope, String decision, String reason, List<Seen> seen) {
    public Discovery {
      seen = List.copyOf(seen);
    }
  }

  /** One DGD discovery saw. */
  public record Seen(
      @Nullable String namespace,
      String dgd,
      @Nullable String state,
      @Nullable String service,
      @Nullable Integer port,
      List<String> models,
      boolean usable,
      List<String> problems) {}

  /** The DGD validate deployed. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Deployment(
      String node,
      int freeGpus,
      int workers,
      String namespace,
      String dgd,
      String apiVersion,
      String model,
      String image,
      List<String> nodesConsidered,
      List<String> toleratedTaints,
      String routerMode,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable ModelCacheLine modelCache) {}

  /** The default deployment's model cache: PVC, class and where the class came from, size. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ModelCacheLine(
      String claim,
      String storageClass,
      String storageClassSource,
      @Nullable String size,
      String mountPath,
      boolean readOnly,
      boolean offline) {}

  /** The frontend measured. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Target(
      String origin,
      String namespace,
      String dgd,
      @Nullable String dgdUid,
      @Nullable String apiVersion,
      String service,
      int port,
      String matchedBy,
      String endpointUrl,
      String model,
      String modelSource,
      int workers,
      @Nullable String node) {}

  /** The load and, as far as the pipeline got, its plan, render and run. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Benchmark(
      int workers,
      @Nullable Integer concurrencyPerWorker,
      @Nullable Integer concurrencyPerGpu,
      @Nullable Integer gpus,
      String concurrencyBasis,
      int concurrency,
      int requestCount,
      int warmupRequests,
      int isl,
      int osl,
      int islStddev,
      int oslStddev,
      boolean ignoreEos,
      boolean streaming,
      String endpointType,
      int datasetEntries,
      long seed,
      BigDecimal temperature,
      int measurementLimitS,
      @Nullable String aiperfVersion,
      @Nullable String aiperfResolution,
      @Nullable String seriesId,
      @Nullable String planPath,
      @Nullable String planSha256,
      @Nullable String deployRoot,
      @Nullable String perfYaml,
      @Nullable String perfYamlSha256,
      @Nullable String job,
      @Nullable String renderRunId,
      @Nullable String runDir) {}

  /** What validate created and what cleanup did (absent lists: cleanup did not run). */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Cleanup(
      boolean kept,
      List<String> created,
      @Nullable List<String> deleted,
      @Nullable List<String> alreadyGone,
      @Nullable List<String> leftAlone,
      @Nullable List<String> problems) {}

  /**
   * An isolation check skipped for want of permission: the result is "isolation not verified" for
   * what it covers, never an error.
   *
   * @param row the Kubernetes call table row (kube/KubeCall) whose permission is missing
   * @param permission the missing permission ({@code verb resource[.group] in ...})
   * @param check the step it serves and what a 403 leaves unchecked
   * @param canI the {@code kubectl auth can-i} line that asks for it
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record SkippedCheck(String row, String permission, String check, String canI) {}

  /** The three report files. */
  public record Reports(String verdict, String ctrf, String junit) {}
}
