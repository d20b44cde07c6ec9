package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A Dynamo operator stand-in for {@code DynamoGraphDeployment} (nvidia.com/v1alpha1, the real
 * v0.9.0 CRD): it creates what the operator would and sets the status the v1alpha1 schema requires.
 *
 * <p>For each DGD it creates, owned by the DGD (so the real garbage collector removes them with
 * it): per {@code spec.services.<Name>} with {@code componentType: frontend} a Service {@link
 * #frontendServiceName <dgd>-<lowercased name>} (port 8000 named {@code http}), and per service
 * {@code replicas} pods {@code <dgd>-<lowercased name>-<i>} with the operator's labels ({@code
 * nvidia.com/dynamo-graph-deployment-name}, {@code nvidia.com/dynamo-component-type}, {@code
 * nvidia.com/dynamo-component}, {@code nvidia.com/dynamo-namespace=<ns>-<dgd>}), a container {@code
 * main} with {@code resources.limits.gpu} as {@code nvidia.com/gpu}, and the service's {@code
 * extraPodSpec} (node selector, tolerations, affinity, mainContainer image/command/args). A {@link
 * FakeKubelet} then binds and runs those pods (its default script keeps them Running).
 *
 * <p>{@link Mode#AUTO}: the DGD goes {@code pending} at once and {@code successful} when every one
 * of its pods is Running and Ready (after {@link #readyDelay}); pods that never run (no kubelet, no
 * free GPU, a {@link PodScript#stayPending()} script) keep it pending, as a real operator would.
 * {@link Mode#MANUAL}: nothing happens until a test calls {@link #makeSuccessful}, {@link
 * #makeFailed} or {@link #makePending}. Those calls work in both modes and return once the status
 * is written.
 *
 * <p>What it does that the real operator does not, each kept for a reason:
 *
 * <ul>
 *   <li>It creates pods and the frontend Service directly, owned by the DGD (the real one goes
 *       through DynamoComponentDeployments and Deployments): benchplan reads only the DGD's status,
 *       its pods by label and the Service.
 *   <li>{@link Mode#MANUAL} and {@link #makeSuccessful}/{@link #makeFailed}/{@link #makePending}
 *       set a state whatever the pods do: the tests need a failed or stuck deployment on demand.
 *   <li>{@link #readyDelay} holds {@code successful} back for a set time: the tests' stand-in for a
 *       slow model load.
 *   <li>It never scales, upgrades or rolls pods when a DGD changes: benchplan creates a DGD once.
 * </ul>
 */
public final class FakeDynamoOperator implements AutoCloseable {
  /** The v1alpha1 DynamoGraphDeployment resource. */
  public static final ResourceDefinitionContext DGD =
      new ResourceDefinitionContext.Builder()
          .withGroup("nvidia.com")
          .withVersion("v1alpha1")
          .withKind("DynamoGraphDeployment")
          .withPlural("dynamographdeployments")
          .withNamespaced(true)
          .build();

  /** The label that names a pod's DGD. */
  public static final String DGD_LABEL = "nvidia.com/dynamo-graph-deployment-name";

  /** How the stand-in reacts to a new DGD. */
  public enum Mode {
    /** Pending at once, successful when all of its pods run. */
    AUTO,
    /** Only on {@link #makeSuccessful}/{@link #makeFailed}/{@link #makePending}. */
    MANUAL
  }

  private final KubernetesClient client;
  private final String namespace;
  private final Predicate<String> namespaceFilter;
  private final Mode mode;
  private final ScheduledExecutorService worker;
  private final Map<String, Long> reconciledGeneration = new HashMap<>();
  private final Map<String, String> states = new HashMap<>();
  private volatile Duration readyDelay = Duration.ZERO;
  private volatile boolean closed;
  private SharedIndexInformer<GenericKubernetesResource> dgdInformer;
  private SharedIndexInformer<Pod> podInformer;

  private FakeDynamoOperator(
      KubernetesClient client, String namespace, Predicate<String> namespaceFilter, Mode mode) {
    this.client = client;
    this.namespace = namespace;
    this.namespaceFilter = namespaceFilter;
    this.mode = mode;
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fake-dynamo-operator");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Starts watching DGDs and their pods.
   *
   * @param client an admin client (kept open by the caller until {@link #close()})
   * @param namespace the namespace to watch, or null for every namespace
   * @param mode {@link Mode#AUTO} or {@link Mode#MANUAL}
   */
  public static FakeDynamoOperator start(KubernetesClient client, String namespace, Mode mode) {
    return start(client, namespace, ns -> true, mode);
  }

  /**
   * {@link #start(KubernetesClient, String, Mode)}, acting only in namespaces {@code
   * namespaceFilter} accepts.
   */
  static FakeDynamoOperator start(
      KubernetesClient client, String namespace, Predicate<String> namespaceFilter, Mode mode) {
    FakeDynamoOperator op =
        new FakeDynamoOperator(
            Objects.requireNonNull(client),
            namespace,
            namespaceFilter,
            Objects.requireNonNull(mode));
    try {
      op.watch();
      return op;
    } catch (RuntimeException e) {
      op.close();
      throw e;
    }
  }

  /**
   * The operator's Service name for a frontend component: {@code <dgd>-<name lowercased, dots ->
   * hyphens>}.
   */
  public static String frontendServiceName(String dgdName, String componentName) {
    return dgdName + "-" + componentName.toLowerCase(Locale.ROOT).replace('.', '-');
  }

  /** AUTO mode: how long to wait after every pod runs before the DGD turns successful. */
  public FakeDynamoOperator readyDelay(Duration delay) {
    this.readyDelay = Objects.requireNonNull(delay);
    return this;
  }

  /**
   * Creates the DGD's Service and pods if missing and sets {@code state: successful}, condition
   * Ready=True and every service's replica counts to its desired replicas, whatever its pods do.
   */
  public void makeSuccessful(String ns, String name) {
    onWorker(
        () -> {
          GenericKubernetesResource dgd = get(ns, name);
          ensureChildren(dgd);
          writeStatus(
              dgd, "successful", "True", "AllResourcesReady", "All resources are ready", true);
        });
  }

  /** Sets {@code state: failed} with condition Ready=False and {@code message}. */
  public void makeFailed(String ns, String name, String message) {
    onWorker(
        () -> writeStatus(get(ns, name), "failed", "False", "ReconcileFailed", message, false));
  }

  /** Sets {@code state: pending} with condition Ready=False and {@code message}. */
  public void makePending(String ns, String name, String message) {
    onWorker(
        () -> writeStatus(get(ns, name), "pending", "False", "ResourcesNotReady", message, false));
  }

  // ------------------------------------------------------------------ watching

  private void watch() {
    var dgds = client.genericKubernetesResources(DGD);
    ResourceEventHandler<GenericKubernetesResource> dgdHandler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource dgd) {
            submit(() -> onDgd(dgd));
          }

          @Override
          public void onUpdate(GenericKubernetesResource oldDgd, GenericKubernetesResource dgd) {
            submit(() -> onDgd(dgd));
          }

          @Override
          public void onDelete(GenericKubernetesResource dgd, boolean finalStateUnknown) {
            submit(() -> forget(dgd));
          }
        };
    ResourceEventHandler<Pod> podHandler =
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
            submit(() -> onPod(pod));
          }
        };
    if (namespace == null) {
      dgdInformer = dgds.inAnyNamespace().inform(dgdHandler, 0);
      podInformer = client.pods().inAnyNamespace().withLabel(DGD_LABEL).inform(podHandler, 0);
    } else {
      dgdInformer = dgds.inNamespace(namespace).inform(dgdHandler, 0);
      podInformer = client.pods().inNamespace(namespace).withLabel(DGD_LABEL).inform(podHandler, 0);
    }
  }

  private void submit(Runnable task) {
    if (!closed) {
      worker.execute(() -> guarded(task));
    }
  }

  private void onWorker(Runnable task) {
    try {
      worker.submit(task).get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("operator stand-in did not finish within 60 s", e);
    }
  }

  private void guarded(Runnable task) {
    try {
      if (!closed) {
        task.run();
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 409) {
        System.err.println("[fake-dynamo-operator] " + e.getMessage());
      }
    } catch (RuntimeException e) {
      System.err.println("[fake-dynamo-operator] " + e);
      e.printStackTrace();
    }
  }

  private void onDgd(GenericKubernetesResource dgd) {
    if (mode != Mode.AUTO
        || dgd.getMetadata().getDeletionTimestamp() != null
        || !namespaceFilter.test(dgd.getMetadata().getNamespace())) {
      return;
    }
    String key = key(dgd);
    Long generation = dgd.getMetadata().getGeneration();
    if (!Objects.equals(reconciledGeneration.get(key), generation)) {
      reconciledGeneration.put(key, generation);
      ensureChildren(dgd);
      writeStatus(
          dgd,
          "pending",
          "False",
          "ResourcesNotReady",
          "Waiting for the pods of every service to be ready",
          false);
    }
    checkReady(dgd);
  }

  private void onPod(Pod pod) {
    if (mode != Mode.AUTO) {
      return;
    }
    String dgdName = pod.getMetadata().getLabels().get(DGD_LABEL);
    String ns = pod.getMetadata().getNamespace();
    if (reconciledGeneration.containsKey(ns + "/" + dgdName)) {
      GenericKubernetesResource dgd =
          client.genericKubernetesResources(DGD).inNamespace(ns).withName(dgdName).get();
      if (dgd != null) {
        checkReady(dgd);
      }
    }
  }

  private void forget(GenericKubernetesResource dgd) {
    reconciledGeneration.remove(key(dgd));
    states.remove(key(dgd));
  }

  private void checkReady(GenericKubernetesResource dgd) {
    if ("successful".equals(states.get(key(dgd))) || !allPodsReady(dgd)) {
      return;
    }
    Runnable succeed =
        () -> {
          GenericKubernetesResource fresh =
              client
                  .genericKubernetesResources(DGD)
                  .inNamespace(dgd.getMetadata().getNamespace())
                  .withName(dgd.getMetadata().getName())
                  .get();
          if (fresh != null
              && !"successful".equals(states.get(key(fresh)))
              && allPodsReady(fresh)) {
            writeStatus(
                fresh, "successful", "True", "AllResourcesReady", "All resources are ready", true);
          }
        };
    if (readyDelay.isZero()) {
      succeed.run();
    } else {
      worker.schedule(() -> guarded(succeed), readyDelay.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private boolean allPodsReady(GenericKubernetesResource dgd) {
    Map<String, Integer> ready = readyPods(dgd);
    for (Map.Entry<String, Map<String, Object>> s : services(dgd).entrySet()) {
      if (ready.getOrDefault(s.getKey(), 0) < replicas(s.getValue())) {
        return false;
      }
    }
    return true;
  }

  private Map<String, Integer> readyPods(GenericKubernetesResource dgd) {
    Map<String, Integer> ready = new HashMap<>();
    for (Pod pod : podInformer.getStore().list()) {
      Map<String, String> labels = pod.getMetadata().getLabels();
      if (!pod.getMetadata().getNamespace().equals(dgd.getMetadata().getNamespace())
          || !dgd.getMetadata().getName().equals(labels.get(DGD_LABEL))
          || pod.getMetadata().getDeletionTimestamp() != null
          || pod.getStatus() == null
          || !"Running".equals(pod.getStatus().getPhase())) {
        continue;
      }
      boolean isReady =
          pod.getStatus().getConditions() != null
              && pod.getStatus().getConditions().stream()
                  .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
      if (isReady) {
        ready.merge(labels.get("nvidia.com/dynamo-component"), 1, Integer::sum);
      }
    }
    return ready;
  }

  // ------------------------------------------------------------------ children

  private void ensureChildren(GenericKubernetesResource dgd) {
    String ns = dgd.getMetadata().getNamespace();
    String name = dgd.getMetadata().getName();
    OwnerReference owner =
        new OwnerReferenceBuilder()
            .withApiVersion("nvidia.com/v1alpha1")
            .withKind("DynamoGraphDeployment")
            .withName(name)
            .withUid(dgd.getMetadata().getUid())
            .withController(true)
            .withBlockOwnerDeletion(true)
            .build();
    for (Map.Entry<String, Map<String, Object>> entry : services(dgd).entrySet()) {
      String component = entry.getKey();
      Map<String, Object> service = entry.getValue();
      String type = String.valueOf(service.getOrDefault("componentType", "worker"));
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put(DGD_LABEL, name);
      labels.put("nvidia.com/dynamo-component-type", type);
      labels.put("nvidia.com/dynamo-component", component);
      labels.put("nvidia.com/dynamo-namespace", ns + "-" + name);
      String base = frontendServiceName(name, component);
      if ("frontend".equals(type)
          && client.services().inNamespace(ns).withName(base).get() == null) {
        client
            .services()
            .inNamespace(ns)
            .resource(
                new ServiceBuilder()
                    .withNewMetadata()
                    .withName(base)
                    .withNamespace(ns)
                    .withLabels(labels)
                    .withOwnerReferences(owner)
                    .endMetadata()
                    .withNewSpec()
                    .withSelector(labels)
                    .addNewPort()
                    .withName("http")
                    .withPort(8000)
                    .withNewTargetPort(8000)
                    .withProtocol("TCP")
                    .endPort()
                    .endSpec()
                    .build())
            .create();
      }
      for (int i = 0; i < replicas(service); i++) {
        String podName = base + "-" + i;
        if (client.pods().inNamespace(ns).withName(podName).get() == null) {
          client
              .pods()
              .inNamespace(ns)
              .resource(pod(podName, ns, labels, owner, service, "frontend".equals(type)))
              .create();
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private Pod pod(
      String podName,
      String ns,
      Map<String, String> labels,
      OwnerReference owner,
      Map<String, Object> service,
      boolean frontend) {
    Map<String, Object> extra =
        new LinkedHashMap<>((Map<String, Object>) service.getOrDefault("extraPodSpec", Map.of()));
    Map<String, Object> main = (Map<String, Object>) extra.remove("mainContainer");
    PodSpec spec =
        extra.isEmpty()
            ? new PodSpec()
            : client.getKubernetesSerialization().convertValue(extra, PodSpec.class);
    Container container =
        main == null
            ? new Container()
            : client.getKubernetesSerialization().convertValue(main, Container.class);
    ContainerBuilder cb = new ContainerBuilder(container).withName("main");
    if (container.getImage() == null) {
      cb.withImage("dynamo-runtime:stand-in");
    }
    Map<String, Quantity> limits = quantities(service, "limits");
    Map<String, Quantity> requests = quantities(service, "requests");
    if (!limits.isEmpty() || !requests.isEmpty()) {
      cb.withNewResources()
          .withLimits(limits.isEmpty() ? null : limits)
          .withRequests(requests.isEmpty() ? null : requests)
          .endResources();
    }
    List<EnvVar> env = new ArrayList<>(container.getEnv() == null ? List.of() : container.getEnv());
    for (Object e : (List<Object>) service.getOrDefault("envs", List.of())) {
      env.add(client.getKubernetesSerialization().convertValue(e, EnvVar.class));
    }
    cb.withEnv(env);
    Object secret = service.get("envFromSecret");
    if (secret != null) {
      cb.addNewEnvFrom().withNewSecretRef().withName(secret.toString()).endSecretRef().endEnvFrom();
    }
    if (frontend) {
      cb.addNewPort().withName("http").withContainerPort(8000).withProtocol("TCP").endPort();
    }
    spec.setContainers(List.of(cb.build()));
    return new PodBuilder()
        .withNewMetadata()
        .withName(podName)
        .withNamespace(ns)
        .withLabels(labels)
        .withOwnerReferences(owner)
        .endMetadata()
        .withSpec(spec)
        .build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Quantity> quantities(Map<String, Object> service, String which) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    Map<String, Object> resources =
        (Map<String, Object>) service.getOrDefault("resources", Map.of());
    Map<String, Object> values = (Map<String, Object>) resources.getOrDefault(which, Map.of());
    values.forEach(
        (k, v) -> {
          if (v != null && !v.toString().isEmpty()) {
            out.put("gpu".equals(k) ? NodeFit.GPU : k, new Quantity(v.toString()));
          }
        });
    return out;
  }

  // ------------------------------------------------------------------ status

  private void writeStatus(
      GenericKubernetesResource dgd,
      String state,
      String ready,
      String reason,
      String message,
      boolean allReady) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", "Ready");
    condition.put("status", ready);
    condition.put("reason", reason);
    condition.put("message", message);
    condition.put("lastTransitionTime", now);
    if (dgd.getMetadata().getGeneration() != null) {
      condition.put("observedGeneration", dgd.getMetadata().getGeneration());
    }
    Map<String, Integer> readyPods = allReady ? Map.of() : readyPods(dgd);
    Map<String, Object> services = new LinkedHashMap<>();
    services(dgd)
        .forEach(
            (component, service) -> {
              int replicas = replicas(service);
              int readyCount = allReady ? replicas : readyPods.getOrDefault(component, 0);
              Map<String, Object> s = new LinkedHashMap<>();
              s.put("componentKind", "Deployment");
              s.put("componentName", frontendServiceName(dgd.getMetadata().getName(), component));
              s.put("replicas", replicas);
              s.put("updatedReplicas", replicas);
              s.put("readyReplicas", readyCount);
              s.put("availableReplicas", readyCount);
              services.put(component, s);
            });
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("state", state);
    status.put("conditions", List.of(condition));
    status.put("services", services);
    client
        .genericKubernetesResources(DGD)
        .inNamespace(dgd.getMetadata().getNamespace())
        .withName(dgd.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            client.getKubernetesSerialization().asJson(Map.of("status", status)));
    states.put(key(dgd), state);
  }

  private GenericKubernetesResource get(String ns, String name) {
    GenericKubernetesResource dgd =
        client.genericKubernetesResources(DGD).inNamespace(ns).withName(name).get();
    if (dgd == null) {
      throw new IllegalArgumentException("no DynamoGraphDeployment " + ns + "/" + name);
    }
    return dgd;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> services(GenericKubernetesResource dgd) {
    Object spec = dgd.getAdditionalProperties().get("spec");
    if (!(spec instanceof Map<?, ?> specMap)
        || !(specMap.get("services") instanceof Map<?, ?> services)) {
      return Map.of();
    }
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    services.forEach(
        (k, v) ->
            out.put(k.toString(), v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of()));
    return out;
  }

  private static int replicas(Map<String, Object> service) {
    Object r = service.get("replicas");
    return r instanceof Number n ? n.intValue() : 1;
  }

  private static String key(GenericKubernetesResource dgd) {
    return dgd.getMetadata().getNamespace() + "/" + dgd.getMetadata().getName();
  }

  /** Stops watching; the DGDs and what it created stay (the namespace's deletion removes them). */
  @Override
  public void close() {
    closed = true;
    if (dgdInformer != null) {
      dgdInformer.close();
    }
    if (podInformer != null) {
      podInformer.close();
    }
    worker.shutdownNow();
  }
}
