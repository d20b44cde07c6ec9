package dev.benchplan.runrecord;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * run.json (schemas/run-record.schema.json) as typed values: what ran (plan, perf.yaml, Job, pod,
 * node, image), against what (endpoint, DGD, isolation preflight), with which instrument, when, how
 * it ended, and whether it may serve as evidence. Jackson writes it only at the file edge, in
 * canonical form.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record RunRecordDocument(
    String schemaVersion,
    String runId,
    String seriesId,
    String planId,
    FileRef plan,
    FileRef perfYaml,
    Cluster cluster,
    String endpoint,
    String dgd,
    Job job,
    @Nullable Pod pod,
    String image,
    Aiperf aiperf,
    Times times,
    Isolation isolation,
    Artifacts artifacts,
    String exitReason,
    String message,
    String verdict,
    int exitCode,
    boolean eligible,
    List<String> ineligibleReasons,
    boolean keep,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable MeasuredRuns measuredRuns,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Pair pair,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Engine engine,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Operator operator,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable SmokeAge smokeEvidence,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Candidate candidate) {

  /**
   * What was measured, apart from the series (issue 31): runs of one series may measure different
   * builds, and compare and analyze never pool runs of different candidates. Absent in a run.json
   * written before it was recorded (its candidate is "unknown").
   *
   * @param ledgerSha256 the deployment ledger's SHA-256 (perf.yaml's {@code
   *     benchplan.dev/ledger-sha256})
   * @param dgd {@code namespace/name} of the DynamoGraphDeployment
   * @param dgdSha256 the DGD manifest's SHA-256 as the ledger records it, or null when the rendered
   *     files predate its annotation
   * @param endpoint the endpoint URL measured
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Candidate(
      String ledgerSha256, String dgd, @Nullable String dgdSha256, String endpoint) {
    /** From the rendered annotations; null when the ledger's SHA-256 is not among them. */
    public static @Nullable Candidate of(
        @Nullable String ledgerSha256,
        @Nullable String dgd,
        @Nullable String dgdSha256,
        @Nullable String endpoint) {
      if (ledgerSha256 == null || ledgerSha256.isBlank()) {
        return null;
      }
      return new Candidate(
          ledgerSha256, dgd == null ? "" : dgd, dgdSha256, endpoint == null ? "" : endpoint);
    }
  }

  /**
   * How old the bound ledger's smoke evidence was when run checked it, before creating anything
   * ({@code run --smoke-max-age}); absent when run did not check (validate proves readiness in the
   * cluster) or the plan has no smoke artifact.
   *
   * @param timestamp the artifact's {@code timestamp}, or null when it has none
   * @param ageS its age in seconds at {@code judgedAt}, or null when unknown (no timestamp)
   * @param maxAgeS the oldest accepted ({@code --smoke-max-age}), in seconds
   * @param judgedAt when it was judged ({@code SOURCE_DATE_EPOCH}, else the system clock)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record SmokeAge(
      @Nullable String timestamp, @Nullable Long ageS, long maxAgeS, String judgedAt) {}

  /**
   * How the measured runs executed; absent (null) in records of the plain Job engine, which named
   * none before the operator engine existed and still names none (its run.json bytes unchanged).
   */
  public enum Engine {
    JOB("job"),
    AIPERF_OPERATOR("aiperf-operator");

    private final String json;

    Engine(String json) {
      this.json = json;
    }

    /** The name run.json and render use. */
    @com.fasterxml.jackson.annotation.JsonValue
    public String json() {
      return json;
    }
  }

  /**
   * Engine aiperf-operator: where the bytes came from (the operator's results API) and each
   * AIPerfJob as it ended.
   *
   * @param resultsService NAMESPACE/SERVICE:PORT of the operator's results API
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Operator(String resultsService, String transport, List<OperatorJob> jobs) {
    public Operator {
      jobs = List.copyOf(jobs);
    }
  }

  /**
   * One AIPerfJob as it ended.
   *
   * @param directory its tree in the run directory ({@code aiperf} or {@code aiperf/<dir>})
   * @param files how many files the operator listed and benchplan fetched
   * @param bytes their total size
   * @param readyMarker the operator's ready marker as it wrote it (its own document)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record OperatorJob(
      String name,
      @Nullable String uid,
      @Nullable String phase,
      @Nullable Long runEpoch,
      String directory,
      long files,
      long bytes,
      tools.jackson.databind.@Nullable JsonNode readyMarker) {}

  /**
   * The AB/BA pair of the run, as render was told ({@code --pair}, {@code --pair-order}, {@code
   * --pair-arm}) and annotated on the Job; compare pairs runs by it.
   *
   * @param id the pair's id
   * @param order {@code AB} (the reference ran first) or {@code BA}
   * @param arm {@code A} (reference) or {@code B} (candidate)
   */
  public record Pair(String id, String order, String arm) {
    /** The pair of a Job annotation ({@code id/order/arm}), or null without one. */
    public static @Nullable Pair of(@Nullable String annotation) {
      if (annotation == null) {
        return null;
      }
      dev.benchplan.render.PairLabel l =
          dev.benchplan.render.PairLabel.parse(
              annotation,
              "/metadata/annotations/" + dev.benchplan.render.JobContract.PAIR.replace("/", "~1"));
      return new Pair(l.id(), l.order(), l.arm());
    }
  }

  /**
   * Every measured run of the Job and how they were executed.
   *
   * @param mechanism aiperf-single-run, aiperf-multi-run (one Job, AIPerf repeats), job-sequence
   *     (one AIPerf invocation per load point inside the Job), or job-sequence+aiperf-multi-run
   * @param repetitions planned repetitions per load point
   * @param pilot true when the repetitions are the series' noise-floor pilot
   * @param loadPoints the planned load points, in order
   * @param runs every measured run found in AIPerf's tree
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record MeasuredRuns(
      String mechanism,
      int repetitions,
      boolean pilot,
      List<String> loadPoints,
      List<MeasuredRun> runs) {}

  /**
   * One measured run.
   *
   * @param role noise-floor-pilot (a repetition of the series' pilot) or measurement
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record MeasuredRun(
      @Nullable String loadPoint,
      @Nullable Integer repetition,
      String directory,
      @Nullable String summarySha256,
      java.math.@Nullable BigDecimal requests,
      java.math.BigDecimal errors,
      @Nullable String startedAt,
      @Nullable String endedAt,
      String verdict,
      String role) {}

  /** A file and the SHA-256 of its bytes. */
  public record FileRef(String path, String sha256) {}

  /** The cluster the run used. */
  public record Cluster(@Nullable String context, @Nullable String server, String namespace) {}

  /** The Job as it ended. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Job(
      String name, String uid, @Nullable Long activeDeadlineSeconds, List<String> conditions) {}

  /** The AIPerf pod, when one was seen. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Pod(
      String name,
      @Nullable String node,
      @Nullable String phase,
      @Nullable Integer exitCode,
      @Nullable String containerReason,
      int restarts,
      @Nullable String imageId) {}

  /** The instrument: planned versus what ran. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Aiperf(
      String plannedVersion,
      String plannedImage,
      String manifestVersion,
      @Nullable String exportVersion,
      @Nullable Boolean versionMatch,
      boolean imageMatch,
      @Nullable Integer exitCode) {}

  /** When each stage happened (ISO-8601). */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Times(
      String startedAt,
      String appliedAt,
      @Nullable String podScheduledAt,
      @Nullable String containerStartedAt,
      @Nullable String containerFinishedAt,
      String observedEndAt,
      String collectedAt) {}

  /** The isolation preflight's record, completed with the client's placement. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Isolation(
      String endpoint,
      NamespaceCheck namespace,
      OtherBenchmarks otherBenchmarks,
      DgdPods dgd,
      List<ServingNode> servingNodes,
      Client client,
      List<String> problems,
      List<String> warnings,
      boolean verified) {}

  /** Whether the namespace exists (null: not readable), and why not checked. */
  public record NamespaceCheck(
      String name,
      @Nullable Boolean exists,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String note) {}

  /** Other benchplan Jobs benchmarking the same endpoint, and where they were looked for. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record OtherBenchmarks(String scope, List<String> activeSameEndpoint) {}

  /** The DGD and its serving pods. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record DgdPods(String namespace, String name, List<ServingPod> servingPods) {}

  /** One serving pod. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ServingPod(
      String name,
      @Nullable String componentType,
      @Nullable String node,
      @Nullable String phase,
      long gpus) {}

  /**
   * A node serving the DGD: its GPU product and sharing labels when the node could be read (absent
   * otherwise), and the other pods on it.
   */
  // gpuProduct has three states on purpose: null = node not read (left out), empty = no label
  // (null)
  @SuppressWarnings("NullableOptional")
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ServingNode(
      String name,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Optional<String> gpuProduct,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable GpuSharing gpuSharing,
      List<OtherPod> otherPods) {}

  /** The GPU sharing labels of a node and its MIG resources. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record GpuSharing(
      @Nullable String migStrategy,
      @Nullable String migConfig,
      @Nullable String sharingStrategy,
      @Nullable String gpuReplicas,
      List<String> migResources) {}

  /** Another pod on a serving node and the GPUs it requests. */
  public record OtherPod(String pod, long gpus) {}

  /** Where the AIPerf client ran. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Client(@Nullable String node, @Nullable Boolean onServingNode) {}

  /**
   * The artifacts collected and their SHA-256.
   *
   * @param synthetic present only when the collected tree says it was generated, not measured (its
   *     {@code SYNTHETIC.txt} marker): {@code "synthetic: generated by ..."}
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Artifacts(
      String volume,
      @Nullable String summarySource,
      String volumeCollection,
      Map<String, String> files,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String synthetic) {
    /** Artifacts of a measured (not synthetic) tree. */
    public Artifacts(
        String volume,
        @Nullable String summarySource,
        String volumeCollection,
        Map<String, String> files) {
      this(volume, summarySource, volumeCollection, files, null);
    }
  }
}
