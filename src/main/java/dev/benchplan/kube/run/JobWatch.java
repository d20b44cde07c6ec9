package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfPodLog;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.render.JobContract;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Watches the AIPerf Job and its pod through informers (no polling): the pod must be scheduled and
 * its container started within the start bound; then the Job must end within the run bound. Each
 * event wakes the loop, which re-reads the informers' caches and decides.
 */
final class JobWatch {
  /** Container waiting reasons that will not resolve by waiting. */
  private static final Set<String> START_FAILURES =
      Set.of(
          "InvalidImageName",
          "ErrImageNeverPull",
          "CreateContainerConfigError",
          "CreateContainerError",
          "RunContainerError");

  private static final Set<String> IMAGE_PULL = Set.of("ImagePullBackOff", "ErrImagePull");

  /**
   * How the watch ended.
   *
   * @param reason completed, job-failed, deadline-exceeded, unschedulable, image-pull,
   *     pod-start-failed, pod-start-timeout, timeout or cluster-error
   * @param message one line for people; null when completed
   * @param pod the last AIPerf pod seen (null when none was created)
   * @param job the Job as last seen
   * @param observedEnd when this process saw the container terminate (or the Job end)
   */
  record Result(
      String reason,
      @Nullable String message,
      @Nullable Pod pod,
      @Nullable Job job,
      Instant observedEnd) {
    boolean completed() {
      return reason.equals("completed");
    }
  }

  private final ClusterAccess client;
  private final String namespace;
  private final String jobName;
  private final String jobUid;
  private final Clock clock;
  private final PodLogSource logs;
  private final ProgressReporter progress;
  private final Duration progressEvery;

  JobWatch(
      ClusterAccess client,
      String namespace,
      String jobName,
      String jobUid,
      Clock clock,
      PodLogSource logs,
      ProgressReporter progress,
      Duration progressEvery) {
    this.client = client;
    this.namespace = namespace;
    this.jobName = jobName;
    this.jobUid = jobUid;
    this.clock = clock;
    this.logs = logs;
    this.progress = progress;
    this.progressEvery = progressEvery;
  }

