package dev.benchplan.kube.run;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Plays the Job controller and the kubelet against the fabric8 mock server (which runs neither):
 * once the run creates its Job, a script creates the pod and writes pod and Job status.
 */
final class FakeJobController implements AutoCloseable {
  /** What the controller does once the Job exists. */
  @FunctionalInterface
  interface Script {
    void play(Steps steps) throws Exception;
  }

  private final KubernetesClient client;
  private final String namespace;
  private final String jobName;
  private final Thread thread;
  private volatile Throwable failure;
  private volatile String stallDump;
  volatile Instant terminatedAt;

  /** Set once the Job satisfied the start condition and the script began. */
  private volatile boolean playing;

  /** Set once the script has ended (done, failed or interrupted). */
  private volatile boolean played;

  FakeJobController(KubernetesClient client, String namespace, String jobName, Script script) {
    this(client, namespace, jobName, Objects::nonNull, script);
  }

  /** Starts the script once the Job satisfies {@code ready} (e.g. a new uid after --replace). */
  FakeJobController(
      KubernetesClient client,
      String namespace,
      String jobName,
      java.util.function.Predicate<Job> ready,
      Script script) {
    this.client = client;
    this.namespace = namespace;
    this.jobName = jobName;
    dev.benchplan.kube.ClusterAccess.warm(
        client); // its deserializers built here, not on its event loop
    this.thread =
        new Thread(
            () -> {
              try {
                // as long as the run may take to create its Job: a cold CLI under CPU load took
                // more than
                // the 30 s this once was (plan check, client start, preflight), and the controller
                // gave up
                // first; close() interrupts the wait when the test ends without a Job
                client
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withName(jobName)
                    .waitUntilCondition(ready, 10, TimeUnit.MINUTES);
                playing = true;
                script.play(new Steps());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Throwable t) {
                failure = t;
                if (isTimeout(t)) {
                  // the mock server stalled: keep what every thread was doing while it did
                  stallDump = threadDump();
                }
              } finally {
                played = true;
              }
            },
            "fake-job-controller");
    thread.setDaemon(true);
    thread.start();
  }

  /** The script's steps, each one API write. */
  final class Steps {
    private Pod pod;

    Job job() {
      return client.batch().v1().jobs().inNamespace(namespace).withName(jobName).get();
    }

    Steps createPod(String name) {
      Job job = job();
      pod =
          client
              .pods()
              .inNamespace(namespace)
              .resource(
                  new PodBuilder()
                      .withNewMetadata()
                      .withName(name)
                      .withNamespace(namespace)
                      .addToLabels(Preflight.JOB_NAME_LABEL, jobName)
                      .addToLabels(
                          "controller-uid", Objects.toString(job.getMetadata().getUid(), ""))
                      .addNewOwnerReference()
                      .withApiVersion("batch/v1")
                      .withKind("Job")
                      .withName(jobName)
                      .withUid(job.getMetadata().getUid())
                      .withController(true)
                      .endOwnerReference()
                      .endMetadata()
                      .withNewSpec()
                      .addNewContainer()
                      .withName("aiperf")
                      .withImage(RunFixture.IMAGE)
                      .endContainer()
                      .withRestartPolicy("Never")
                      .endSpec()
                      .withNewStatus()
                      .withPhase("Pending")
                      .endStatus()
                      .build())
              .create();
      return this;
    }

    Steps unschedulable(String message) {
      return status(
          "Pending", List.of(condition("PodScheduled", "False", "Unschedulable", message)), null);
    }

    Steps schedule(String node) {
      pod =
          client
              .pods()
              .inNamespace(namespace)
              .withName(pod.getMetadata().getName())
              .edit(p -> new PodBuilder(p).editSpec().withNodeName(node).endSpec().build());
      return status("Pending", List.of(condition("PodScheduled", "True", null, null)), null);
    }

    Steps waiting(String reason, String message) {
      return status(
          "Pending",
          List.of(condition("PodScheduled", "True", null, null)),
          new ContainerStatusBuilder()
              .withName("aiperf")
              .withImage(RunFixture.IMAGE)
              .withReady(false)
              .withRestartCount(0)
              .withNewState()
              .withNewWaiting()
              .withReason(reason)
              .withMessage(message)
              .endWaiting()
              .endState()
              .build());
    }

    Steps running() {
      return status(
          "Running",
          List.of(condition("PodScheduled", "True", null, null)),
          new ContainerStatusBuilder()
              .withName("aiperf")
              .withImage(RunFixture.IMAGE)
              .withReady(true)
              .withRestartCount(0)
              .withNewState()
              .withNewRunning()
              .withStartedAt(Instant.now().toString())
              .endRunning()
              .endState()
              .build());
    }

    Steps terminate(int exitCode) {
      Steps s =
          status(
              exitCode == 0 ? "Succeeded" : "Failed",
              List.of(condition("PodScheduled", "True", null, null)),
              new ContainerStatusBuilder()
                  .withName("aiperf")
                  .withImage(RunFixture.IMAGE)
                  .withReady(false)
                  .withRestartCount(0)
                  .withImageID(
                      "docker-pullable://" + RunFixture.IMAGE + "@sha256:" + "ab".repeat(32))
                  .withNewState()
                  .withNewTerminated()
                  .withExitCode(exitCode)
                  .withReason(exitCode == 0 ? "Completed" : "Error")
                  .withStartedAt("2026-11-30T10:15:10Z")
                  .withFinishedAt(Instant.now().toString())
                  .endTerminated()
                  .endState()
                  .build());
      terminatedAt = Instant.now();
      return s;
    }

