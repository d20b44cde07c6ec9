package dev.benchplan.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.benchplan.rules.Decision;
import dev.benchplan.rules.GateTolerance;
import dev.benchplan.workload.GpuAllocation;
import dev.benchplan.workload.MetricCatalog;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A series plan as written to {@code <EXP_ROOT>/inputs/benchmark-plans/<series-id>.json} (schema:
 * {@code schemas/benchmark-plan.schema.json}). Serialized with snake_case names by {@link
 * PlanJson}; nothing in it is ever changed after it is written.
 */
public record BenchmarkPlan(
    String schemaVersion,
    String planId,
    String seriesId,
    String createdAt,
    Question question,
    UserWorkloadRef userWorkload,
    Deployment deployment,
    Workload workload,
    Experiment experiment,
    List<SampleBasis> samples,
    RunPolicy runPolicy,
    Endpoint endpoint,
    Objectives objectives,
    Aiperf aiperf,
    List<Decision> rulesApplied,
    @Nullable List<String> warnings,
    @Nullable List<String> seriesIdentity,
    @Nullable Provenance provenance,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable LoadGenerator loadGenerator) {

  /** The plan format version. */
  public static final String SCHEMA_VERSION = "1.0";

  /** A builder with {@link #SCHEMA_VERSION} set: every other field is set once, by name. */
  public static Builder builder() {
    return new Builder().schemaVersion(SCHEMA_VERSION);
  }

  /** A builder holding this plan's fields, to change some of them by name. */
  public Builder toBuilder() {
    return new Builder()
        .schemaVersion(schemaVersion)
        .planId(planId)
        .seriesId(seriesId)
        .createdAt(createdAt)
        .question(question)
        .userWorkload(userWorkload)
        .deployment(deployment)
        .workload(workload)
        .experiment(experiment)
        .samples(samples)
        .runPolicy(runPolicy)
        .endpoint(endpoint)
        .objectives(objectives)
        .aiperf(aiperf)
        .rulesApplied(rulesApplied)
        .warnings(warnings)
        .seriesIdentity(seriesIdentity)
        .provenance(provenance)
        .loadGenerator(loadGenerator);
  }

  /** The same plan with another ID (the ID is derived from the rest of the content). */
  public BenchmarkPlan withPlanId(String id) {
    return toBuilder().planId(id).build();
  }

  /** Builds a {@link BenchmarkPlan} field by field, by name. */
  public static final class Builder {
    private @Nullable String schemaVersion;
    private @Nullable String planId;
    private @Nullable String seriesId;
    private @Nullable String createdAt;
    private @Nullable Question question;
    private @Nullable UserWorkloadRef userWorkload;
    private @Nullable Deployment deployment;
    private @Nullable Workload workload;
    private @Nullable Experiment experiment;
    private @Nullable List<SampleBasis> samples;
    private @Nullable RunPolicy runPolicy;
    private @Nullable Endpoint endpoint;
    private @Nullable Objectives objectives;
    private @Nullable Aiperf aiperf;
    private @Nullable LoadGenerator loadGenerator;
    private @Nullable List<Decision> rulesApplied;
    private @Nullable List<String> warnings;
    private @Nullable List<String> seriesIdentity;
    private @Nullable Provenance provenance;

    private Builder() {}

    public Builder schemaVersion(@Nullable String v) {
      schemaVersion = v;
      return this;
    }

    public Builder planId(@Nullable String v) {
      planId = v;
      return this;
    }

    public Builder seriesId(@Nullable String v) {
      seriesId = v;
      return this;
    }

    public Builder createdAt(@Nullable String v) {
      createdAt = v;
      return this;
    }

    public Builder question(@Nullable Question v) {
      question = v;
      return this;
    }

    public Builder userWorkload(@Nullable UserWorkloadRef v) {
      userWorkload = v;
      return this;
    }

    public Builder deployment(@Nullable Deployment v) {
      deployment = v;
      return this;
    }

    public Builder workload(@Nullable Workload v) {
      workload = v;
      return this;
    }

    public Builder experiment(@Nullable Experiment v) {
      experiment = v;
      return this;
    }

    public Builder samples(@Nullable List<SampleBasis> v) {
      samples = v;
      return this;
    }

    public Builder runPolicy(@Nullable RunPolicy v) {
      runPolicy = v;
      return this;
    }

    public Builder endpoint(@Nullable Endpoint v) {
      endpoint = v;
      return this;
    }

    public Builder objectives(@Nullable Objectives v) {
      objectives = v;
      return this;
    }

    public Builder loadGenerator(@Nullable LoadGenerator v) {
      loadGenerator = v;
      return this;
    }

    public Builder aiperf(@Nullable Aiperf v) {
      aiperf = v;
      return this;
    }

    public Builder rulesApplied(@Nullable List<Decision> v) {
      rulesApplied = v;
      return this;
    }

    public Builder warnings(@Nullable List<String> v) {
      warnings = v;
      return this;
    }

    public Builder seriesIdentity(@Nullable List<String> v) {
      seriesIdentity = v;
      return this;
    }

    public Builder provenance(@Nullable Provenance v) {
      provenance = v;
      return this;
    }

    public BenchmarkPlan build() {
      return new BenchmarkPlan(
          required(schemaVersion, "schema_version"),
          required(planId, "plan_id"),
          required(seriesId, "series_id"),
          required(createdAt, "created_at"),
          required(question, "question"),
          required(userWorkload, "user_workload"),
          required(deployment, "deployment"),
          required(workload, "workload"),
          required(experiment, "experiment"),
          required(samples, "samples"),
          required(runPolicy, "run_policy"),
          required(endpoint, "endpoint"),
          required(objectives, "objectives"),
          required(aiperf, "aiperf"),
          required(rulesApplied, "rules_applied"),
          warnings,
          seriesIdentity,
          provenance,
          loadGenerator);
    }

    /** The schema requires the field; a plan without it is a programming error, not bad input. */
    private static <T> T required(@Nullable T value, String field) {
      return Objects.requireNonNull(value, () -> "benchmark plan field " + field + " not set");
    }
  }

  /** The user workload the plan was made from. */
  public record UserWorkloadRef(
      String path,
      String sha256,
      String profileName,
      String profileType,
      @Nullable String modelSource,
      @Nullable String modelRevision,
      @Nullable String origin) {}

  /** The deployed candidate (from the ledger). */
  public record Deployment(
      String ledgerPath,
      String ledgerSha256,
      String dgdName,
      String kubeContext,
      String namespace,
      String dgdPath,
      String dgdSha256,
      String frontendService,
      int frontendPort,
      String endpointUrl,
      String servedModel,
      String tokenizer,
      List<GpuAllocation> gpus,
      int gpuTotal,
      @Nullable Long maxContextLength,
      SmokeTest smokeTest,
      List<String> secrets) {}

  /**
   * The smoke evidence. For {@code kind: in_cluster_readiness} the path names the declaration and
   * sha256 is the SHA-256 of the canonical JSON of {@code readiness}. {@code age_s} (seconds from
   * the artifact's timestamp to the plan's creation) and {@code target} (what the smoke test
   * reached, against the in-cluster endpoint) are its provenance, checked by {@link
   * dev.benchplan.workload.SmokeEvidence#provenance}.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SmokeTest(
      String kind,
      String path,
      String sha256,
      boolean success,
      @Nullable String model,
      @Nullable String url,
      @Nullable String timestamp,
      @Nullable Map<String, String> readiness,
      @Nullable Long ageS,
      @Nullable String target) {}

  /** What is sent: the source and its trace, synthetic shape or proxy. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Workload(
      String source,
      String selectionRationale,
      @Nullable String traceOrigin,
      @Nullable Trace trace,
      @Nullable Synthetic synthetic,
      @Nullable Proxy proxy,
      List<Transformation> transformations) {}

  /**
   * The selected trace: the full {@code trace inspect --format json} report, plus {@code window}
   * (null without an explicit replay window).
   *
   * @param path the trace as named (absolute, or relative to the plan file's folder)
   */
  public record Trace(
      String path,
      String sha256,
      long bytes,
      long rows,
      long blankLines,
      TimestampStats timestampMs,
      LengthStats inputLength,
      LengthStats outputLength,
      HashBlockStats hashIds,
      ContextStats context,
      TraceWindowRows window,
      boolean valid,
      long problemsTotal,
      List<TraceProblem> problems) {}

  /** Timestamps of the rows that have one (min, max and span null when none has). */
  public record TimestampStats(
      long presentRows, Long min, Long max, Long span, long nonMonotonicRows) {}

  /** A token-length distribution (statistics null when {@code count} is 0). */
  public record LengthStats(
      long count, Long min, Long max, Double mean, Long p50, Long p90, Long p95, Long p99) {}

  /** Prefix reuse by hash block. */
  public record HashBlockStats(
      int blockSize,
      long rowsWithHashIds,
      long uniqueBlocks,
      long blockRuleViolations,
      Double infiniteCacheHitRate,
      long hashedTokens,
      long hitTokens) {}

  /** Rows whose input + output exceed the served context (never dropped). */
  public record ContextStats(Long limit, long rowsOverLimit, List<Long> firstOverLimitLines) {}

  /**
   * An explicit inclusive replay window in trace milliseconds, and the figures of the rows inside
   * it from the same scan (those are what the replay sends; the whole-trace figures stay beside).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record TraceWindowRows(
      Long startMs,
      Long endMs,
      long rows,
      Long firstMs,
      Long lastMs,
      Long spanMs,
      Double requestsPerS,
      LengthStats inputLength,
      LengthStats outputLength,
      ContextStats context) {}

  /** One invalid-row problem of the trace. */
  public record TraceProblem(long line, String field, String message) {}

  /**
   * An exact synthetic request shape.
   *
   * @param datasetEntries synthetic prompts generated, or null for one per request (and warmup)
   * @param temperature the sampling temperature sent, or null for the server's default
   */
  public record Synthetic(
      int isl,
      int osl,
      int islStddev,
      int oslStddev,
      boolean ignoreEos,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Integer datasetEntries,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable BigDecimal temperature) {
    public Synthetic(int isl, int osl, int islStddev, int oslStddev, boolean ignoreEos) {
      this(isl, osl, islStddev, oslStddev, ignoreEos, null, null);
    }
  }

  /** The recipe a proxy workload comes from, why, and how it differs from the user's traffic. */
  public record Proxy(
      String recipe,
      String rationale,
      List<String> mismatches,
      String model,
      String framework,
      int isl,
      int osl,
      int concurrencyPerGpu,
      int recipeGpus,
      String origin) {}

  /** A recorded change of the user's workload (e.g. an explicit replay window). */
  public record Transformation(
      String type, String reason, Long startMs, Long endMs, Long rowsKept, Long rowsTotal) {}

  /**
   * The load and its bounds.
   *
   * @param warmupRequests the largest warmup of any point (the one value of plans before per-point
   *     warmup)
   * @param warmupRequestsPerPoint warmup requests of each load point, in the order of the points
   *     (null for a replay, and in plans written before per-point warmup)
   * @param runEstimate the estimated length of the longest measured run and its basis, or null
   */
  public record Experiment(
      String type,
      String measurementMode,
      @Nullable List<Integer> concurrency,
      @Nullable List<BigDecimal> requestRate,
      @Nullable String arrivalPattern,
      @Nullable Long requestCount,
      int warmupRequests,
      @Nullable Long durationS,
      int measurementLimitS,
      Integer requestTimeoutS,
      long seed,
      String limitControl,
      int loadPoints,
      Grid grid,
      @Nullable Long expectedMeasuredRequests,
      @Nullable List<Integer> warmupRequestsPerPoint,
      @Nullable RunEstimate runEstimate) {
    /**
     * The warmup requests of the load point at {@code index}: its own when the plan records
     * per-point warmup, else the plan's one value.
     */
    public int warmupAt(int index) {
      return warmupRequestsPerPoint == null || index < 0 || index >= warmupRequestsPerPoint.size()
          ? warmupRequests
          : warmupRequestsPerPoint.get(index);
    }

    /**
     * The warmup requests of the load point with this concurrency (a closed-loop plan) or rate (an
     * open-loop plan): what render gives that point's warmup phase and the audit expects to find
     * there; the plan's one value when the point is not one of the plan's.
     */
    public int warmupAtLoad(@Nullable Integer pointConcurrency, @Nullable BigDecimal pointRate) {
      int index = -1;
      if (pointConcurrency != null && concurrency != null) {
        index = concurrency.indexOf(pointConcurrency);
      }
      if (index < 0 && pointRate != null && requestRate != null) {
        for (int i = 0; i < requestRate.size() && index < 0; i++) {
          if (requestRate.get(i).compareTo(pointRate) == 0) {
            index = i;
          }
        }
      }
      return warmupAt(index);
    }
  }

  /**
   * How long the longest measured run of the plan is expected to take (agent-docs/rules/
   * benchmarking/measurement-limit.md), by {@link RunLengthEstimator}.
   *
   * @param seconds the estimate in seconds (a lower bound), or null when nothing to estimate from
   * @param loadPoint the load point it is for, or null
   * @param requestMs the least time of one request in ms, or null
   * @param basis the measurements and arithmetic it rests on
   */
  public record RunEstimate(
      @Nullable BigDecimal seconds,
      @Nullable String loadPoint,
      @Nullable BigDecimal requestMs,
      String basis) {}

  /** Where the load points came from. */
  public record Grid(String axis, String origin, @Nullable BigDecimal declaredMax, String reason) {}

  /** How many measured requests a gated percentile rests on (per load point and run). */
  public record SampleBasis(
      String gate,
      String metric,
      String stat,
      BigDecimal percentile,
      long measuredRequests,
      BigDecimal requestsBeyondPercentile) {}

  /**
   * How many measured runs, and why; {@code decisionSource} names the analysis's repeat decision
   * that pre-authorized a pilot ({@code plan --repeat-decision}), absent otherwise.
   */
  public record RunPolicy(
      int repetitions,
      String repeatDecision,
      @Nullable String repeatRationale,
      boolean pilot,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable DecisionSource decisionSource) {
    public RunPolicy(
        int repetitions, String repeatDecision, @Nullable String repeatRationale, boolean pilot) {
      this(repetitions, repeatDecision, repeatRationale, pilot, null);
    }
  }

  /**
   * The repeat decision a pilot plan was made from.
   *
   * @param path the decision file, relative to the experiment root
   * @param sha256 its SHA-256
   * @param seriesId the series it decided for (the pilot measures that series' noise floor)
   * @param planSha256 SHA-256 of that series' plan, as the decision names it
   * @param analysisSha256 SHA-256 of the analysis the decision came from
   * @param loadPoint the load point the decision names for the pilot
   */
  public record DecisionSource(
      String path,
      String sha256,
      String seriesId,
      String planSha256,
      String analysisSha256,
      String loadPoint) {}

  /** The API called. */
  public record Endpoint(String type, String path, boolean streaming) {}

  /** Gates, goodput thresholds and the optimization direction. */
  public record Objectives(
      List<Gate> gates,
      @Nullable Map<String, BigDecimal> goodput,
      boolean pareto,
      List<SloRecord> slos,
      String direction) {}

  /**
   * One pass/fail constraint on an AIPerf summary statistic.
   *
   * @param tolerance relative slack on the threshold (0 unless the workload sets one); null in a
   *     plan written before gates recorded it (judged with {@link GateTolerance#LEGACY_PLAN})
   */
  public record Gate(
      String name,
      String metric,
      String stat,
      String operator,
      BigDecimal threshold,
      String unit,
      String source,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable BigDecimal tolerance) {
    /** The tolerance this gate is judged with: its own, or an older plan's 10%. */
    public BigDecimal appliedTolerance() {
      if (MetricCatalog.ERROR_RATE.equals(metric)) {
        return BigDecimal.ZERO; // the gate's maximum error rate: never widened
      }
      return tolerance == null ? GateTolerance.LEGACY_PLAN : tolerance;
    }

    /** The threshold after {@link #appliedTolerance()}. */
    public BigDecimal effectiveThreshold() {
      return GateTolerance.effective(">=".equals(operator), threshold, appliedTolerance());
    }
  }

  /** A user SLO as written, with where it came from. */
  public record SloRecord(
      String metric,
      String stat,
      String operator,
      BigDecimal threshold,
      String unit,
      String source) {}

  /** The AIPerf runtime. */
  public record Aiperf(String version, String image, Resolution resolution) {}

  /** How the AIPerf version was found. */
  public record Resolution(
      String mechanism,
      @Nullable String query,
      @Nullable String outputSha256,
      List<String> versionsSeen,
      List<ExcludedVersion> excluded,
      String date,
      @Nullable String sourceCommit,
      String note) {}

  /**
   * What made the plan and what a reviewer should see at once; no field of it is series identity or
   * an input of the series hash.
   *
   * @param anchors named folders recorded paths are relative to: {@code exp_root}, written relative
   *     to the plan's own folder ({@code ../..})
   * @param benchplan the tool that wrote the plan
   * @param clock where created_at came from: SOURCE_DATE_EPOCH, system_clock or caller_clock
   * @param invocation the command line, paths relative to exp_root, secrets removed (null for a
   *     plan built in code)
   * @param bundledExamples inputs that are benchplan's own bundled examples (by content)
   * @param modelRevisionPinned whether user_workload.model_revision is given
   * @param aiperfImagePinning how the AIPerf image is pinned: {@code tag} or {@code digest}
   */
  public record Provenance(
      Map<String, String> anchors,
      Tool benchplan,
      String clock,
      @Nullable Invocation invocation,
      List<BundledInput> bundledExamples,
      boolean modelRevisionPinned,
      String aiperfImagePinning) {}

  /** An input recognised by content as one of benchplan's bundled examples. */
  public record BundledInput(String pointer, String example) {}

  /** benchplan's version and git commit. */
  public record Tool(String version, String commit) {}

  /** A command and its arguments. */
  public record Invocation(String command, List<String> arguments) {}

  /** A listed version that was not a candidate, and why. */
  public record ExcludedVersion(String version, String reason) {}

  /**
   * How the load is generated (agent-docs/rules/benchmarking/load-generator.md): the engine {@code
   * plan} chose and AIPerf's sizing at every load point. Null in plans written before the rule;
   * such plans render as {@code job}.
   *
   * @param engine {@code job} (one pod running AIPerf) or {@code aiperf-operator} (AIPerf's own
   *     operator: one AIPerfJob per measured run)
   * @param requested what {@code plan --engine} asked for: {@code auto}, {@code job} or {@code
   *     aiperf-operator}
   * @param reason why this engine, in the user's terms
   * @param points AIPerf's sizing at each load point, in the order of the points
   */
  public record LoadGenerator(
      String engine, String requested, String reason, List<PointSizing> points) {
    /** The plain Kubernetes Job engine. */
    public static final String JOB = "job";

    /** AIPerf's own Kubernetes operator (AIPerfJob). */
    public static final String AIPERF_OPERATOR = "aiperf-operator";
  }

  /**
   * AIPerf's size at one load point: {@code benchmark.runtime.workers} and the pod's requests.
   *
   * @param loadPoint the load point as the plan names it (e.g. {@code concurrency=16})
   * @param workers AIPerf worker processes (ceil(C / 100) closed loop, ceil(rate / 50) open loop)
   * @param cpuCores CPU request in cores (ceil(0.4 x workers) + 1)
   * @param memoryMib memory request in MiB (2048 + 256 x workers)
   * @param connectionsPerWorker connections each worker opens (the operator engine), or null
   * @param steadyState whether the point's planned requests reach steady state
   *     (agent-docs/rules/benchmarking/steady-state.md), or null in plans written before the rule
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PointSizing(
      String loadPoint,
      int workers,
      int cpuCores,
      int memoryMib,
      @Nullable Integer connectionsPerWorker,
      @Nullable SteadyState steadyState) {
    /** A point's sizing without a steady-state marker (the shape before the steady-state rule). */
    public PointSizing(
        String loadPoint, int workers, int cpuCores, int memoryMib, Integer connectionsPerWorker) {
      this(loadPoint, workers, cpuCores, memoryMib, connectionsPerWorker, null);
    }
  }

  /**
   * The steady-state verdict of one load point's plan (agent-docs/rules/benchmarking/
   * steady-state.md). Analysis marks points whose status is {@link #SHORT_ACCEPTED} or {@link
   * #TIME_BOUNDED} as not steady state.
   *
   * @param status {@code meets}, {@code short_accepted} (below the minimum, accepted with {@code
   *     --allow-short-points}), {@code time_bounded} (the measurement limit caps it below the
   *     minimum), {@code not_enforced} (no request-time estimate) or {@code exempt} (a
   *     fixed-schedule replay)
   * @param minimumRequests the steady-state minimum of measured requests, or null when unknown
   * @param plannedRequests the measured requests the plan expects at the point, or null
   * @param basis the arithmetic behind the verdict, in one sentence
   */
  public record SteadyState(
      String status, @Nullable Long minimumRequests, @Nullable Long plannedRequests, String basis) {
    public static final String MEETS = "meets";
    public static final String SHORT_ACCEPTED = "short_accepted";
    public static final String TIME_BOUNDED = "time_bounded";
    public static final String NOT_ENFORCED = "not_enforced";
    public static final String EXEMPT = "exempt";

    /** True when analysis must mark the point as not steady state. */
    public boolean notSteady() {
      return SHORT_ACCEPTED.equals(status) || TIME_BOUNDED.equals(status);
    }
  }
}