  /**
   * Waits for the Job to end, bounded by {@code startBound} for the pod start and {@code runBound}
   * overall.
   */
  Result await(Instant created, Duration startBound, Duration runBound) {
    BlockingQueue<Object> wake = new LinkedBlockingQueue<>();
    java.util.function.Consumer<Object> handler = wake::offer;
    AiperfPodLog.ProgressTracker latestLine = new AiperfPodLog.ProgressTracker();
    AutoCloseable following = null;
    String followedPod = null;
    try (ClusterAccess.Informer<Job> jobs =
            client.informJob(KubeCall.RUN_JOBS_WATCH, namespace, jobName, handler);
        ClusterAccess.Informer<Pod> pods =
            client.informPods(
                KubeCall.RUN_PODS_WATCH, namespace, Preflight.JOB_NAME_LABEL, jobName, handler)) {
      Instant startDeadline = created.plus(startBound);
      Instant runDeadline = created.plus(runBound);
      String lastPhase = null;
      Instant lastReport = Instant.MIN;
      String waitingReason = null;
      while (true) {
        Instant now = clock.instant();
        Job job =
            jobs.list().stream()
                .filter(j -> jobName.equals(j.getMetadata().getName()))
                .findFirst()
                .orElse(null);
        Pod pod = newest(pods.list());
        ContainerStatus cs = containerStatus(pod);

        JobCondition failed = condition(job, "Failed");
        if ((failed != null || condition(job, "Complete") != null) && pod != null) {
          // the Job and pod watches are separate streams: the Job's verdict can arrive before the
          // pod's final status, which the record needs (exit code, finish time)
          pod = fresh(pod);
          cs = containerStatus(pod);
        }
        if (failed != null) {
          String reason =
              "DeadlineExceeded".equals(failed.getReason()) ? "deadline-exceeded" : "job-failed";
          return new Result(
              reason,
              "Job "
                  + namespace
                  + "/"
                  + jobName
                  + " failed: "
                  + failed.getReason()
                  + (failed.getMessage() == null ? "" : " (" + failed.getMessage() + ")")
                  + podSuffix(pod, cs),
              pod,
              job,
              clock.instant());
        }
        if (cs != null
            && cs.getState() != null
            && cs.getState().getTerminated() != null
            && Integer.valueOf(0).equals(cs.getState().getTerminated().getExitCode())) {
          return new Result("completed", null, pod, job, clock.instant());
        }
        if (condition(job, "Complete") != null) {
          return new Result("completed", null, pod, job, clock.instant());
        }
        if (job == null && jobs.hasSynced() && now.isAfter(created.plusSeconds(5))) {
          return new Result(
              "job-deleted",
              "Job " + namespace + "/" + jobName + " was deleted while the run watched it",
              pod,
              null,
              clock.instant());
        }

        boolean started =
            cs != null
                && cs.getState() != null
                && (cs.getState().getRunning() != null || cs.getState().getTerminated() != null);
        String phase;
        String detail;
        if (pod == null) {
          phase = "waiting for the Job's pod";
          detail = null;
        } else if (!started) {
          phase = "Pending";
          detail = pendingReason(pod, cs);
          String waiting =
              cs == null || cs.getState() == null || cs.getState().getWaiting() == null
                  ? null
                  : cs.getState().getWaiting().getReason();
          if (waiting != null && START_FAILURES.contains(waiting)) {
            return new Result(
                "pod-start-failed",
                "pod " + pod.getMetadata().getName() + " cannot start: " + detail,
                pod,
                job,
                clock.instant());
          }
          waitingReason = detail;
        } else if (cs != null && cs.getState().getTerminated() != null) { // started: cs is set
          phase =
              "container exited "
                  + cs.getState().getTerminated().getExitCode()
                  + "; waiting for the Job";
          detail = latestLine.latest();
        } else {
          phase = "Running on " + pod.getSpec().getNodeName();
          detail = latestLine.latest();
          if (!pod.getMetadata().getName().equals(followedPod)) {
            close(following);
            followedPod = pod.getMetadata().getName();
            following =
                logs.follow(namespace, followedPod, JobContract.CONTAINER, latestLine::accept);
          }
        }

        if (!started && now.isAfter(startDeadline)) {
          return startTimeout(pod, cs, job, startBound, waitingReason);
        }
        if (now.isAfter(runDeadline)) {
          return new Result(
              "timeout",
              "Job "
                  + namespace
                  + "/"
                  + jobName
                  + " did not finish within "
                  + human(runBound)
                  + podSuffix(pod, cs),
              pod,
              job,
              clock.instant());
        }
        if (!phase.equals(lastPhase) || !now.isBefore(lastReport.plus(progressEvery))) {
          progress.report(phase, detail);
          lastPhase = phase;
          lastReport = now;
        }
        Instant next = min(started ? runDeadline : startDeadline, lastReport.plus(progressEvery));
        long waitMs = Math.max(1, Duration.between(clock.instant(), next).toMillis() + 1);
        wake.poll(waitMs, TimeUnit.MILLISECONDS);
        wake.clear(); // the caches hold the latest state; one pass covers every queued event
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(
          "interrupted",
          "interrupted while watching Job " + namespace + "/" + jobName,
          null,
          null,
          clock.instant());
    } catch (KubernetesClientException e) {
      return new Result(
          "cluster-error",
          ApiErrors.map("watch Job " + namespace + "/" + jobName + " and its pod", e).getMessage(),
          null,
          null,
          clock.instant());
    } finally {
      close(following);
    }
  }

  private Pod fresh(Pod cached) {
    try {
      Pod p = client.getPod(KubeCall.RUN_POD_GET, namespace, cached.getMetadata().getName());
      return p == null ? cached : p;
    } catch (KubernetesClientException e) {
      return cached;
    }
  }

  private Result startTimeout(
      @Nullable Pod pod,
      @Nullable ContainerStatus cs,
      @Nullable Job job,
      Duration bound,
      @Nullable String waitingReason) {
    if (pod == null) {
      return new Result(
          "pod-start-timeout",
          "no pod was created for Job "
              + namespace
              + "/"
              + jobName
              + " within "
              + human(bound)
              + jobEvents(),
          null,
          job,
          clock.instant());
    }
    String reason = pendingReason(pod, cs);
    String waiting =
        cs == null || cs.getState() == null || cs.getState().getWaiting() == null
            ? null
            : cs.getState().getWaiting().getReason();
    String kind;
    if (waiting != null && IMAGE_PULL.contains(waiting)) {
      kind = "image-pull";
    } else if (pod.getSpec() == null || pod.getSpec().getNodeName() == null) {
      kind = "unschedulable";
    } else {
      kind = "pod-start-timeout";
    }
    return new Result(
        kind,
        "pod "
            + pod.getMetadata().getName()
            + " did not start within "
            + human(bound)
            + ": "
            + (reason == null ? Objects.toString(waitingReason, "no reason given") : reason),
        pod,
        job,
        clock.instant());
  }

  private String jobEvents() {
    try {
      List<String> msgs =
          client
              .listEvents(KubeCall.RUN_EVENTS_LIST, namespace, "involvedObject.name", jobName)
              .stream()
              .filter(e -> jobName.equals(e.getInvolvedObject().getName()))
              .map(e -> e.getReason() + ": " + e.getMessage())
              .toList();
      return msgs.isEmpty() ? "" : "; Job events: " + String.join("; ", msgs);
    } catch (KubernetesClientException e) {
      return "";
    }
  }

  /**
   * The pod's own reason for not running yet: scheduling condition, then container waiting state.
   */
  static String pendingReason(Pod pod, @Nullable ContainerStatus cs) {
    if (cs != null
        && cs.getState() != null
        && cs.getState().getWaiting() != null
        && cs.getState().getWaiting().getReason() != null
        && !"ContainerCreating".equals(cs.getState().getWaiting().getReason())) {
      String m = cs.getState().getWaiting().getMessage();
      return cs.getState().getWaiting().getReason() + (m == null ? "" : ": " + m);
    }
    if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
      for (PodCondition c : pod.getStatus().getConditions()) {
        if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())) {
          return c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage());
        }
      }
    }
    if (pod.getSpec() == null || pod.getSpec().getNodeName() == null) {
      return "not yet scheduled";
    }
    return cs == null || cs.getState() == null || cs.getState().getWaiting() == null
        ? "scheduled on " + pod.getSpec().getNodeName()
        : "ContainerCreating on " + pod.getSpec().getNodeName();
  }

  private String podSuffix(@Nullable Pod pod, @Nullable ContainerStatus cs) {
    if (pod == null) {
      return "";
    }
    String s = "; pod " + pod.getMetadata().getName();
    if (cs != null && cs.getState() != null && cs.getState().getTerminated() != null) {
      var t = cs.getState().getTerminated();
      s +=
          " container "
              + JobContract.CONTAINER
              + " exited "
              + t.getExitCode()
              + (t.getReason() == null ? "" : " (" + t.getReason() + ")");
    } else if (pod.getStatus() != null && pod.getStatus().getReason() != null) {
      s +=
          " "
              + pod.getStatus().getReason()
              + (pod.getStatus().getMessage() == null ? "" : ": " + pod.getStatus().getMessage());
    }
    return s;
  }

  private @Nullable Pod newest(List<Pod> pods) {
    return pods.stream()
        .filter(
            p ->
                jobUid == null
                    || owners(p).isEmpty()
                    || owners(p).stream().anyMatch(o -> jobUid.equals(o.getUid())))
        .max(
            Comparator.comparing(
                    (Pod p) -> Objects.toString(p.getMetadata().getCreationTimestamp(), ""))
                .thenComparing(p -> p.getMetadata().getName()))
        .orElse(null);
  }

  private static List<OwnerReference> owners(Pod p) {
    return p.getMetadata().getOwnerReferences() == null
        ? List.of()
        : p.getMetadata().getOwnerReferences();
  }

  /** The AIPerf container's status in a pod, or null. */
  static @Nullable ContainerStatus containerStatus(@Nullable Pod pod) {
    if (pod == null || pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return null;
    }
    return pod.getStatus().getContainerStatuses().stream()
        .filter(c -> JobContract.CONTAINER.equals(c.getName()))
        .findFirst()
        .orElse(null);
  }

  static @Nullable JobCondition condition(@Nullable Job job, String type) {
    if (job == null || job.getStatus() == null || job.getStatus().getConditions() == null) {
      return null;
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst()
        .orElse(null);
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  static String human(Duration d) {
    long s = d.toSeconds();
    return s >= 60 && s % 60 == 0 ? (s / 60) + "m" : s + "s";
  }

  private static void close(@Nullable AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception ignored) {
      // progress only
    }
  }
}
