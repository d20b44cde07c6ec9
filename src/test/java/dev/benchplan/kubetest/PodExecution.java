package dev.benchplan.kubetest;

import dev.benchplan.testing.SharedData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the {@link FakeKubelet} executes a pod for {@link PodScript#execute}: every container's
 * {@code command} + {@code args} run locally ({@link ProcessBuilder}, so {@code bash} and {@code
 * python3} come from this machine) with the container's {@code env}, a stand-in {@code aiperf}
 * first on PATH ({@link StandInAiperf}), and every volume backed by a local folder under {@code
 * workspace}:
 *
 * <ul>
 *   <li>{@code emptyDir}: {@code workspace/pods/<namespace>/<pod>/<volume>}, gone with the pod's
 *       interest (left for the test's temp dir to remove);
 *   <li>{@code configMap}: the ConfigMap's keys written as files (read through the API, so a
 *       missing ConfigMap fails the pod like a real kubelet's mount error would stall it);
 *   <li>{@code persistentVolumeClaim}: {@code workspace/claims/<namespace>/<claim>} (see {@link
 *       #claimDir}), shared by every pod mounting the claim, so what one pod writes the next reads;
 *       {@code subPath} is honoured;
 *   <li>anything else: an empty folder.
 * </ul>
 *
 * <p>Absolute pod paths are remapped: every env value, command word and argument that is a mount
 * path or lies below one is rewritten to the local folder (longest mount first); paths written
 * inside a script's text are not (pass them as arguments or env, as the Job program does). The
 * table is handed to the stand-in {@code aiperf} ({@code BENCHPLAN_STANDIN_PATH_MAP}) for paths it
 * reads from config files. When the container's env names {@code BENCHPLAN_ENDPOINT} and {@code
 * BENCHPLAN_MODEL} (the AIPerf Job), a local OpenAI-style endpoint ({@link StandInEndpoint})
 * answers for it: the in-cluster URL is rewritten to it, as cluster DNS would route it. stdout and
 * stderr, interleaved as written, are the container's log; the process's exit code is the
 * container's, and decides the pod's phase.
 *
 * @param workspace root of every local folder the stand-in creates
 * @param aiperfData a folder of real AIPerf runs ({@code concurrency<N>/}) the stand-in aiperf
 *     copies
 * @param env extra environment for every container (e.g. {@code BENCHPLAN_STANDIN_AIPERF_EXIT})
 * @param logCutAtBytes serve at most this many bytes of each container's log (a log cut in the
 *     middle; the process still runs to its end), or -1 for the whole log
 * @param endpoint whether to answer {@code BENCHPLAN_ENDPOINT} with a local endpoint
 * @param firstCompletion how long the endpoint's first chat completion takes (a fresh worker
 *     warming up); a client that gives up and retries loses that warm-up, which starts over ({@link
 *     StandInEndpoint}); zero: answered at once
 * @param engine when set, the real engine instead of every stand-in: each container runs unchanged
 *     in the AIPerf chroot with its volumes at their own mount paths ({@link ChrootContainer}),
 *     Services resolve to the host's loopback; no path or URL is rewritten, and {@code aiperfData},
 *     {@code env}'s stand-in switches and {@code endpoint} do not apply; {@code env} itself is set
 *     over the container's own, a device with no real counterpart (a kubelet runs the pod's env):
 *     RealEngineIT lowers the Job's log-channel bound with it, since the tier's real AIPerf tree
 *     (about 80 KB a run) is far below the 12 MiB that sends a tree through the collector pods
 * @param serviceAddresses real engine only: the loopback address a Service name resolves to, when
 *     not 127.0.0.1 ({@link #withServiceAddress})
 */
public record PodExecution(
    Path workspace,
    Path aiperfData,
    Map<String, String> env,
    long logCutAtBytes,
    boolean endpoint,
    Duration firstCompletion,
    @Nullable RealEngine engine,
    Map<String, String> serviceAddresses) {
  /** The real three-point sweep under ../shared/data (the calling test is skipped when absent). */
  public static final String REAL_SWEEP = "aiperf/sweep-qwen3-0.6b";

  public PodExecution {
    Objects.requireNonNull(workspace, "workspace");
    Objects.requireNonNull(aiperfData, "aiperfData");
    env = Map.copyOf(env);
    serviceAddresses = Map.copyOf(serviceAddresses);
    firstCompletion = firstCompletion == null ? Duration.ZERO : firstCompletion;
  }

  /** An execution with the stand-ins (no real engine). */
  public PodExecution(
      Path workspace,
      Path aiperfData,
      Map<String, String> env,
      long logCutAtBytes,
      boolean endpoint,
      Duration firstCompletion) {
    this(workspace, aiperfData, env, logCutAtBytes, endpoint, firstCompletion, null, Map.of());
  }

  /**
   * Executes pods under {@code workspace} on the real engine: AIPerf 0.11 in its chroot, the
   * container's command unchanged, the Job's endpoint reached through its Service's name (the test
   * creates the Service; its port is llama-server's).
   */
  public static PodExecution realEngine(Path workspace, RealEngine engine) {
    Path ws = workspace.toAbsolutePath();
    return new PodExecution(ws, ws, Map.of(), -1, false, Duration.ZERO, engine, Map.of());
  }

  /** Executes pods under {@code workspace}, the stand-in aiperf copying the real sweep. */
  public static PodExecution in(Path workspace) {
    return new PodExecution(
        workspace.toAbsolutePath(),
        SharedData.require(REAL_SWEEP),
        Map.of(),
        -1,
        true,
        Duration.ZERO);
  }

  /**
   * Executes pods under {@code workspace}, the stand-in aiperf generating every run from its seeded
   * latency model ({@link StandInAiperf#SYNTHETIC_ENV}): no third-party data, and the tree says it
   * is synthetic.
   */
  public static PodExecution synthetic(Path workspace) {
    Path ws = workspace.toAbsolutePath();
    return new PodExecution(
        ws, ws, Map.of(StandInAiperf.SYNTHETIC_ENV, "1"), -1, true, Duration.ZERO);
  }

  /** This execution with {@code name=value} in every container's environment. */
  public PodExecution withEnv(String name, String value) {
    Map<String, String> copy = new LinkedHashMap<>(env);
    copy.put(name, value);
    return new PodExecution(
        workspace,
        aiperfData,
        copy,
        logCutAtBytes,
        endpoint,
        firstCompletion,
        engine,
        serviceAddresses);
  }

  /** This execution, the stand-in aiperf exiting with {@code code} after writing its tree. */
  public PodExecution aiperfExit(int code) {
    return withEnv(StandInAiperf.EXIT_ENV, Integer.toString(code));
  }

  /**
   * This execution, each run's profile_export.jsonl grown to at least {@code bytes} (real records
   * repeated).
   */
  public PodExecution aiperfRecordsBytes(long bytes) {
    return withEnv(StandInAiperf.RECORDS_BYTES_ENV, Long.toString(bytes));
  }

  /** This execution, serving only the first {@code bytes} of each container's log. */
  public PodExecution cutLogAt(long bytes) {
    return new PodExecution(
        workspace, aiperfData, env, bytes, endpoint, firstCompletion, engine, serviceAddresses);
  }

  /** This execution without the local model endpoint (the Job's model wait then times out). */
  public PodExecution withoutEndpoint() {
    return new PodExecution(
        workspace,
        aiperfData,
        env,
        logCutAtBytes,
        false,
        firstCompletion,
        engine,
        serviceAddresses);
  }

  /**
   * This execution, the local endpoint's first chat completion taking {@code d} and lost when the
   * client disconnects before it (the next request starts the warm-up over).
   */
  public PodExecution firstCompletionTakes(Duration d) {
    return new PodExecution(
        workspace, aiperfData, env, logCutAtBytes, endpoint, d, engine, serviceAddresses);
  }

  /**
   * This execution, real-engine pods resolving Service {@code service} (its name, in any namespace)
   * to {@code address} instead of 127.0.0.1: where a test's {@link ServiceProxy} stands in for
   * kube-proxy, forwarding the Service's own port to a local server.
   */
  public PodExecution withServiceAddress(String service, String address) {
    Map<String, String> copy = new LinkedHashMap<>(serviceAddresses);
    copy.put(service, address);
    return new PodExecution(
        workspace, aiperfData, env, logCutAtBytes, endpoint, firstCompletion, engine, copy);
  }

  /** The local folder that backs PVC {@code claim} in {@code namespace} for every executed pod. */
  public Path claimDir(String namespace, String claim) {
    return workspace.resolve("claims").resolve(namespace).resolve(claim);
  }

  /** The local folder of {@code volume} of pod {@code namespace/pod} (emptyDir, configMap, ...). */
  public Path podVolumeDir(String namespace, String pod, String volume) {
    return workspace.resolve("pods").resolve(namespace).resolve(pod).resolve(volume);
  }
}
