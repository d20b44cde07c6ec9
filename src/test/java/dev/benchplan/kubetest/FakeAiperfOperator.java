package dev.benchplan.kubetest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A stand-in for AIPerf's Kubernetes operator in one namespace: it watches AIPerfJobs, moves each
 * one's status through Pending, Running (warmup, then profiling with request counts) to Completed
 * (or Failed), and serves the files of a real AIPerf artifact tree at the results API's paths
 * ({@code /api/v1/results/NS/JOB/runs/EPOCH[/FILE]}, with the ready marker) from an HTTP server
 * behind a Service that the API server's service proxy reaches.
 *
 * <p>How the proxy reaches it here: kube-apiserver refuses loopback endpoint addresses, and 1.20
 * only proxies to an Endpoints address whose {@code targetRef} is a Pod listing that IP in {@code
 * status.podIPs}. So the server binds the machine's first non-loopback IPv4 address, and a
 * placeholder Pod (never scheduled) carries that IP, as the operator's own pod would.
 *
 * <p>What it does that AIPerf's operator does not, each kept for a reason:
 *
 * <ul>
 *   <li>It runs no JobSet and no worker pods: the status walks Pending, warmup, profiling and an
 *       end state at once, and the end state is the {@link Mode} the test chose (a real engine
 *       cannot be made to fail, hang or cut a file short on demand). A test that must see the
 *       running status holds each job there ({@link #holdRunning}) until it {@link #proceed}s: no
 *       time passes that a loaded machine could outrun.
 *   <li>The results it serves are a folder the test gives, not what pods wrote.
 *   <li>{@link #traceChecks} records what the pods' trace init container would find, which the
 *       operator itself never computes: there are no pods to run that container.
 *   <li>Its placeholder Pod carries a pod IP without ever being scheduled: 1.20's service proxy
 *       reaches only an Endpoints address backed by such a Pod.
 *   <li>The AIPerfJob and JobSet CRDs it installs are this test tree's own, not the operator's
 *       chart.
 * </ul>
 */
public final class FakeAiperfOperator implements AutoCloseable {
  public static final ResourceDefinitionContext AIPERFJOBS =
      new ResourceDefinitionContext.Builder()
          .withGroup("aiperf.nvidia.com")
          .withVersion("v1alpha1")
          .withPlural("aiperfjobs")
          .withKind("AIPerfJob")
          .withNamespaced(true)
          .build();
  public static final String SERVICE = "aiperf-operator";
  public static final String READY_MARKER = ".aiperf_results_ready.json";

  /**
   * How the stand-in ends a job: {@code HANG} keeps it Running (profiling) until {@code
   * spec.cancel} is set, then reports Cancelled, as AIPerf's operator does.
   */
  public enum Mode {
    COMPLETE,
    FAIL,
    SHORT_FILE,
    HANG
  }

  private final KubernetesClient client;
  private final String namespace;
  private final HttpServer server;
  private final SharedIndexInformer<GenericKubernetesResource> informer;
  private final ExecutorService workers = Executors.newCachedThreadPool();
  private final Map<String, Map<String, byte[]>> stored = new ConcurrentHashMap<>();
  private final Map<String, Long> epochs = new ConcurrentHashMap<>();

  /** Guarded by itself; waiters are notified of each new name. */
  private final List<String> seen = new ArrayList<>();

  private final List<String> cancelled = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, java.util.concurrent.CountDownLatch> cancels =
      new ConcurrentHashMap<>();
  private final Map<String, java.util.concurrent.CountDownLatch> running =
      new ConcurrentHashMap<>();
  private final Map<String, java.util.concurrent.CountDownLatch> proceeds =
      new ConcurrentHashMap<>();
  private volatile Mode mode = Mode.COMPLETE;
  private volatile boolean holdRunning;
  private volatile Function<GenericKubernetesResource, Path> results;
  private volatile String shortFile = "profile_export.jsonl";

  private FakeAiperfOperator(KubernetesClient client, String namespace, HttpServer server) {
    this.client = client;
    this.namespace = namespace;
    this.server = server;
    this.informer =
        client
            .genericKubernetesResources(AIPERFJOBS)
            .inNamespace(namespace)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource r) {
                    String name = r.getMetadata().getName();
                    synchronized (seen) {
                      seen.add(name);
                      seen.notifyAll();
                    }
                    Mode m = mode;
                    boolean hold = holdRunning;
                    workers.submit(() -> drive(name, r, m, hold));
                  }

                  @Override
                  public void onUpdate(GenericKubernetesResource o, GenericKubernetesResource n) {
                    Object spec = n.getAdditionalProperties().get("spec");
                    if (spec instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("cancel"))) {
                      String name = n.getMetadata().getName();
                      if (!cancelled.contains(name)) {
                        cancelled.add(name);
                      }
                      latch(cancels, name).countDown();
                    }
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource r, boolean unknown) {}
                });
  }

  /** Installs both test CRDs (idempotent; CRDs are cluster-scoped and the env is shared). */
  public static void installCrds(KubernetesClient client) {
    for (String file : List.of("aiperfjob-crd.yaml", "jobset-crd.yaml")) {
      CustomResourceDefinition crd;
      try (InputStream in = FakeAiperfOperator.class.getResourceAsStream(file)) {
        crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      try {
        client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        // installed by an earlier run: bring its schema up to this file's (a superset: fields are
        // only added)
        CustomResourceDefinition existing =
            client
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(crd.getMetadata().getName())
                .get();
        if (existing != null && !existing.getSpec().equals(crd.getSpec())) {
          crd.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
          client.apiextensions().v1().customResourceDefinitions().resource(crd).update();
        }
      }
      client
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(crd.getMetadata().getName())
          .waitUntilCondition(
              c ->
                  c != null
                      && c.getStatus() != null
                      && c.getStatus().getConditions() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(
                              x ->
                                  "Established".equals(x.getType())
                                      && "True".equals(x.getStatus())),
              30,
              TimeUnit.SECONDS);
    }
  }

  /**
   * Starts the stand-in in {@code namespace}: HTTP server, placeholder pod, Service and Endpoints.
   *
   * @param results the artifact folder each AIPerfJob's run "wrote"
   */
  public static FakeAiperfOperator start(
      KubernetesClient client, String namespace, Function<GenericKubernetesResource, Path> results)
      throws IOException {
    InetAddress address = nonLoopback();
    HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4));
    FakeAiperfOperator op = new FakeAiperfOperator(client, namespace, server);
    op.results = results;
    server.createContext("/api/v1/results/", op::serve);
    server.start();
    int port = server.getAddress().getPort();
    String ip = address.getHostAddress();
    Pod pod =
        client
            .pods()
            .inNamespace(namespace)
            .resource(
                new PodBuilder()
                    .withNewMetadata()
                    .withName(SERVICE + "-results")
                    .endMetadata()
                    .withNewSpec()
                    .addNewContainer()
                    .withName("results-server")
                    .withImage("aiperf-operator-stand-in")
                    .endContainer()
                    .endSpec()
                    .build())
            .create();
    pod.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPodIP(ip)
            .withPodIPs(new PodIP(ip))
            .withPhase("Running")
            .build());
    client.pods().inNamespace(namespace).resource(pod).updateStatus();
    client
        .services()
        .inNamespace(namespace)
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName(SERVICE)
                .endMetadata()
                .withNewSpec()
                .addNewPort()
                .withName("results")
                .withPort(8081)
                .withNewTargetPort(port)
                .endPort()
                .endSpec()
                .build())
        .create();
    client
        .endpoints()
        .inNamespace(namespace)
        .resource(
            new EndpointsBuilder()
                .withNewMetadata()
                .withName(SERVICE)
                .endMetadata()
                .addNewSubset()
                .addNewAddress()
                .withIp(ip)
                .withNewTargetRef()
                .withKind("Pod")
                .withName(SERVICE + "-results")
                .withNamespace(namespace)
                .endTargetRef()
                .endAddress()
                .addNewPort()
                .withName("results")
                .withPort(port)
                .endPort()
                .endSubset()
                .build())
        .create();
    return op;
  }

  /** The results-service annotation value pointing at this stand-in. */
  public String resultsService() {
    return namespace + "/" + SERVICE + ":8081";
  }

  public void mode(Mode m) {
    mode = m;
  }

  /**
   * Whether jobs created from now on stay Running (profiling) until {@link #proceed} names them
   * (COMPLETE, FAIL and SHORT_FILE; a HANG job waits for spec.cancel anyway).
   */
  public void holdRunning(boolean hold) {
    holdRunning = hold;
  }

  /** Lets a job held at Running (profiling) go on to its end state. */
  public void proceed(String name) {
    latch(proceeds, name).countDown();
  }

  /** AIPerfJob names seen, in order of creation. */
  public List<String> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /**
   * The name of the AIPerfJob seen at {@code index} (0-based, in order of creation), waiting up to
   * {@code seconds} for it to be created; null when none came.
   */
  public @Nullable String awaitSeen(int index, long seconds) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    synchronized (seen) {
      while (seen.size() <= index) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        TimeUnit.NANOSECONDS.timedWait(seen, left);
      }
      return seen.get(index);
    }
  }

  private static java.util.concurrent.CountDownLatch latch(
      Map<String, java.util.concurrent.CountDownLatch> m, String name) {
    return m.computeIfAbsent(name, n -> new java.util.concurrent.CountDownLatch(1));
  }

  /** AIPerfJob names whose {@code spec.cancel} the stand-in saw set, in order. */
  public List<String> cancelled() {
    return List.copyOf(cancelled);
  }

  /**
   * Waits until the stand-in reports {@code name} Running (profiling); false after {@code seconds}.
   */
  public boolean awaitRunning(String name, long seconds) throws InterruptedException {
    return latch(running, name).await(seconds, TimeUnit.SECONDS);
  }

  /**
   * Waits until the stand-in has seen {@code spec.cancel} set on {@code name}; false after {@code
   * seconds}.
   */
  public boolean awaitCancelled(String name, long seconds) throws InterruptedException {
    return latch(cancels, name).await(seconds, TimeUnit.SECONDS);
  }

  /**
   * For each AIPerfJob that mounts a trace ConfigMap: what its pods' trace check would say, the
   * ConfigMap's {@code trace.jsonl} hashed against the init container's expected SHA-256 when the
   * stand-in first saw the job ({@code ok <sha>}, {@code mismatch ...} or {@code missing ...}).
   */
  public Map<String, String> traceChecks() {
    return Map.copyOf(traceChecks);
  }

  private final Map<String, String> traceChecks = new ConcurrentHashMap<>();

  @SuppressWarnings("unchecked")
  private void checkTrace(String name, GenericKubernetesResource job) {
    Map<String, Object> spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
    Map<String, Object> pod = spec == null ? null : (Map<String, Object>) spec.get("podTemplate");
    List<Map<String, Object>> volumes =
        pod == null ? null : (List<Map<String, Object>>) pod.get("volumes");
    List<Map<String, Object>> inits =
        pod == null ? null : (List<Map<String, Object>>) pod.get("initContainers");
    if (volumes == null || inits == null || volumes.isEmpty() || inits.isEmpty()) {
      return;
    }
    Map<String, Object> cm = (Map<String, Object>) volumes.get(0).get("configMap");
    if (cm == null) {
      return;
    }
    List<String> cmd = (List<String>) inits.get(0).get("command");
    String expected = cmd.get(cmd.size() - 1);
    var map = client.configMaps().inNamespace(namespace).withName((String) cm.get("name")).get();
    if (map == null || map.getData() == null || !map.getData().containsKey("trace.jsonl")) {
      traceChecks.put(name, "missing ConfigMap " + cm.get("name"));
      return;
    }
    String actual =
        dev.benchplan.json.Sha256.hex(
            map.getData().get("trace.jsonl").getBytes(StandardCharsets.UTF_8));
    traceChecks.put(
        name, actual.equals(expected) ? "ok " + actual : "mismatch " + actual + " != " + expected);
  }

  private void drive(String name, GenericKubernetesResource created, Mode m, boolean hold) {
    try {
      checkTrace(name, created);
      status(name, Map.of("phase", "Pending"));
      status(name, Map.of("phase", "Running", "currentPhase", "warmup"));
      status(
          name,
          Map.of(
              "phase",
              "Running",
              "currentPhase",
              "profiling",
              "requestsCompleted",
              40,
              "requestsTotal",
              80));
      latch(running, name).countDown();
      if (m == Mode.HANG) {
        // AIPerf's operator stops the JobSet on spec.cancel and reports the job Cancelled
        if (latch(cancels, name).await(120, TimeUnit.SECONDS)) {
          status(
              name,
              Map.of(
                  "phase",
                  "Cancelled",
                  "currentPhase",
                  "profiling",
                  "requestsCompleted",
                  40,
                  "requestsTotal",
                  80));
        }
        return;
      }
      if (hold && !latch(proceeds, name).await(120, TimeUnit.SECONDS)) {
        return; // the test never let it go on: it stays Running, as a stuck job would
      }
      if (m == Mode.FAIL) {
        status(name, Map.of("phase", "Failed", "error", "worker pods lost: 2 of 3 workers exited"));
        return;
      }
      long epoch = 1_780_000_000L + seen().size();
      Map<String, byte[]> files = new LinkedHashMap<>();
      Path dir = results.apply(created);
      try (var s = Files.list(dir)) {
        for (Path p : s.sorted().toList()) {
          files.put(p.getFileName().toString(), Files.readAllBytes(p));
        }
      }
      files.put(
          READY_MARKER,
          ("{\"was_cancelled\": false, \"terminal_phase\": \"Completed\", \"job\": \""
                  + name
                  + "\"}")
              .getBytes(StandardCharsets.UTF_8));
      stored.put(name + "/" + epoch, files);
      epochs.put(name, epoch);
      if (m == Mode.SHORT_FILE) {
        shortFiles.put(name + "/" + epoch, shortFile);
      }
      status(
          name,
          Map.of(
              "phase",
              "Completed",
              "requestsCompleted",
              80,
              "requestsTotal",
              80,
              "runEpoch",
              epoch));
    } catch (Exception e) {
      e.printStackTrace();
    }
  }

  private final Map<String, String> shortFiles = new ConcurrentHashMap<>();

  /** Every status field {@link #drive} writes: a new status clears the ones it does not set. */
  private static final List<String> STATUS_FIELDS =
      List.of("phase", "currentPhase", "requestsCompleted", "requestsTotal", "error", "runEpoch");

  /**
   * Sets an AIPerfJob's status with a merge patch of its status subresource, not a read and an
   * update: the run under test may delete the AIPerfJob between the two (the update then answered
   * 409 or 404, or wrote over a newer status). Fields of the previous status that this one does not
   * set are patched to null, so the status reads as {@code status} alone, as an update left it. A
   * deleted AIPerfJob answers 404: it has no status left to report.
   */
  private void status(String name, Map<String, Object> status) {
    Map<String, Object> fields = new LinkedHashMap<>();
    STATUS_FIELDS.forEach(f -> fields.put(f, null));
    fields.putAll(status);
    tools.jackson.databind.node.ObjectNode patch = dev.benchplan.json.Json.JSON.createObjectNode();
    patch.set("status", dev.benchplan.json.Json.JSON.valueToTree(fields));
    try {
      client
          .genericKubernetesResources(AIPERFJOBS)
          .inNamespace(namespace)
          .withName(name)
          .subresource("status")
          .patch(
              io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                  io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
              patch.toString());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  private void serve(HttpExchange ex) throws IOException {
    try (ex) {
      // /api/v1/results/NS/JOB/runs/EPOCH[/FILE]
      String[] parts = ex.getRequestURI().getPath().split("/", 9);
      if (parts.length < 8 || !parts[6].equals("runs")) {
        send(
            ex, 409, "{\"detail\": \"pin a run: /runs/{epoch}\"}".getBytes(StandardCharsets.UTF_8));
        return;
      }
      String key = parts[5] + "/" + parts[7];
      Map<String, byte[]> files = stored.get(key);
      if (files == null) {
        send(ex, 404, "{\"detail\": \"no results\"}".getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (parts.length == 8) {
        StringBuilder sb =
            new StringBuilder(
                "{\"namespace\": \""
                    + parts[4]
                    + "\", \"job_id\": \""
                    + parts[5]
                    + "\", \"files\": [");
        int i = 0;
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
          sb.append(i++ == 0 ? "" : ", ")
              .append("{\"name\": \"")
              .append(e.getKey())
              .append("\", \"stored_name\": \"")
              .append(e.getKey())
              .append("\", \"size_bytes\": ")
              .append(e.getValue().length)
              .append(", \"compressed\": false}");
        }
        send(ex, 200, sb.append("]}").toString().getBytes(StandardCharsets.UTF_8));
        return;
      }
      byte[] body = files.get(parts[8]);
      if (body == null) {
        send(ex, 404, "{\"detail\": \"no such file\"}".getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (parts[8].equals(shortFiles.get(key))) {
        // a broken stream: the body ends early, and only its length shows it (chunked, no length)
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body, 0, body.length / 2);
        }
        return;
      }
      send(ex, 200, body);
    }
  }

  private static void send(HttpExchange ex, int code, byte[] body) throws IOException {
    ex.sendResponseHeaders(code, body.length == 0 ? -1 : body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  private static InetAddress nonLoopback() throws IOException {
    for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!ni.isUp() || ni.isLoopback()) {
        continue;
      }
      for (InetAddress a : Collections.list(ni.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
          return a;
        }
      }
    }
    throw new IOException(
        "no non-loopback IPv4 address: the API server's service proxy cannot reach a local server");
  }

  @Override
  public void close() {
    informer.close();
    server.stop(0);
    workers.shutdownNow();
  }
}
