package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A kubelet and scheduler stand-in for the real control plane of {@code kube-test-env.sh}, which
 * has neither. It registers {@link FakeNode}s (InternalIP 127.0.0.1 only, its own HTTPS port as
 * kubelet endpoint), watches pods, binds pending ones to a fitting node ({@code POST binding}),
 * moves them Running and then Succeeded/Failed as a {@link PodScript} says, serves their logs to
 * the apiserver's {@code pods/log} proxy, and finishes the deletion of bound pods as a kubelet
 * would.
 *
 * <pre>{@code
 * FakeKubelet kubelet = kube.startKubelet(FakeNode.withGpus("gpu-a", 8));
 * kubelet.when(FakeKubelet.labelled("job-name", "bench"), PodScript.replayLog(aiperfLog, 0));
 * // create the Job; the real Job controller creates the pod; the stand-in runs it
 * }</pre>
 *
 * <p>Scripts are chosen once per pod, when the stand-in first sees it: the most recently registered
 * matching {@link #when} rule wins, else the {@link #otherwise} script ({@link
 * PodScript#runForever()} unless changed). Register scripts before creating pods. Every container
 * (and every init container, which "exit 0" at once) gets the script's exit code. {@code
 * restartPolicy} is ignored: a terminated pod is never restarted. {@link PodScript#execute} pods
 * run their containers' own commands locally ({@link PodExecution}). All work happens on one thread
 * in event order (pod watch events and the script's timers), so runs are deterministic.
 *
 * <p>What it does that no real component does, each kept for a reason:
 *
 * <ul>
 *   <li>It binds pods itself with a subset of kube-scheduler's filters ({@link NodeFit}): no
 *       scheduler binary is built, and benchplan's placement needs only selectors, affinity, taints
 *       and GPUs.
 *   <li>It runs a pod whatever its claims' phase (a scheduler waits for a bound PVC): there is no
 *       provisioner, PVC binding stays with the stand-ins.
 *   <li>Its Nodes post Ready once and no heartbeat: no node-lifecycle controller runs to notice.
 *   <li>A {@link PodScript} decides a pod's fate (exit code, timing, log), init containers exit 0
 *       at once and {@code restartPolicy} is ignored: the tests choose faults on demand.
 *   <li>{@link #close()} force-deletes the pods bound to its nodes at once: the podgc controller
 *       would, but only after its 40 s quarantine of a vanished node.
 *   <li>{@link PodScript#execute} runs a container's command on this machine, its image ignored:
 *       the container runtime's place, so the rendered Job's own program is what runs.
 * </ul>
 */
public final class FakeKubelet implements AutoCloseable {
  private enum Stage {
    NEW,
    UNSCHEDULABLE,
    PENDING_FOREVER,
    WAITING,
    RUNNING,
    TERMINATED,
    DELETING
  }

  private record Rule(Predicate<Pod> matcher, PodScript script) {}

  /** One pod's run; touched only on the worker thread, except {@link #logs} and {@link #stage}. */
  private static final class PodRun {
    final String namespace;
    final String name;
    final PodScript script;
    final Map<String, ContainerLog> logs = new ConcurrentHashMap<>();
    final List<ScheduledFuture<?>> timers = new ArrayList<>();
    volatile Stage stage = Stage.NEW;
    volatile Pod pod;
    volatile PodProcess process;
    String node;
    String unschedulableMessage;

    PodRun(Pod pod, PodScript script) {
      this.pod = pod;
      this.namespace = pod.getMetadata().getNamespace();
      this.name = pod.getMetadata().getName();
      this.script = script;
    }

    boolean holdsNode() {
      return node != null && (stage == Stage.WAITING || stage == Stage.RUNNING);
    }
  }

  private final KubernetesClient client;
  private final String namespace;
  private final Predicate<String> namespaceFilter;
  private final Map<String, FakeNode> nodes = new LinkedHashMap<>();
  private final List<Rule> rules = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService worker;
  private final Map<String, PodRun> runsByUid = new HashMap<>();
  private final Map<String, PodRun> runsByName = new ConcurrentHashMap<>();
  private final KubeletLogServer logServer;
  private volatile PodScript defaultScript = PodScript.runForever();
  private volatile boolean closed;
  private SharedIndexInformer<Pod> informer;

  private FakeKubelet(
      KubernetesClient client, String namespace, Predicate<String> namespaceFilter, KubeletTls tls)
      throws IOException {
    this.client = client;
    this.namespace = namespace;
    this.namespaceFilter = namespaceFilter;
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fake-kubelet");
              t.setDaemon(true);
              return t;
            });
    this.logServer = KubeletLogServer.start(tls.sslContext(), this::findLog);
  }

  /**
   * Registers {@code nodes}, starts the log endpoint and watches pods.
   *
   * @param client an admin client (kept open by the caller until {@link #close()})
   * @param namespace the namespace whose pods it runs, or null for every namespace
   * @param tls the serving pair signed by the environment's CA ({@link KubeTestCluster#kubeletTls})
   * @param nodes at least one node
   */
  public static FakeKubelet start(
      KubernetesClient client, String namespace, KubeletTls tls, List<FakeNode> nodes) {
    return start(client, namespace, ns -> true, tls, nodes);
  }

  /**
   * {@link #start(KubernetesClient, String, KubeletTls, List)}, acting only in namespaces {@code
   * namespaceFilter} accepts.
   */
  static FakeKubelet start(
      KubernetesClient client,
      String namespace,
      Predicate<String> namespaceFilter,
      KubeletTls tls,
      List<FakeNode> nodes) {
    Objects.requireNonNull(client, "client");
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a kubelet stand-in needs at least one node");
    }
    FakeKubelet kubelet;
    try {
      kubelet = new FakeKubelet(client, namespace, namespaceFilter, tls);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the kubelet stand-in's HTTPS server", e);
    }
    try {
      for (FakeNode node : nodes) {
        kubelet.register(node);
      }
      kubelet.watch();
      return kubelet;
    } catch (RuntimeException e) {
      kubelet.close();
      throw e;
    }
  }

  /** Pods whose name starts with {@code prefix}. */
  public static Predicate<Pod> namePrefix(String prefix) {
    return pod -> pod.getMetadata().getName().startsWith(prefix);
  }

  /** Pods carrying label {@code key=value} (Job pods carry {@code job-name=<job>}). */
  public static Predicate<Pod> labelled(String key, String value) {
    return pod -> {
      Map<String, String> labels = pod.getMetadata().getLabels();
      return labels != null && value.equals(labels.get(key));
    };
  }

  /** Runs pods matching {@code matcher} per {@code script}; later rules take precedence. */
  public FakeKubelet when(Predicate<Pod> matcher, PodScript script) {
    rules.add(0, new Rule(Objects.requireNonNull(matcher), Objects.requireNonNull(script)));
    return this;
  }

  /** The script for pods no rule matches (initially {@link PodScript#runForever()}). */
  public FakeKubelet otherwise(PodScript script) {
    defaultScript = Objects.requireNonNull(script);
    return this;
  }

  /** The registered nodes, in registration order. */
  public List<FakeNode> nodes() {
    synchronized (nodes) {
      return List.copyOf(nodes.values());
    }
  }

  /** The HTTPS port of the log endpoint on 127.0.0.1 (each Node's kubelet endpoint port). */
  public int port() {
    return logServer.port();
  }

  // ------------------------------------------------------------------ nodes

  private void register(FakeNode node) {
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    capacity.put("cpu", new Quantity("64"));
    capacity.put("memory", new Quantity("512Gi"));
    capacity.put("pods", new Quantity("110"));
    capacity.put("ephemeral-storage", new Quantity("1Ti"));
    if (node.gpus() > 0) {
      capacity.put(NodeFit.GPU, new Quantity(Integer.toString(node.gpus())));
    }
    String now = now();
    Node desired =
        new NodeBuilder()
            .withNewMetadata()
            .withName(node.name())
            .withLabels(node.allLabels())
            .addToAnnotations("benchplan.dev/fake-kubelet", "true")
            .endMetadata()
            .withNewSpec()
            .withTaints(node.taints())
            .withUnschedulable(node.unschedulable() ? Boolean.TRUE : null)
            .endSpec()
            .withNewStatus()
            .withCapacity(capacity)
            .withAllocatable(capacity)
            // InternalIP 127.0.0.1 only: a Hostname address would send the apiserver to DNS
            .addNewAddress("127.0.0.1", "InternalIP")
            .withNewDaemonEndpoints()
            .withNewKubeletEndpoint(port())
            .endDaemonEndpoints()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .withReason("KubeletReady")
            .withMessage("kubelet stand-in is posting ready status")
            .withLastHeartbeatTime(now)
            .withLastTransitionTime(now)
            .endCondition()
            .withNewNodeInfo()
            .withArchitecture("amd64")
            .withOperatingSystem("linux")
            .withKubeletVersion(KubeTestCluster.KUBERNETES_VERSION)
            .withKubeProxyVersion(KubeTestCluster.KUBERNETES_VERSION)
            .withContainerRuntimeVersion("fake://1.0")
            .withOsImage("benchplan fake kubelet")
            .withKernelVersion("0")
            .withBootID("fake")
            .withMachineID("fake")
            .withSystemUUID("fake")
            .endNodeInfo()
            .endStatus()
            .build();
    // a node left behind by a killed test run is replaced
    client.nodes().withName(node.name()).withGracePeriod(0).delete();
    Node created = client.nodes().resource(desired).create();
    if (created.getStatus() == null
        || created.getStatus().getAddresses() == null
        || created.getStatus().getAddresses().isEmpty()) {
      // a merge patch without resourceVersion: the node lifecycle controller may already have
      // tainted
      // the new node, and an update carrying create's resourceVersion would then fail with 409
      client
          .nodes()
          .withName(node.name())
          .subresource("status")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              client.getKubernetesSerialization().asJson(Map.of("status", desired.getStatus())));
    }
    synchronized (nodes) {
      nodes.put(node.name(), node);
    }
  }

  // ------------------------------------------------------------------ pod events

  private void watch() {
    ResourceEventHandler<Pod> handler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod pod) {
            submit(() -> onPod(pod));
          }

          @Override
          public void onUpdate(Pod oldPod, Pod pod) {
            submit(() -> onPod(pod));
          }

          @Override
          public void onDelete(Pod pod, boolean finalStateUnknown) {
            submit(() -> onGone(pod));
          }
        };
    informer =
        namespace == null
            ? client.pods().inAnyNamespace().inform(handler, 0)
            : client.pods().inNamespace(namespace).inform(handler, 0);
  }

  private void submit(Runnable task) {
    if (!closed) {
      worker.execute(() -> guarded(task));
    }
  }

  private void later(PodRun run, Duration delay, Runnable task) {
    if (!closed) {
      run.timers.add(worker.schedule(() -> guarded(task), delay.toMillis(), TimeUnit.MILLISECONDS));
    }
  }

  private void guarded(Runnable task) {
    try {
      if (!closed) {
        task.run();
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 409) {
        System.err.println("[fake-kubelet] " + e.getMessage());
      }
    } catch (RuntimeException e) {
      System.err.println("[fake-kubelet] " + e);
      e.printStackTrace();
    }
  }

  private void onPod(Pod pod) {
    String uid = pod.getMetadata().getUid();
    String nodeName = pod.getSpec().getNodeName();
    if (nodeName != null && !ownsNode(nodeName)) {
      return; // another kubelet's pod
    }
    if (nodeName == null
        && (!isDefaultScheduler(pod) || !namespaceFilter.test(pod.getMetadata().getNamespace()))) {
      return; // another scheduler's pod, or a namespace of another test context
    }
    PodRun run = runsByUid.get(uid);
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      if (run != null && nodeName != null && run.stage != Stage.DELETING) {
        // a real kubelet stops the containers, then deletes with grace 0; until then the pod hangs
        run.stage = Stage.DELETING;
        stopRun(run);
        client.pods().inNamespace(run.namespace).withName(run.name).withGracePeriod(0).delete();
      }
      return;
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (run == null) {
      if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
        return; // finished before this stand-in started
      }
      run = new PodRun(pod, scriptFor(pod));
      runsByUid.put(uid, run);
      runsByName.put(key(run.namespace, run.name), run);
    }
    run.pod = pod;
    if (run.stage == Stage.NEW || run.stage == Stage.UNSCHEDULABLE) {
      if (nodeName == null) {
        schedule(run);
      } else {
        run.node = nodeName;
        start(run);
      }
    }
  }

  private void onGone(Pod pod) {
    PodRun run = runsByUid.remove(pod.getMetadata().getUid());
    if (run != null) {
      stopRun(run);
      runsByName.remove(key(run.namespace, run.name), run);
      retryUnschedulable();
    }
  }

  private PodScript scriptFor(Pod pod) {
    for (Rule rule : rules) {
      if (rule.matcher().test(pod)) {
        return rule.script();
      }
    }
    return defaultScript;
  }

  private boolean ownsNode(String name) {
    synchronized (nodes) {
      return nodes.containsKey(name);
    }
  }

  private static boolean isDefaultScheduler(Pod pod) {
    String s = pod.getSpec().getSchedulerName();
    return s == null || s.isEmpty() || "default-scheduler".equals(s);
  }

  // ------------------------------------------------------------------ scheduling

  private void schedule(PodRun run) {
    if (run.script.kind() == PodScript.Kind.STAY_PENDING) {
      markUnschedulable(run, run.script.message());
      run.stage = Stage.PENDING_FOREVER;
      return;
    }
    Map<String, Integer> misfits = new TreeMap<>();
    String chosen = null;
    List<FakeNode> candidates = nodes();
    for (FakeNode node : candidates) {
      String why = NodeFit.misfit(run.pod, node, gpusFree(node));
      if (why == null) {
        chosen = node.name();
        break;
      }
      misfits.merge(why, 1, Integer::sum);
    }
    if (chosen == null) {
      StringBuilder msg = new StringBuilder("0/" + candidates.size() + " nodes are available: ");
      List<String> parts = new ArrayList<>();
      misfits.forEach((why, n) -> parts.add(n + " " + why));
      msg.append(String.join(", ", parts)).append('.');
      markUnschedulable(run, msg.toString());
      run.stage = Stage.UNSCHEDULABLE;
      return;
    }
    client
        .bindings()
        .inNamespace(run.namespace)
        .resource(
            new BindingBuilder()
                .withNewMetadata()
                .withName(run.name)
                .withNamespace(run.namespace)
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(chosen)
                .endTarget()
                .build())
        .create();
    run.node = chosen;
    event(
        run,
        "Normal",
        "Scheduled",
        "Successfully assigned " + run.namespace + "/" + run.name + " to " + chosen);
    start(run);
  }

  private int gpusFree(FakeNode node) {
    int used = 0;
    for (PodRun r : runsByUid.values()) {
      if (r.holdsNode() && node.name().equals(r.node)) {
        used += NodeFit.gpuRequest(r.pod);
      }
    }
    return node.gpus() - used;
  }

  private void markUnschedulable(PodRun run, String message) {
    if (message.equals(run.unschedulableMessage)) {
      return;
    }
    run.unschedulableMessage = message;
    // the event first: whoever sees the condition finds the event too
    event(run, "Warning", "FailedScheduling", message);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", "Pending");
    status.put("conditions", List.of(condition("PodScheduled", "False", "Unschedulable", message)));
    patchStatus(run, status);
  }

  private void retryUnschedulable() {
    for (PodRun r : List.copyOf(runsByUid.values())) {
      if (r.stage == Stage.UNSCHEDULABLE) {
        schedule(r);
      }
    }
  }

  // ------------------------------------------------------------------ running

  private void start(PodRun run) {
    PodScript script = run.script;
    if (script.kind() == PodScript.Kind.STAY_PENDING) {
      run.stage = Stage.PENDING_FOREVER; // pinned by nodeName: still never starts
      return;
    }
    if (script.kind() == PodScript.Kind.IMAGE_PULL_BACKOFF) {
      run.stage = Stage.WAITING;
      Map<String, Object> status = baseStatus(run, "Pending");
      status.put(
          "conditions",
          List.of(
              condition("Initialized", "True", null, null),
              condition(
                  "Ready",
                  "False",
                  "ContainersNotReady",
                  "containers with unready status: " + containerNames(run)),
              condition(
                  "ContainersReady",
                  "False",
                  "ContainersNotReady",
                  "containers with unready status: " + containerNames(run)),
              condition("PodScheduled", "True", null, null)));
      List<ContainerStatus> statuses = new ArrayList<>();
      for (Container c : run.pod.getSpec().getContainers()) {
        statuses.add(
            containerStatus(c, false)
                .withState(
                    new ContainerStateBuilder()
                        .withNewWaiting()
                        .withReason("ImagePullBackOff")
                        .withMessage("Back-off pulling image \"" + c.getImage() + "\"")
                        .endWaiting()
                        .build())
                .build());
      }
      status.put("containerStatuses", statuses);
      event(run, "Warning", "Failed", "Error: ImagePullBackOff");
      patchStatus(run, status);
      return;
    }
    if (script.kind() == PodScript.Kind.EXECUTE) {
      execute(run);
      return;
    }
    // RUN: the logs exist before anyone can see the pod Running
    Map<String, List<String>> pending = new LinkedHashMap<>();
    for (Container c : run.pod.getSpec().getContainers()) {
      ContainerLog log = new ContainerLog();
      run.logs.put(c.getName(), log);
      pending.put(c.getName(), ContainerLog.split(script.logFor(c.getName())));
    }
    if (run.pod.getSpec().getInitContainers() != null) {
      for (Container c : run.pod.getSpec().getInitContainers()) {
        ContainerLog log = new ContainerLog();
        log.finish();
        run.logs.put(c.getName(), log);
      }
    }
    int maxLines = 0;
    if (script.lineInterval().isZero()) {
      pending.forEach((container, lines) -> lines.forEach(run.logs.get(container)::append));
    } else {
      for (Map.Entry<String, List<String>> e : pending.entrySet()) {
        ContainerLog log = run.logs.get(e.getKey());
        List<String> lines = e.getValue();
        maxLines = Math.max(maxLines, lines.size());
        for (int i = 0; i < lines.size(); i++) {
          String line = lines.get(i);
          later(run, script.lineInterval().multipliedBy(i), () -> log.append(line));
        }
      }
    }
    run.stage = Stage.RUNNING;
    Instant started = Instant.now();
    patchStatus(run, runningStatus(run, started));
    if (script.exitCode() != null) {
      Duration streamed = script.lineInterval().multipliedBy(Math.max(0, maxLines - 1));
      Duration end = script.runFor().compareTo(streamed) > 0 ? script.runFor() : streamed;
      later(run, end, () -> terminate(run, started, script.exitCode()));
    }
  }

  /** EXECUTE: Running, then the containers' own commands run locally; their exit ends the pod. */
  private void execute(PodRun run) {
    for (Container c : run.pod.getSpec().getContainers()) {
      run.logs.put(c.getName(), new ContainerLog());
    }
    if (run.pod.getSpec().getInitContainers() != null) {
      for (Container c : run.pod.getSpec().getInitContainers()) {
        ContainerLog log = new ContainerLog();
        log.finish();
        run.logs.put(c.getName(), log);
      }
    }
    run.stage = Stage.RUNNING;
    Instant started = Instant.now();
    patchStatus(run, runningStatus(run, started));
    run.process =
        PodProcess.start(
            client,
            run.pod,
            run.script.execution(),
            run.logs,
            code -> submit(() -> terminate(run, started, code)));
  }

  private void terminate(PodRun run, Instant started, int exitCode) {
    if (run.stage != Stage.RUNNING) {
      return;
    }
    run.stage = Stage.TERMINATED;
    run.logs.values().forEach(ContainerLog::finish);
    String finished = now();
    boolean ok = exitCode == 0;
    Map<String, Object> status = baseStatus(run, ok ? "Succeeded" : "Failed");
    String reason = ok ? "PodCompleted" : "ContainersNotReady";
    status.put(
        "conditions",
        List.of(
            condition("Initialized", "True", ok ? "PodCompleted" : null, null),
            condition(
                "Ready",
                "False",
                reason,
                ok ? null : "containers with unready status: " + containerNames(run)),
            condition(
                "ContainersReady",
                "False",
                reason,
                ok ? null : "containers with unready status: " + containerNames(run)),
            condition("PodScheduled", "True", null, null)));
    List<ContainerStatus> statuses = new ArrayList<>();
    for (Container c : run.pod.getSpec().getContainers()) {
      statuses.add(
          containerStatus(c, false)
              .withStarted(false)
              .withState(
                  new ContainerStateBuilder()
                      .withNewTerminated()
                      .withExitCode(exitCode)
                      .withReason(ok ? "Completed" : "Error")
                      .withStartedAt(started.truncatedTo(ChronoUnit.SECONDS).toString())
                      .withFinishedAt(finished)
                      .withContainerID(containerId(run, c))
                      .endTerminated()
                      .build())
              .build());
    }
    status.put("containerStatuses", statuses);
    status.put("initContainerStatuses", initStatuses(run, started));
    patchStatus(run, status);
    retryUnschedulable();
  }

  private Map<String, Object> runningStatus(PodRun run, Instant started) {
    Map<String, Object> status = baseStatus(run, "Running");
    status.put(
        "conditions",
        List.of(
            condition("Initialized", "True", null, null),
            condition("Ready", "True", null, null),
            condition("ContainersReady", "True", null, null),
            condition("PodScheduled", "True", null, null)));
    List<ContainerStatus> statuses = new ArrayList<>();
    for (Container c : run.pod.getSpec().getContainers()) {
      statuses.add(
          containerStatus(c, true)
              .withStarted(true)
              .withState(
                  new ContainerStateBuilder()
                      .withNewRunning()
                      .withStartedAt(started.truncatedTo(ChronoUnit.SECONDS).toString())
                      .endRunning()
                      .build())
              .build());
    }
    status.put("containerStatuses", statuses);
    status.put("initContainerStatuses", initStatuses(run, started));
    return status;
  }

  private List<ContainerStatus> initStatuses(PodRun run, Instant started) {
    List<ContainerStatus> out = new ArrayList<>();
    if (run.pod.getSpec().getInitContainers() != null) {
      String at = started.truncatedTo(ChronoUnit.SECONDS).toString();
      for (Container c : run.pod.getSpec().getInitContainers()) {
        out.add(
            containerStatus(c, true)
                .withState(
                    new ContainerStateBuilder()
                        .withNewTerminated()
                        .withExitCode(0)
                        .withReason("Completed")
                        .withStartedAt(at)
                        .withFinishedAt(at)
                        .withContainerID(containerId(run, c))
                        .endTerminated()
                        .build())
                .build());
      }
    }
    return out;
  }

  private Map<String, Object> baseStatus(PodRun run, String phase) {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", phase);
    status.put("hostIP", "127.0.0.1");
    status.put("podIP", "127.0.0.1");
    status.put("podIPs", List.of(Map.of("ip", "127.0.0.1")));
    status.put(
        "startTime",
        run.pod.getStatus() != null && run.pod.getStatus().getStartTime() != null
            ? run.pod.getStatus().getStartTime()
            : now());
    return status;
  }

  private static ContainerStatusBuilder containerStatus(Container c, boolean ready) {
    return new ContainerStatusBuilder()
        .withName(c.getName())
        .withImage(c.getImage())
        .withImageID("fake://" + c.getImage())
        .withReady(ready)
        .withRestartCount(0);
  }

  private static String containerId(PodRun run, Container c) {
    return "fake://" + run.namespace + "/" + run.name + "/" + c.getName();
  }

  private static String containerNames(PodRun run) {
    return "["
        + String.join(
            " ", run.pod.getSpec().getContainers().stream().map(Container::getName).toList())
        + "]";
  }

  private static PodCondition condition(String type, String status, String reason, String message) {
    String now = now();
    return new PodConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(now)
        .build();
  }

  private void stopRun(PodRun run) {
    PodProcess process = run.process;
    if (process != null) {
      process.close();
    }
    run.timers.forEach(t -> t.cancel(false));
    run.timers.clear();
    run.logs.values().forEach(ContainerLog::finish);
  }

  private void patchStatus(PodRun run, Map<String, Object> status) {
    String json = client.getKubernetesSerialization().asJson(Map.of("status", status));
    client
        .pods()
        .inNamespace(run.namespace)
        .withName(run.name)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), json);
  }

  private void event(PodRun run, String type, String reason, String message) {
    String now = now();
    client
        .v1()
        .events()
        .inNamespace(run.namespace)
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withGenerateName(run.name + ".")
                .withNamespace(run.namespace)
                .endMetadata()
                .withNewInvolvedObject()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(run.name)
                .withNamespace(run.namespace)
                .withUid(run.pod.getMetadata().getUid())
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource()
                .withComponent(
                    "Scheduled".equals(reason) || "FailedScheduling".equals(reason)
                        ? "default-scheduler"
                        : "kubelet")
                .endSource()
                .build())
        .create();
  }

  private static String now() {
    return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  // ------------------------------------------------------------------ logs

  private KubeletLogServer.Lookup findLog(String ns, String podName, String container) {
    PodRun run = runsByName.get(key(ns, podName));
    if (run == null) {
      return KubeletLogServer.Lookup.error(404, "pod " + ns + "/" + podName + " not found");
    }
    ContainerLog log = run.logs.get(container);
    if (log != null) {
      return KubeletLogServer.Lookup.of(log);
    }
    boolean known =
        run.pod.getSpec().getContainers().stream().anyMatch(c -> c.getName().equals(container));
    if (!known) {
      return KubeletLogServer.Lookup.error(
          400, "container " + container + " is not valid for pod " + podName);
    }
    String why =
        run.stage == Stage.WAITING ? "trying and failing to pull image" : "ContainerCreating";
    return KubeletLogServer.Lookup.error(
        400,
        "container \"" + container + "\" in pod \"" + podName + "\" is waiting to start: " + why);
  }

  // ------------------------------------------------------------------ shutdown

  /**
   * Stops watching, force-deletes every pod bound to its nodes (as the node going away would leave
   * them hanging otherwise), deletes its Nodes and stops the log endpoint.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (informer != null) {
      informer.close();
    }
    worker.shutdownNow();
    runsByName
        .values()
        .forEach(
            r -> {
              PodProcess process = r.process;
              if (process != null) {
                process.close();
              }
              r.logs.values().forEach(ContainerLog::finish);
            });
    for (FakeNode node : nodes()) {
      try {
        for (Pod pod :
            client
                .pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node.name())
                .list()
                .getItems()) {
          client
              .pods()
              .inNamespace(pod.getMetadata().getNamespace())
              .withName(pod.getMetadata().getName())
              .withGracePeriod(0)
              .delete();
        }
        client.nodes().withName(node.name()).withGracePeriod(0).delete();
      } catch (KubernetesClientException e) {
        System.err.println("[fake-kubelet] cleanup of node " + node.name() + ": " + e.getMessage());
      }
    }
    logServer.close();
  }
}
