package dev.benchplan.kube.run;

import dev.benchplan.artifacts.ArtifactChannel;
import dev.benchplan.artifacts.ArtifactChannelException;
import dev.benchplan.artifacts.ArtifactManifest;
import dev.benchplan.artifacts.ArtifactParts;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.render.ArtifactTarget;
import dev.benchplan.render.JobContract;
import dev.benchplan.render.PodPaths;
import dev.benchplan.run.PerfYaml;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Brings back a tree the Job left on its artifact claim ({@code render --artifacts-pvc}) because it
 * was larger than one pod log carries: short-lived collector pods, one after another, each mounting
 * the claim read-only and printing one part of the same verified block ({@code ship-artifacts.py}
 * with a chunk range, every chunk hashed) into its own log, which stays under the kubelet's 10 MiB
 * rotation. The parts are joined on disk and decoded by {@link ArtifactChannel}; the restored tree
 * must equal the manifest the Job printed after its too-large line. Each collector pod is deleted
 * as soon as its log is read, and {@link #cleanup()} deletes one still there (failure, Ctrl-C).
 */
final class ArtifactCollector {
  /** The collector pods' role label value ({@code benchplan.dev/role}). */
  static final String ROLE = "artifact-collector";

  /** Label naming what a benchplan pod is for. */
  static final String ROLE_LABEL = "benchplan.dev/role";

  /** The collector container's name. */
  static final String CONTAINER = "collect";

  /**
   * How collection is bounded.
   *
   * @param chunksPerPart chunk lines per collector pod (4,170 log bytes each: 1,800 is 7.2 MiB of
   *     log, under the kubelet's default 10 MiB rotation)
   * @param podBound how long one collector pod may take from creation to its end
   */
  record Settings(int chunksPerPart, Duration podBound) {
    static Settings defaults() {
      return new Settings(1800, Duration.ofMinutes(10));
    }
  }

  private final ClusterAccess client;
  private final String namespace;
  private final PerfYaml perf;
  private final Settings settings;
  private final ProgressReporter progress;
  private final List<String> cleaned = new ArrayList<>();
  private volatile @Nullable String current;

  ArtifactCollector(
      ClusterAccess client,
      String namespace,
      PerfYaml perf,
      Settings settings,
      ProgressReporter progress) {
    this.client = client;
    this.namespace = namespace;
    this.perf = perf;
    this.settings = settings;
    this.progress = progress;
  }

  /**
   * Restores the tree into {@code target} (must not exist) and checks it against {@code expected},
   * the Job's manifest. The parts received are kept beside {@code target} (its parent), so a failed
   * collection can be set aside whole.
   *
   * @throws ArtifactChannelException when a part is cut, corrupted or the tree differs from the
   *     manifest
   * @throws BenchplanException (exit 3) when a collector pod fails, does not end in time, or the
   *     API refuses
   */
  ArtifactManifest collect(Path target, ArtifactManifest expected) {
    // the staging folder: RunDirectory.stageArtifacts() hands out its child
    Path parts =
        java.util.Objects.requireNonNull(target.getParent(), "staged tree has a parent")
            .resolve("collector-parts.log");
    long first = 0;
    int part = 0;
    try (BufferedWriter out = Files.newBufferedWriter(parts, StandardCharsets.UTF_8)) {
      while (true) {
        String name = podName(part);
        progress.report(
            "collecting",
            "collector pod "
                + namespace
                + "/"
                + name
                + " (part "
                + (part + 1)
                + ", from chunk "
                + first
                + ") mounting "
                + claim().describe());
        String log = runPart(name, first);
        ArtifactParts.Part p =
            ArtifactParts.append(
                log, first, out, "collector pod " + namespace + "/" + name + " log");
        if (p.last()) {
          break;
        }
        first = p.next();
        part++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ArtifactManifest got;
    try (BufferedReader in = Files.newBufferedReader(parts, StandardCharsets.UTF_8)) {
      got =
          ArtifactChannel.decode(
              in, target, "the collector pods' logs (" + (part + 1) + " part(s))");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String diff = got.firstDifference(expected);
    if (diff != null) {
      throw new ArtifactChannelException(
          "the tree on " + claim().describe() + " differs from the Job's manifest: " + diff);
    }
    try {
      Files.delete(parts);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return got;
  }

  /** Deletes a collector pod still there (idempotent); what was deleted. */
  List<String> cleanup() {
    String name = current;
    if (name != null) {
      delete(name);
    }
    synchronized (cleaned) {
      return List.copyOf(cleaned);
    }
  }

  private String runPart(String name, long first) {
    Pod pod = podSpec(name, first);
    current = name;
    try {
      client.createPod(KubeCall.RUN_COLLECTOR_POD, namespace, pod);
      Pod ended =
          client.awaitPod(
              KubeCall.RUN_COLLECTOR_POD_WATCH,
              namespace,
              name,
              ArtifactCollector::ended,
              settings.podBound().toMillis());
      String phase =
          ended == null || ended.getStatus() == null ? null : ended.getStatus().getPhase();
      String log = null;
      String logProblem = null;
      try {
        log = client.podLog(KubeCall.RUN_COLLECTOR_POD_LOG, namespace, name, CONTAINER);
      } catch (KubernetesClientException e) {
        logProblem =
            ApiErrors.map("read the log of collector pod " + namespace + "/" + name, e)
                .getMessage();
      }
      if (!"Succeeded".equals(phase)) {
        throw BenchplanException.runtime(
            "artifact collector pod "
                + namespace
                + "/"
                + name
                + " "
                + (ended == null
                    ? "is gone"
                    : phase == null || !ended(ended)
                        ? "did not end within "
                            + JobWatch.human(settings.podBound())
                            + " ("
                            + JobWatch.pendingReason(ended, status(ended))
                            + ")"
                        : "failed" + exit(ended))
                + tail(log, logProblem));
      }
      if (log == null) {
        throw BenchplanException.runtime(
            "artifact collector pod " + namespace + "/" + name + ": " + logProblem);
      }
      return log;
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("run artifact collector pod " + namespace + "/" + name, e);
    } finally {
      delete(name);
    }
  }

  private void delete(String name) {
    String what = "collector pod " + namespace + "/" + name;
    String result;
    try {
      result =
          what
              + (client.deletePod(KubeCall.RUN_COLLECTOR_POD, namespace, name)
                  ? ": deleted"
                  : ": already gone");
    } catch (KubernetesClientException e) {
      result = what + ": NOT deleted: " + ApiErrors.map("delete " + what, e).getMessage();
    }
    synchronized (cleaned) {
      if (cleaned.stream().noneMatch(s -> s.startsWith(what + ":"))) {
        cleaned.add(result);
      }
    }
    if (name.equals(current)) {
      current = null;
    }
  }

  private static boolean ended(@Nullable Pod p) {
    // null (not yet seen, or deleted by someone else) is not an end: the pod bound decides then
    return p != null
        && p.getStatus() != null
        && ("Succeeded".equals(p.getStatus().getPhase())
            || "Failed".equals(p.getStatus().getPhase()));
  }

  private static @Nullable ContainerStatus status(Pod p) {
    return p.getStatus() == null || p.getStatus().getContainerStatuses() == null
        ? null
        : p.getStatus().getContainerStatuses().stream()
            .filter(c -> CONTAINER.equals(c.getName()))
            .findFirst()
            .orElse(null);
  }

  private static String exit(Pod p) {
    ContainerStatus cs = status(p);
    if (cs == null || cs.getState() == null || cs.getState().getTerminated() == null) {
      return p.getStatus().getReason() == null ? "" : " (" + p.getStatus().getReason() + ")";
    }
    var t = cs.getState().getTerminated();
    return " (exit " + t.getExitCode() + (t.getReason() == null ? "" : ", " + t.getReason()) + ")";
  }

  private static String tail(@Nullable String log, @Nullable String problem) {
    if (log == null) {
      return problem == null ? "" : "; " + problem;
    }
    List<String> lines = log.lines().filter(l -> !l.startsWith("C ")).toList();
    List<String> last = lines.subList(Math.max(0, lines.size() - 5), lines.size());
    return last.isEmpty() ? "" : "; log tail: " + String.join(" | ", last);
  }

  private ArtifactTarget claim() {
    return ArtifactTarget.parse(perf.annotation(JobContract.ARTIFACTS));
  }

  /** {@code <job>-collect-<part>}, the Job's name cut so the whole stays a DNS label. */
  String podName(int part) {
    String suffix = "-collect-" + part;
    String base = perf.jobName();
    base = base.substring(0, Math.min(base.length(), 63 - suffix.length()));
    while (base.endsWith("-")) {
      base = base.substring(0, base.length() - 1);
    }
    return base + suffix;
  }

  /**
   * The collector pod: the Job's image and pod-level settings, the claim read-only, one part of the
   * block.
   */
  Pod podSpec(String name, long first) {
    ArtifactTarget target = claim();
    if (!target.isPvc()) {
      throw new IllegalStateException("collector for a Job whose artifacts are not on a claim");
    }
    PodSpec jobPod = perf.job().getSpec().getTemplate().getSpec();
    VolumeMountBuilder mount =
        new VolumeMountBuilder()
            .withName(JobContract.ARTIFACTS_VOLUME)
            .withMountPath(PodPaths.ARTIFACTS_ROOT)
            .withReadOnly(true);
    if (target.subPath() != null) {
      mount.withSubPath(target.subPath());
    }
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToLabels(JobContract.MANAGED_BY, JobContract.MANAGED_BY_VALUE)
        .addToLabels(JobContract.RUN_ID, perf.runId())
        .addToLabels(ROLE_LABEL, ROLE)
        .endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withActiveDeadlineSeconds(Math.max(1, settings.podBound().toSeconds()))
        // the Job's pod-level settings the collector needs to be pulled and placed like it
        .withImagePullSecrets(jobPod.getImagePullSecrets())
        .withSecurityContext(jobPod.getSecurityContext())
        .withNodeSelector(jobPod.getNodeSelector())
        .withTolerations(jobPod.getTolerations())
        .withServiceAccountName(jobPod.getServiceAccountName())
        .addNewContainer()
        .withName(CONTAINER)
        .withImage(perf.image())
        // the encoder as $0 of bash -c, so it reaches python3 as one argument (the image has no
        // tar, no cat)
        .withCommand(
            "bash",
            "-c",
            "py=\"$(command -v python3 || command -v python)\" || exit 127; exec \"$py\" -c \"$0\" \"$@\"")
        .withArgs(
            ArtifactChannel.encoderScript(),
            PodPaths.ARTIFACTS_ROOT + "/" + perf.runId(),
            "0",
            Long.toString(first),
            Integer.toString(settings.chunksPerPart()))
        .withNewResources()
        .addToRequests("cpu", new Quantity("100m"))
        .addToRequests("memory", new Quantity("128Mi"))
        .addToLimits("memory", new Quantity("512Mi"))
        .endResources()
        .withVolumeMounts(mount.build())
        .endContainer()
        .addNewVolume()
        .withName(JobContract.ARTIFACTS_VOLUME)
        .withNewPersistentVolumeClaim(target.claim(), true)
        .endVolume()
        .endSpec()
        .build();
  }
}
