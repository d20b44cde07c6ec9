package dev.benchplan.kubetest;

/**
 * The stdout of perf.yaml's {@code aiperf} container as contracts.md fixes it, for {@link
 * PodScript#replayLog}: some AIPerf progress, the summary JSON between the benchplan markers (when
 * there is one), and the exit line.
 */
public final class AiperfPodLog {
  /** The line before the summary JSON. */
  public static final String SUMMARY_BEGIN = "==== benchplan:aiperf-summary:begin ====";

  /** The line after the summary JSON. */
  public static final String SUMMARY_END = "==== benchplan:aiperf-summary:end ====";

  private AiperfPodLog() {}

  /**
   * A log carrying {@code summaryJson} (profile_export_aiperf.json, unchanged) and {@code
   * exitCode}.
   */
  public static String withSummary(String summaryJson, int exitCode) {
    return progress()
        + SUMMARY_BEGIN
        + "\n"
        + summaryJson
        + (summaryJson.endsWith("\n") ? "" : "\n")
        + SUMMARY_END
        + "\n"
        + exitLine(exitCode);
  }

  /**
   * A log of a run that produced no summary (e.g. AIPerf crashed), ending with {@code exitCode}.
   */
  public static String withoutSummary(String error, int exitCode) {
    return progress() + error + (error.endsWith("\n") ? "" : "\n") + exitLine(exitCode);
  }

  /** {@code ==== benchplan:aiperf-exit:<code> ====} and a newline. */
  public static String exitLine(int exitCode) {
    return "==== benchplan:aiperf-exit:" + exitCode + " ====\n";
  }

  private static String progress() {
    return "aiperf profile (kubelet stand-in replay)\nProfiling: 100% |##########|\n";
  }
}
