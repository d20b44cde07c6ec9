package dev.benchplan.kubetest;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the {@link FakeKubelet} does with a pod it matched: run it (optionally forever), keep it
 * Pending as unschedulable, or leave its containers waiting in ImagePullBackOff. Immutable; build
 * one with the static factories and refine it with the {@code with…}/{@code after} methods:
 *
 * <pre>{@code
 * PodScript.replayLog(aiperfLog, 0)               // serve the log, then exit 0
 * PodScript.exit(1).after(Duration.ofSeconds(2))   // Running for 2 s, then Failed with exit code 1
 * PodScript.runForever()                           // Running + Ready until deleted
 * PodScript.stayPending()                          // PodScheduled=False, reason Unschedulable
 * PodScript.imagePullBackOff()                     // bound, containers waiting: ImagePullBackOff
 * PodScript.execute(PodExecution.in(tmp))          // run the containers' own command locally
 * }</pre>
 *
 * @param kind what happens to the pod
 * @param logs container name -> log text; key {@code "*"} applies to every container without its
 *     own entry
 * @param exitCode the exit code of every container, or null to run until deleted (RUN only)
 * @param runFor how long the pod stays Running before it terminates (RUN with an exit code)
 * @param lineInterval zero: the whole log is there when the pod starts; otherwise one line is
 *     appended per interval (the pod terminates after the last line and after {@code runFor})
 * @param message the Unschedulable condition message (STAY_PENDING) or the waiting message
 *     (IMAGE_PULL_BACKOFF); null for RUN
 * @param execution how EXECUTE pods run locally; null for every other kind
 */
public record PodScript(
    Kind kind,
    Map<String, String> logs,
    Integer exitCode,
    Duration runFor,
    Duration lineInterval,
    String message,
    PodExecution execution) {

  /** What the kubelet stand-in does with the pod. */
  public enum Kind {
    /** Bind, Running, then terminate with {@link #exitCode} (or never when it is null). */
    RUN,
    /** Never bind; PodScheduled=False with reason Unschedulable and {@link #message}. */
    STAY_PENDING,
    /** Bind; phase Pending, every container waiting with reason ImagePullBackOff. */
    IMAGE_PULL_BACKOFF,
    /**
     * Bind, Running, execute every container's command + args locally per {@link #execution}; the
     * output is the log, the exit code decides Succeeded/Failed.
     */
    EXECUTE
  }

  /** The key of the log served for every container that has no log of its own. */
  public static final String ANY_CONTAINER = "*";

  /** Validates every field; logs are copied. */
  public PodScript {
    Objects.requireNonNull(kind, "kind");
    logs = Map.copyOf(Objects.requireNonNull(logs, "logs"));
    Objects.requireNonNull(runFor, "runFor");
    Objects.requireNonNull(lineInterval, "lineInterval");
    if (runFor.isNegative() || lineInterval.isNegative()) {
      throw new IllegalArgumentException("runFor and lineInterval must be >= 0");
    }
    if (exitCode != null && (exitCode < 0 || exitCode > 255)) {
      throw new IllegalArgumentException("exitCode must be 0..255, got " + exitCode);
    }
    if ((kind == Kind.EXECUTE) != (execution != null)) {
      throw new IllegalArgumentException("an execution belongs to EXECUTE pods, and only to them");
    }
    if (kind == Kind.EXECUTE && (exitCode != null || !logs.isEmpty())) {
      throw new IllegalArgumentException("EXECUTE pods log and exit as their command does");
    }
    if (kind != Kind.RUN && kind != Kind.EXECUTE && (exitCode != null || !logs.isEmpty())) {
      throw new IllegalArgumentException(kind + " pods never run: no exit code, no logs");
    }
    if (kind != Kind.RUN && kind != Kind.EXECUTE && (message == null || message.isBlank())) {
      throw new IllegalArgumentException(kind + " needs a message");
    }
  }

  /** Runs, serves no log, exits 0 at once: the pod ends Succeeded. */
  public static PodScript succeed() {
    return exit(0);
  }

  /** Runs and exits with {@code exitCode} at once (0: Succeeded, else Failed). */
  public static PodScript exit(int exitCode) {
    return new PodScript(Kind.RUN, Map.of(), exitCode, Duration.ZERO, Duration.ZERO, null, null);
  }

  /** Serves {@code log} for every container, then exits with {@code exitCode}. */
  public static PodScript replayLog(String log, int exitCode) {
    return exit(exitCode).withLog(log);
  }

  /** Running and Ready until the pod is deleted (a server, e.g. a Dynamo worker). */
  public static PodScript runForever() {
    return new PodScript(Kind.RUN, Map.of(), null, Duration.ZERO, Duration.ZERO, null, null);
  }

  /** Never scheduled: the message a real scheduler gives when no node has a free GPU. */
  public static PodScript stayPending() {
    return stayPending("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  }

  /** Never scheduled, with this Unschedulable message. */
  public static PodScript stayPending(String message) {
    return new PodScript(
        Kind.STAY_PENDING, Map.of(), null, Duration.ZERO, Duration.ZERO, message, null);
  }

  /** Bound, but every container waits with reason ImagePullBackOff. */
  public static PodScript imagePullBackOff() {
    return new PodScript(
        Kind.IMAGE_PULL_BACKOFF,
        Map.of(),
        null,
        Duration.ZERO,
        Duration.ZERO,
        "Back-off pulling image: the kubelet stand-in never pulls",
        null);
  }

  /**
   * Executes the pod's containers locally ({@link PodExecution}): their command + args with their
   * env, a stand-in {@code aiperf} first on PATH, volumes backed by local folders; stdout+stderr is
   * the log and the exit code decides the phase.
   */
  public static PodScript execute(PodExecution execution) {
    return new PodScript(
        Kind.EXECUTE,
        Map.of(),
        null,
        Duration.ZERO,
        Duration.ZERO,
        null,
        java.util.Objects.requireNonNull(execution, "execution"));
  }

  /** This script, staying Running for {@code runFor} before it terminates. */
  public PodScript after(Duration runFor) {
    return new PodScript(kind, logs, exitCode, runFor, lineInterval, message, execution);
  }

  /** This script, serving {@code log} for every container without a log of its own. */
  public PodScript withLog(String log) {
    return withLog(ANY_CONTAINER, log);
  }

  /** This script, serving {@code log} for {@code container}. */
  public PodScript withLog(String container, String log) {
    Map<String, String> copy = new LinkedHashMap<>(logs);
    copy.put(Objects.requireNonNull(container, "container"), Objects.requireNonNull(log, "log"));
    return new PodScript(kind, copy, exitCode, runFor, lineInterval, message, execution);
  }

  /** This script, emitting its log one line per {@code interval} (for follow/watchLog tests). */
  public PodScript streamingLinesEvery(Duration interval) {
    return new PodScript(kind, logs, exitCode, runFor, interval, message, execution);
  }

  /** The log text for {@code container} ("" when the script has none). */
  public String logFor(String container) {
    String own = logs.get(container);
    return own != null ? own : logs.getOrDefault(ANY_CONTAINER, "");
  }
}
