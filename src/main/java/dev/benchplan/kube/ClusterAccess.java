package dev.benchplan.kube;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientTimeoutException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.ScalableResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The only class that calls the Kubernetes API (an ArchUnit test holds every other class to it).
 * Each method makes one kind of request and takes the {@link KubeCall} row it serves; a row that
 * does not declare that verb and resource is refused as a bug. Failures propagate as the client's
 * exceptions, for {@link ApiErrors} at the call site.
 */
public final class ClusterAccess implements AutoCloseable {
  private final KubernetesClient client;

  private ClusterAccess(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** Wraps {@code client} (its deserializers built: {@link #warm}); {@link #close()} closes it. */
  public static ClusterAccess of(KubernetesClient client) {
    warm(client);
    return new ClusterAccess(client);
  }

  /** What this class reads from the API server (a list type brings its items). */
  private static final List<Class<?>> READ_TYPES =
      List.of(
          PodList.class,
          JobList.class,
          EventList.class,
          Namespace.class,
          ConfigMap.class,
          NodeList.class,
          ServiceList.class,
          SelfSubjectAccessReview.class,
          GenericKubernetesResourceList.class,
          APIGroup.class,
          APIResourceList.class,
          Status.class);

  /** The serializations already warmed (weakly held: a closed client's goes with it). */
  private static final Map<Object, Boolean> WARMED =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  /**
   * Builds {@code client}'s deserializers for every type this class reads, on the calling thread.
   * fabric8 turns a response into objects on the Vert.x event loop that received it, and the first
   * response of a type makes Jackson load and introspect the type's whole model graph (a Pod's is
   * hundreds of classes). On 2 cores at load 20 that held a client's event loop for 8 to 14 s
   * (RunCommandTest, Vert.x's blocked-thread warnings), and every other exchange of that client
   * waited behind it: requests ran past the 10 s request timeout and watches past their bounds.
   * Built here, the event loop only finds them in the cache. Public for tests whose own clients
   * play the cluster's controllers.
   */
  public static void warm(KubernetesClient client) {
    var serialization = client.getKubernetesSerialization();
    if (WARMED.putIfAbsent(serialization, Boolean.TRUE) != null) {
      return;
    }
    for (Class<?> type : READ_TYPES) {
      serialization.unmarshal("{}", type);
    }
  }

  /** A cache filled by a watch, until closed. */
  public interface Informer<T> extends AutoCloseable {
    /** The objects as last seen. */
    List<T> list();

    /** True once the first list arrived. */
    boolean hasSynced();

    @Override
    void close();
  }

  // ---- client facts (no request) ----

  /** The kubeconfig context's namespace, or null. */
  public String defaultNamespace() {
    return client.getNamespace();
  }

  /** The kubeconfig context's name, or null (in-cluster). */
  public @Nullable String contextName() {
    var c = client.getConfiguration().getCurrentContext();
    return c == null ? null : c.getName();
  }

  /** The API server's URL, or null. */
  public @Nullable String serverUrl() {
    return client.getMasterUrl() == null ? null : client.getMasterUrl().toString();
  }

  /** JSON to a model object, through the client's own serialization. */
  public <T> T unmarshal(String json, Class<T> type) {
    return client.getKubernetesSerialization().unmarshal(json, type);
  }

  /** A model object as JSON, through the client's own serialization. */
  public String asJson(Object resource) {
    return client.getKubernetesSerialization().asJson(resource);
  }

  @Override
  public void close() {
    client.close();
  }

  // ---- needs no rule: discovery and access reviews are open to every authenticated user ----

  /** API discovery of {@code group}; null when the group is not served. */
  public APIGroup apiGroup(String group) {
    return client.getApiGroup(group);
  }

  /** API discovery of the resources of {@code groupVersion}. */
  public APIResourceList apiResources(String groupVersion) {
    return client.getApiResources(groupVersion);
  }

  /**
   * Asks the API server whether the current user may {@code verb} the resource
   * (SelfSubjectAccessReview).
   *
   * @param namespace the namespace, or null for all namespaces / a cluster-scoped resource
   * @param name a resource name, or null
   * @return the answer, or null when the server gave none (a server without an authorizer, such as
   *     a test double): the calls themselves then show what is forbidden
   */
  public @Nullable Boolean allowed(
      String verb,
      String group,
      String resource,
      @Nullable String subresource,
      @Nullable String namespace,
      @Nullable String name) {
    SelfSubjectAccessReview review =
        new SelfSubjectAccessReviewBuilder()
            .withNewSpec()
            .withResourceAttributes(
                new io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributesBuilder()
                    .withVerb(verb)
                    .withGroup(group)
                    .withResource(resource)
                    .withSubresource(subresource)
                    .withNamespace(namespace)
                    .withName(name)
                    .build())
            .endSpec()
            .build();
    SelfSubjectAccessReview answer;
    try {
      answer = client.authorization().v1().selfSubjectAccessReview().create(review);
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() == 404 || e.getCode() == 405 || e.getCode() == 501) {
        return null;
      }
      throw e;
    }
    return (answer == null || answer.getStatus() == null) ? null : answer.getStatus().getAllowed();
  }

  // ---- namespaces ----

  public Namespace getNamespace(KubeCall row, String name) {
    row.require("get", "", "namespaces", null);
    return client.namespaces().withName(name).get();
  }

  /** Namespaces carrying every label of {@code labels}. */
  public List<Namespace> listNamespaces(KubeCall row, Map<String, String> labels) {
    row.require("list", "", "namespaces", null);
    return client.namespaces().withLabels(labels).list().getItems();
  }

  public void createNamespace(KubeCall row, Namespace ns) {
    row.require("create", "", "namespaces", null);
    client.namespaces().resource(ns).create();
  }

  public void deleteNamespace(KubeCall row, String name) {
    row.require("delete", "", "namespaces", null);
    client.namespaces().withName(name).delete();
  }

  /** Waits until the namespace is gone: false when it is still there after {@code millis}. */
  public boolean awaitNamespaceGone(KubeCall row, String name, long millis) {
    row.require("watch", "", "namespaces", null);
    row.require("list", "", "namespaces", null);
    return awaitGone(client.namespaces().withName(name), millis);
  }

  // ---- nodes ----

  public Node getNode(KubeCall row, String name) {
    row.require("get", "", "nodes", null);
    return client.nodes().withName(name).get();
  }

  public List<Node> listNodes(KubeCall row) {
    row.require("list", "", "nodes", null);
    return client.nodes().list().getItems();
  }

  // ---- deployments ----

  /** Deployments of every namespace labelled {@code key=value}. */
  public List<io.fabric8.kubernetes.api.model.apps.Deployment> listDeploymentsInAnyNamespace(
      KubeCall row, String key, String value) {
    row.require("list", "apps", "deployments", null);
    return client.apps().deployments().inAnyNamespace().withLabel(key, value).list().getItems();
  }

  // ---- storage ----

  public io.fabric8.kubernetes.api.model.storage.StorageClass getStorageClass(
      KubeCall row, String name) {
    row.require("get", "storage.k8s.io", "storageclasses", null);
    return client.storage().v1().storageClasses().withName(name).get();
  }

  public List<io.fabric8.kubernetes.api.model.storage.StorageClass> listStorageClasses(
      KubeCall row) {
    row.require("list", "storage.k8s.io", "storageclasses", null);
    return client.storage().v1().storageClasses().list().getItems();
  }

  public void createPersistentVolumeClaim(
      KubeCall row, String namespace, io.fabric8.kubernetes.api.model.PersistentVolumeClaim pvc) {
    row.require("create", "", "persistentvolumeclaims", null);
    client.persistentVolumeClaims().inNamespace(namespace).resource(pvc).create();
  }

  // ---- pods ----

  /** Pods of {@code namespace} labelled {@code key=value}. */
  public List<Pod> listPods(KubeCall row, String namespace, String key, String value) {
    row.require("list", "", "pods", null);
    return client.pods().inNamespace(namespace).withLabel(key, value).list().getItems();
  }

  /** Pods of every namespace, with {@code fields} as field selectors (none: all pods). */
  public List<Pod> listPodsInAnyNamespace(KubeCall row, Map<String, String> fields) {
    row.require("list", "", "pods", null);
    var op = client.pods().inAnyNamespace();
    return fields.isEmpty() ? op.list().getItems() : op.withFields(fields).list().getItems();
  }

  public Pod getPod(KubeCall row, String namespace, String name) {
    row.require("get", "", "pods", null);
    return client.pods().inNamespace(namespace).withName(name).get();
  }

  /** Creates a pod (the run's artifact collector). */
  public Pod createPod(KubeCall row, String namespace, Pod pod) {
    row.require("create", "", "pods", null);
    return client.pods().inNamespace(namespace).resource(pod).create();
  }

  /** Deletes a pod at once (grace period 0); false when it was already gone. */
  public boolean deletePod(KubeCall row, String namespace, String name) {
    row.require("delete", "", "pods", null);
    return !client
        .pods()
        .inNamespace(namespace)
        .withName(name)
        .withGracePeriod(0)
        .delete()
        .isEmpty();
  }

  /**
   * Waits (a watch, no polling) until the pod satisfies {@code condition} or is gone (null), at
   * most {@code millis}; the last state seen when the time is up.
   */
  public @Nullable Pod awaitPod(
      KubeCall row,
      String namespace,
      String name,
      Predicate<@Nullable Pod> condition,
      long millis) {
    row.require("get", "", "pods", null);
    row.require("watch", "", "pods", null);
    var resource = client.pods().inNamespace(namespace).withName(name);
    try {
      return resource.waitUntilCondition(
          condition, millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (io.fabric8.kubernetes.client.KubernetesClientTimeoutException e) {
      return resource.get();
    }
  }

  /**
   * Watches the pods of {@code namespace} labelled {@code key=value}; {@code onEvent} gets each
   * change.
   */
  public Informer<Pod> informPods(
      KubeCall row,
      String namespace,
      String key,
      String value,
      java.util.function.Consumer<Object> onEvent) {
    row.require("list", "", "pods", null);
    row.require("watch", "", "pods", null);
    return informer(
        client.pods().inNamespace(namespace).withLabel(key, value).inform(handler(onEvent)));
  }

  /** The log of a container. */
  public String podLog(KubeCall row, String namespace, String pod, String container) {
    row.require("get", "", "pods", "log");
    return client.pods().inNamespace(namespace).withName(pod).inContainer(container).getLog();
  }

  /** Follows the log of a container into {@code sink} until closed. */
  public AutoCloseable followPodLog(
      KubeCall row, String namespace, String pod, String container, OutputStream sink) {
    row.require("get", "", "pods", "log");
    var watch =
        client.pods().inNamespace(namespace).withName(pod).inContainer(container).watchLog(sink);
    return watch;
  }

  // ---- events ----

  /** Events of {@code namespace} whose {@code field} is {@code value}. */
  public List<Event> listEvents(KubeCall row, String namespace, String field, String value) {
    row.require("list", "", "events", null);
    return client.v1().events().inNamespace(namespace).withField(field, value).list().getItems();
  }

  // ---- Jobs ----

  private ScalableResource<Job> job(String namespace, String name) {
    return client.batch().v1().jobs().inNamespace(namespace).withName(name);
  }

  public Job getJob(KubeCall row, String namespace, String name) {
    row.require("get", "batch", "jobs", null);
    return job(namespace, name).get();
  }

  /**
   * Jobs labelled {@code key=value} in {@code namespace}, or in every namespace when it is null.
   */
  public List<Job> listJobs(KubeCall row, @Nullable String namespace, String key, String value) {
    row.require("list", "batch", "jobs", null);
    var jobs = client.batch().v1().jobs();
    return (namespace == null
            ? jobs.inAnyNamespace().withLabel(key, value)
            : jobs.inNamespace(namespace).withLabel(key, value))
        .list()
        .getItems();
  }

  public Job createJob(KubeCall row, String namespace, Job job) {
    row.require("create", "batch", "jobs", null);
    return client.batch().v1().jobs().inNamespace(namespace).resource(job).create();
  }

  /** Watches one Job; {@code onEvent} gets each change. */
  public Informer<Job> informJob(
      KubeCall row, String namespace, String name, java.util.function.Consumer<Object> onEvent) {
    row.require("list", "batch", "jobs", null);
    row.require("watch", "batch", "jobs", null);
    return informer(job(namespace, name).inform(handler(onEvent)));
  }

  /**
   * Watches one Job until {@code condition} holds: false when it did not within {@code millis} (the
   * last state seen goes to {@code condition} too).
   */
  public boolean awaitJob(
      KubeCall row, String namespace, String name, Predicate<Job> condition, long millis) {
    row.require("list", "batch", "jobs", null);
    row.require("watch", "batch", "jobs", null);
    try {
      job(namespace, name).waitUntilCondition(condition, millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (KubernetesClientTimeoutException e) {
      return false;
    }
  }

  /** Deletes a Job, its pods first (foreground); false when it was already gone. */
  public boolean deleteJob(KubeCall row, String namespace, String name) {
    row.require("delete", "batch", "jobs", null);
    var details =
        job(namespace, name).withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
    return details != null && !details.isEmpty();
  }

  /** Waits until the Job is gone: false when it is still there after {@code millis}. */
  public boolean awaitJobGone(KubeCall row, String namespace, String name, long millis) {
    row.require("list", "batch", "jobs", null);
    row.require("watch", "batch", "jobs", null);
    return awaitGone(job(namespace, name), millis);
  }

  // ---- ConfigMaps ----

  public ConfigMap getConfigMap(KubeCall row, String namespace, String name) {
    row.require("get", "", "configmaps", null);
    return client.configMaps().inNamespace(namespace).withName(name).get();
  }

  public void createConfigMap(KubeCall row, String namespace, ConfigMap cm) {
    row.require("create", "", "configmaps", null);
    client.configMaps().inNamespace(namespace).resource(cm).create();
  }

  /** Deletes a ConfigMap; false when it was already gone. */
  public boolean deleteConfigMap(KubeCall row, String namespace, String name) {
    row.require("delete", "", "configmaps", null);
    var details = client.configMaps().inNamespace(namespace).withName(name).delete();
    return details != null && !details.isEmpty();
  }

  // ---- Services ----

  public List<Service> listServices(KubeCall row, String namespace) {
    row.require("list", "", "services", null);
    return client.services().inNamespace(namespace).list().getItems();
  }

  /** Completes once the Services of {@code namespace} satisfy {@code condition}. */
  public CompletableFuture<List<Service>> awaitServices(
      KubeCall row, String namespace, Predicate<List<Service>> condition) {
    row.require("list", "", "services", null);
    row.require("watch", "", "services", null);
    return client.services().inNamespace(namespace).informOnCondition(condition);
  }

  // ---- custom resources (DGDs) ----

  /** The resource context of a namespaced custom resource. */
  public static ResourceDefinitionContext context(
      String group, String version, String plural, String kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withPlural(plural)
        .withKind(kind)
        .withNamespaced(true)
        .build();
  }

  /** Every object of a cluster-scoped resource read generically (DRA's ResourceSlices). */
  public List<GenericKubernetesResource> listClusterScoped(
      KubeCall row, String group, String version, String plural, String kind) {
    ResourceDefinitionContext ctx =
        new ResourceDefinitionContext.Builder()
            .withGroup(group)
            .withVersion(version)
            .withPlural(plural)
            .withKind(kind)
            .withNamespaced(false)
            .build();
    requireCustom(row, "list", ctx);
    return client.genericKubernetesResources(ctx).list().getItems();
  }

  /** Custom resources in {@code namespace}, or in every namespace when it is null. */
  public List<GenericKubernetesResource> listCustom(
      KubeCall row, ResourceDefinitionContext ctx, @Nullable String namespace) {
    requireCustom(row, "list", ctx);
    var op = client.genericKubernetesResources(ctx);
    return namespace == null
        ? op.inAnyNamespace().list().getItems()
        : op.inNamespace(namespace).list().getItems();
  }

  public GenericKubernetesResource getCustom(
      KubeCall row, ResourceDefinitionContext ctx, String namespace, String name) {
    requireCustom(row, "get", ctx);
    return client.genericKubernetesResources(ctx).inNamespace(namespace).withName(name).get();
  }

  public GenericKubernetesResource createCustom(
      KubeCall row, ResourceDefinitionContext ctx, String namespace, GenericKubernetesResource r) {
    requireCustom(row, "create", ctx);
    return client.genericKubernetesResources(ctx).inNamespace(namespace).resource(r).create();
  }

  public void deleteCustom(
      KubeCall row, ResourceDefinitionContext ctx, String namespace, String name) {
    requireCustom(row, "delete", ctx);
    client.genericKubernetesResources(ctx).inNamespace(namespace).withName(name).delete();
  }

  /**
   * Watches one custom resource until {@code condition} holds (null: it is gone): false when it did
   * not within {@code millis}.
   */
  public boolean awaitCustom(
      KubeCall row,
      ResourceDefinitionContext ctx,
      String namespace,
      String name,
      Predicate<GenericKubernetesResource> condition,
      long millis) {
    requireCustom(row, "list", ctx);
    requireCustom(row, "watch", ctx);
    try {
      client
          .genericKubernetesResources(ctx)
          .inNamespace(namespace)
          .withName(name)
          .waitUntilCondition(condition, millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (KubernetesClientTimeoutException e) {
      return false;
    }
  }

  /** Merge-patches one custom resource (e.g. {@code {"spec":{"cancel":true}}}). */
  public GenericKubernetesResource patchCustom(
      KubeCall row,
      ResourceDefinitionContext ctx,
      String namespace,
      String name,
      String mergePatchJson) {
    requireCustom(row, "patch", ctx);
    return client
        .genericKubernetesResources(ctx)
        .inNamespace(namespace)
        .withName(name)
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            mergePatchJson);
  }

  /** Watches one custom resource; {@code onEvent} gets each change (and its deletion). */
  public Informer<GenericKubernetesResource> informCustom(
      KubeCall row,
      ResourceDefinitionContext ctx,
      String namespace,
      String name,
      java.util.function.Consumer<Object> onEvent) {
    requireCustom(row, "list", ctx);
    requireCustom(row, "watch", ctx);
    return informer(
        client
            .genericKubernetesResources(ctx)
            .inNamespace(namespace)
            .withName(name)
            .inform(handler(onEvent)));
  }

  // ---- CustomResourceDefinitions ----

  /** True when the CRD exists and is Established; false when absent (or not yet established). */
  public boolean crdEstablished(KubeCall row, String name) {
    row.require("get", "apiextensions.k8s.io", "customresourcedefinitions", null);
    var crd = client.apiextensions().v1().customResourceDefinitions().withName(name).get();
    if (crd == null) {
      return false;
    }
    return crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  // ---- the API server's service proxy ----

  /** What a GET through the service proxy answered. */
  public record ProxyAnswer(int code, long bytes, @Nullable String error) {}

  /**
   * GET {@code path} of a Service through the API server's proxy ({@code
   * /api/v1/namespaces/NS/services/NAME:PORT/proxy/PATH}), with the client's credentials; a 200
   * body is copied to {@code sink}, any other answer's first 2 KiB come back as its error. Asks for
   * the identity encoding: the bytes are the file's own.
   */
  public ProxyAnswer proxyGet(
      KubeCall row,
      String namespace,
      String service,
      String port,
      String path,
      OutputStream sink,
      long timeoutMillis)
      throws java.io.IOException {
    row.require("get", "", "services", "proxy");
    String base = client.getMasterUrl().toString();
    String url =
        (base.endsWith("/") ? base : base + "/")
            + "api/v1/namespaces/"
            + namespace
            + "/services/"
            + service
            + ":"
            + port
            + "/proxy"
            + path;
    var http = client.getHttpClient();
    var request =
        http.newHttpRequestBuilder()
            .uri(url)
            .header("Accept-Encoding", "identity")
            .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
            .build();
    io.fabric8.kubernetes.client.http.HttpResponse<java.io.InputStream> response;
    try {
      response =
          http.sendAsync(request, java.io.InputStream.class)
              .get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted: GET " + url);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new java.io.IOException(
          "GET " + url + ": " + (e.getCause() == null ? e : e.getCause()), e);
    }
    try (java.io.InputStream body = response.body()) {
      if (response.code() != 200) {
        byte[] head = body == null ? new byte[0] : body.readNBytes(2048);
        return new ProxyAnswer(
            response.code(),
            head.length,
            new String(head, java.nio.charset.StandardCharsets.UTF_8));
      }
      long n = body == null ? 0 : body.transferTo(sink);
      return new ProxyAnswer(200, n, null);
    }
  }

  // ---- objects validate created, by kind (cleanup) ----

  /**
   * An object validate created: a Namespace, ConfigMap, Job or DGD.
   *
   * @throws IllegalArgumentException for any other kind
   */
  public HasMetadata getCreated(KubeCall row, Created o) {
    row.require("get", o.group(), o.resource(), null);
    return created(o).get();
  }

  /** Deletes an object validate created (foreground); false when it was already gone. */
  public boolean deleteCreated(KubeCall row, Created o) {
    row.require("delete", o.group(), o.resource(), null);
    List<?> result = created(o).withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
    return result != null && !result.isEmpty();
  }

  /**
   * Waits until an object validate created is gone: false when it is still there after {@code
   * millis}.
   */
  public boolean awaitCreatedGone(KubeCall row, Created o, long millis) {
    row.require("list", o.group(), o.resource(), null);
    row.require("watch", o.group(), o.resource(), null);
    return awaitGone(created(o), millis);
  }

  /**
   * An object validate created, by API version and kind.
   *
   * @param plural the resource (for a custom kind)
   */
  public record Created(
      String apiVersion,
      String kind,
      @Nullable String plural,
      @Nullable String namespace,
      String name) {
    String group() {
      return apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    }

    String resource() {
      return switch (kind) {
        case "Namespace" -> "namespaces";
        case "ConfigMap" -> "configmaps";
        case "Job" -> "jobs";
        default -> plural == null ? kind : plural;
      };
    }

    String version() {
      return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }
  }

  private Resource<? extends HasMetadata> created(Created o) {
    return switch (o.kind()) {
      case "Namespace" -> client.namespaces().withName(o.name());
      case "ConfigMap" -> client.configMaps().inNamespace(o.namespace()).withName(o.name());
      case "Job" -> client.batch().v1().jobs().inNamespace(o.namespace()).withName(o.name());
      default -> {
        if (!o.apiVersion().contains("/") || o.plural() == null) {
          throw new IllegalArgumentException("validate does not delete " + o.kind() + " objects");
        }
        yield client
            .genericKubernetesResources(context(o.group(), o.version(), o.plural(), o.kind()))
            .inNamespace(o.namespace())
            .withName(o.name());
      }
    };
  }

  private static void requireCustom(KubeCall row, String verb, ResourceDefinitionContext ctx) {
    row.require(verb, ctx.getGroup(), ctx.getPlural(), null);
  }

  private static boolean awaitGone(Resource<? extends HasMetadata> r, long millis) {
    try {
      r.waitUntilCondition(Objects::isNull, millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (KubernetesClientTimeoutException e) {
      return false;
    }
  }

  private static ResourceEventHandler<Object> handler(java.util.function.Consumer<Object> onEvent) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(Object obj) {
        onEvent.accept(obj);
      }

      @Override
      public void onUpdate(Object oldObj, Object newObj) {
        onEvent.accept(newObj);
      }

      @Override
      public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
        onEvent.accept(obj);
      }
    };
  }

  private static <T> Informer<T> informer(SharedIndexInformer<T> informer) {
    return new Informer<>() {
      @Override
      public List<T> list() {
        return informer.getStore().list();
      }

      @Override
      public boolean hasSynced() {
        return informer.hasSynced();
      }

      @Override
      public void close() {
        informer.close();
      }
    };
  }
}
