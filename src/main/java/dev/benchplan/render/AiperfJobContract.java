package dev.benchplan.render;

/**
 * The render -> run contract of the {@code aiperf-operator} engine: what AIPerf's own operator
 * serves (its AIPerfJob resource, its results API) and the names benchplan writes on each AIPerfJob
 * and reads back. The plain Job's keys ({@link JobContract}) are reused for labels and plan
 * annotations.
 */
public final class AiperfJobContract {
  /** The engine name the plan records ({@code load_generator.engine}). */
  public static final String ENGINE = "aiperf-operator";

  /** The plain Job engine. */
  public static final String JOB_ENGINE = "job";

  /** The AIPerfJob API group. */
  public static final String GROUP = "aiperf.nvidia.com";

  /** Its served version. */
  public static final String VERSION = "v1alpha1";

  /** {@code apiVersion} of an AIPerfJob. */
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /** The kind. */
  public static final String KIND = "AIPerfJob";

  /** The resource (plural). */
  public static final String PLURAL = "aiperfjobs";

  /** The CRD the operator installs. */
  public static final String CRD = PLURAL + "." + GROUP;

  /** The JobSet CRD the operator runs every AIPerfJob as. */
  public static final String JOBSET_CRD = "jobsets.jobset.x-k8s.io";

  /** The file in DEPLOY_ROOT/benchmark/ holding the AIPerfJobs (instead of perf.yaml). */
  public static final String FILE = "aiperfjobs.yaml";

  /** AIPerfJob annotation: the load point this run measures (as printed), absent for a replay. */
  public static final String RUN_LOAD_POINT = "benchplan.dev/run-load-point";

  /** AIPerfJob annotation: the repetition (1-based) of its load point. */
  public static final String RUN_REPETITION = "benchplan.dev/run-repetition";

  /**
   * AIPerfJob annotation: the folder of this run inside the run directory's {@code aiperf/} tree
   * ({@code ""} for a plan of one run: the tree itself).
   */
  public static final String RUN_DIRECTORY = "benchplan.dev/run-directory";

  /**
   * AIPerfJob annotation: the point's sizing, the plan's totals and their split per worker pod
   * ({@link OperatorSizing#describe()}).
   */
  public static final String SIZING = "benchplan.dev/operator-sizing";

  /** AIPerfJob annotation: where the operator's results API is ({@code NAMESPACE/SERVICE:PORT}). */
  public static final String RESULTS_SERVICE = "benchplan.dev/operator-results-service";

  /**
   * The operator's results Service as AIPerf's Helm chart installs it (release aiperf-operator in
   * aiperf-system, port {@code results} 8081).
   */
  public static final String DEFAULT_RESULTS_SERVICE = "aiperf-system/aiperf-operator:8081";

  /** The operator's "results complete" marker (written atomically once every file is stored). */
  public static final String READY_MARKER = ".aiperf_results_ready.json";

  /** The marker written while results are still being processed. */
  public static final String PROCESSING_MARKER = ".aiperf_results_processing.json";

  /** The operator's retention of results when the chart is not told otherwise (days). */
  public static final int OPERATOR_RESULTS_TTL_DAYS = 30;

  /** How long the operator keeps the JobSet's pods after the run ends (seconds). */
  public static final int TTL_SECONDS_AFTER_FINISHED = 300;

  /** AIPerf's own default of connections per worker (the CRD's default). */
  public static final int DEFAULT_CONNECTIONS_PER_WORKER = 100;

  /** The first AIPerf release whose image carries the operator's controller and workers. */
  public static final String FIRST_RELEASE = "0.13.0";

  private AiperfJobContract() {}

  /** The results listing of one run of a job: {@code /api/v1/results/NS/JOB/runs/EPOCH}. */
  public static String resultsPath(String namespace, String job, long epoch) {
    return "/api/v1/results/" + namespace + "/" + job + "/runs/" + epoch;
  }
}
