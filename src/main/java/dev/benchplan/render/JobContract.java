package dev.benchplan.render;

import dev.benchplan.aiperf.export.AiperfPodLog;

/**
 * The render -> run contract: every name perf.yaml carries that {@code run} (and {@code validate})
 * reads back. Render writes these keys, run checks and reads them; neither spells them itself.
 */
public final class JobContract {
  /** Label on every object render writes; its value is {@link #MANAGED_BY_VALUE}. */
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  /** The value of {@link #MANAGED_BY}. */
  public static final String MANAGED_BY_VALUE = "benchplan";

  /** Label naming the application; its value is {@link #NAME_VALUE}. */
  public static final String NAME = "app.kubernetes.io/name";

  /** The value of {@link #NAME}. */
  public static final String NAME_VALUE = "aiperf";

  /** Label (DNS-safe series label) and Job annotation (the series ID as written). */
  public static final String SERIES = "benchplan.dev/series";

  /**
   * Label (the first {@link #PLAN_SHA256_LABEL_LENGTH} hex digits) and Job annotation (all 64) of
   * the plan's SHA-256.
   */
  public static final String PLAN_SHA256 = "benchplan.dev/plan-sha256";

  /** Hex digits of the plan's SHA-256 in the {@link #PLAN_SHA256} label. */
  public static final int PLAN_SHA256_LABEL_LENGTH = 12;

  /** Label: the run ID render chose. */
  public static final String RUN_ID = "benchplan.dev/run-id";

  /** Job annotation: the plan file's absolute path. */
  public static final String PLAN_PATH = "benchplan.dev/plan-path";

  /** Job annotation: the plan ID. */
  public static final String PLAN_ID = "benchplan.dev/plan-id";

  /** Job annotation: the frontend's base URL. */
  public static final String ENDPOINT = "benchplan.dev/endpoint";

  /** Job annotation: the AIPerf version pinned by the plan. */
  public static final String AIPERF_VERSION = "benchplan.dev/aiperf-version";

  /** Job annotation: how AIPerf is invoked (native config or flags). */
  public static final String AIPERF_MODE = "benchplan.dev/aiperf-mode";

  /** Job annotation: the DGD measured, as {@code namespace/name}. */
  public static final String DGD = "benchplan.dev/dgd";

  /** Job annotation: the deployment ledger the measured candidate came from. */
  public static final String LEDGER = "benchplan.dev/ledger";

  /** Job annotation: that ledger's SHA-256. */
  public static final String LEDGER_SHA256 = "benchplan.dev/ledger-sha256";

  /** Job annotation: the SHA-256 of the DGD manifest the ledger records (the candidate's build). */
  public static final String DGD_SHA256 = "benchplan.dev/dgd-sha256";

  /** Job annotation: where artifacts go ({@code emptyDir} or {@code pvc:CLAIM[/PATH]}). */
  public static final String ARTIFACTS = "benchplan.dev/artifacts";

  /** Job annotation: how the trace reaches the pod. */
  public static final String TRACE_SOURCE = "benchplan.dev/trace-source";

  /** Job annotation: the load point measured. */
  public static final String LOAD_POINT = "benchplan.dev/load-point";

  /**
   * Job annotation: every measured run of the Job and how it executes ({@link MeasuredRuns} as
   * one-line JSON).
   */
  public static final String MEASURED_RUNS = "benchplan.dev/measured-runs";

  /**
   * Job annotation: the AB/BA pair of the run ({@link PairLabel#annotation()}), when it has one.
   */
  public static final String PAIR = "benchplan.dev/pair";

  /** Job annotation: the artifact tree's estimated size in bytes (render's estimate). */
  public static final String ARTIFACT_ESTIMATE = "benchplan.dev/artifact-estimate-bytes";

  /** ConfigMap annotation: SHA-256 of aiperf-config.yaml. */
  public static final String AIPERF_CONFIG_SHA256 = "benchplan.dev/aiperf-config-sha256";

  /** The config ConfigMap's annotation: SHA-256 of the Job program and encoder it carries. */
  public static final String JOB_PROGRAM_SHA256 = "benchplan.dev/job-program-sha256";

  /** ConfigMap annotation: SHA-256 of the trace. */
  public static final String TRACE_SHA256 = "benchplan.dev/trace-sha256";

  /** The AIPerf container's name. */
  public static final String CONTAINER = "aiperf";

  /** The artifact volume's name. */
  public static final String ARTIFACTS_VOLUME = "artifacts";

  /** The pod label the Dynamo operator puts on every pod of a DGD (anti-affinity, preflight). */
  public static final String DGD_POD_LABEL = "nvidia.com/dynamo-graph-deployment-name";

  /** The log line before the summary JSON (the log format's home is {@link AiperfPodLog}). */
  public static final String SUMMARY_BEGIN = AiperfPodLog.BEGIN;

  /** The log line after the summary JSON. */
  public static final String SUMMARY_END = AiperfPodLog.END;

  /** The exit line's prefix; the line is {@code ==== benchplan:aiperf-exit:<code> ====}. */
  public static final String EXIT_PREFIX = AiperfPodLog.EXIT_PREFIX;

  private JobContract() {}
}