    Steps jobCondition(String type, String reason, String message) {
      Job job = job();
      if (job == null) {
        return this; // the run already collected on the container's exit and deleted the Job
      }
      job.setStatus(
          job.getStatus() == null
              ? new io.fabric8.kubernetes.api.model.batch.v1.JobStatus()
              : job.getStatus());
      List<io.fabric8.kubernetes.api.model.batch.v1.JobCondition> conds = new ArrayList<>();
      if (job.getStatus().getConditions() != null) {
        conds.addAll(job.getStatus().getConditions());
      }
      conds.add(
          new JobConditionBuilder()
              .withType(type)
              .withStatus("True")
              .withReason(reason)
              .withMessage(message)
              .withLastTransitionTime(Instant.now().toString())
              .build());
      // a JSON patch of the status, not an update: the run may collect on the container's exit and
      // delete the Job between the read above and this write, and a full update could bring the
      // deleted Job back (the test then finds a Job left behind); a patch of a deleted Job is a
      // 404.
      // Not a merge patch: the mock server appends arrays, so the conditions would repeat
      String patch =
          client
              .getKubernetesSerialization()
              .asJson(List.of(Map.of("op", "add", "path", "/status/conditions", "value", conds)));
      try {
        client
            .batch()
            .v1()
            .jobs()
            .inNamespace(namespace)
            .withName(job.getMetadata().getName())
            .subresource("status")
            .patch(PatchContext.of(PatchType.JSON), patch);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
      return this;
    }

    /**
     * Sets the pod's phase, conditions and container status with a JSON patch of its status, not an
     * update after a read: the run may delete the pod between the read and the write, and a full
     * update could bring the deleted pod back; a patch of a deleted pod is a 404. Not a merge patch
     * either: the mock server merges arrays by appending, so the container's earlier status would
     * stay first and hide the image ID and the exit code of the new one.
     */
    private Steps status(String phase, List<PodCondition> conditions, ContainerStatus cs) {
      String patch =
          client
              .getKubernetesSerialization()
              .asJson(
                  List.of(
                      Map.of("op", "add", "path", "/status/phase", "value", phase),
                      Map.of("op", "add", "path", "/status/conditions", "value", conditions),
                      Map.of(
                          "op",
                          "add",
                          "path",
                          "/status/containerStatuses",
                          "value",
                          cs == null ? List.of() : List.of(cs))));
      try {
        pod =
            client
                .pods()
                .inNamespace(namespace)
                .withName(pod.getMetadata().getName())
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON), patch);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw e;
        }
      }
      return this;
    }

    private PodCondition condition(String type, String status, String reason, String message) {
      return new PodConditionBuilder()
          .withType(type)
          .withStatus(status)
          .withReason(reason)
          .withMessage(message)
          .withLastTransitionTime(Instant.now().toString())
          .build();
    }
  }

  /** True when the script has ended (done, failed or interrupted). */
  boolean played() {
    return played;
  }

  /** True when the script's thread outlived {@link #close()} (it may still write). */
  boolean stillRunning() {
    return thread.isAlive();
  }

  /**
   * Lets a script that has begun finish its writes (bounded by a minute, which only a hung API call
   * reaches), and interrupts one still waiting for its Job: no fixed few seconds that a loaded
   * machine can miss, after which a script would be cut off silently.
   */
  @Override
  public void close() {
    try {
      if (playing) {
        thread.join(60_000);
      }
      if (thread.isAlive()) {
        thread.interrupt(); // waiting for a Job the run never created, or a hung call
        thread.join(10_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failure != null && !causedByInterrupt(failure)) {
      // the cause's message in the first line: a CI summary shows that line only
      throw new AssertionError(
          "fake Job controller failed: "
              + failure
              + (stallDump == null ? "" : "\nthreads at the timeout:\n" + stallDump),
          failure);
    }
  }

  private static boolean isTimeout(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof java.util.concurrent.TimeoutException
          || c instanceof java.net.SocketTimeoutException
          || String.valueOf(c.getMessage()).contains("timeout period")) {
        return true;
      }
    }
    return false;
  }

  private static String threadDump() {
    StringBuilder b = new StringBuilder();
    for (java.lang.management.ThreadInfo t :
        java.lang.management.ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
      b.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
      if (t.getLockName() != null) {
        b.append(" on ").append(t.getLockName());
      }
      if (t.getLockOwnerName() != null) {
        b.append(" owned by ").append(t.getLockOwnerName());
      }
      b.append('\n');
      for (StackTraceElement e : t.getStackTrace()) {
        b.append("    at ").append(e).append('\n');
      }
    }
    return b.toString();
  }

  private static boolean causedByInterrupt(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof InterruptedException || c instanceof java.io.InterruptedIOException) {
        return true;
      }
    }
    return false;
  }
}
