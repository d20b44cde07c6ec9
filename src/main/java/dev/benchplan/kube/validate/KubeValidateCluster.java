package dev.benchplan.kube.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.kube.KubeConnection;
import dev.benchplan.kube.rbac.PermissionCheck;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.CleanupReport;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdCandidate;
import dev.benchplan.validate.DgdView;
import dev.benchplan.validate.GpuNode;
import dev.benchplan.validate.ValidateCluster;
import dev.benchplan.validate.ValidateOptions;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** {@link ValidateCluster} on the fabric8 Kubernetes client. */
public final class KubeValidateCluster implements ValidateCluster {
  private final KubernetesClient client;
  private final ClusterAccess access;
  private final String description;

  /** validate's --namespace as given to discovery (null: all namespaces). */
  private @Nullable String discoveryNamespace;

  /** Isolation permissions denied, by permission key, in the order first found. */
  private final Map<String, dev.benchplan.kube.rbac.Permission> skipped =
      new java.util.LinkedHashMap<>();

  private final String dgdGroup;
  private final boolean ownsClient;

  /**
   * Wraps a client.
   *
   * @param client the client
   * @param description context and server, for the record
   * @param dgdGroup the API group to look for DGDs in ({@link DgdApi#GROUP}; tests name an absent
   *     one)
   * @param ownsClient whether {@link #close()} closes the client
   */
  public KubeValidateCluster(
      KubernetesClient client, String description, String dgdGroup, boolean ownsClient) {
    this.client = Objects.requireNonNull(client, "client");
    this.access = ClusterAccess.of(client);
    this.description = Objects.requireNonNull(description, "description");
    this.dgdGroup = Objects.requireNonNull(dgdGroup, "dgdGroup");
    this.ownsClient = ownsClient;
  }

  /** Connects with the kubeconfig's context {@code options.kubeContext()} (or its current one). */
  public static KubeValidateCluster connect(ValidateOptions options) {
    KubeConnection c = KubeConnection.open(options.kubeContext());
    return new KubeValidateCluster(c.client(), c.description(), DgdApi.GROUP, true);
  }

  /** The underlying client (for the benchmark runner, which shares it). */
  public KubernetesClient client() {
    return client;
  }

  private void skipped(List<dev.benchplan.kube.rbac.Permission> denied) {
    denied.forEach(p -> skipped.putIfAbsent(p.key(), p));
  }

  @Override
  public List<dev.benchplan.validate.ValidateVerdict.SkippedCheck> skippedIsolationChecks() {
    return skipped.values().stream()
        .map(
            p ->
                new dev.benchplan.validate.ValidateVerdict.SkippedCheck(
                    p.row().name(),
                        p.describe()
                            .substring(0, p.describe().length() - p.row().step().length() - 3),
                    p.row().step(), p.canI()))
        .toList();
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public DgdApi dgdApi() {
    return api("API discovery of group " + dgdGroup, () -> DgdApiProbe.probe(access, dgdGroup));
  }

  @Override
  public dev.benchplan.validate.RuntimeImage.PlatformVersion dynamoPlatformVersion() {
    return PlatformVersionReader.read(access);
  }

  @Override
  public List<DgdCandidate> discover(DgdApi api, @Nullable String namespace) {
    discoveryNamespace = namespace;
    // discovery's own permissions first (whether validate then deploys or benchmarks a DGD, it
    // needs them)
    PermissionCheck.require(
        access,
        RbacTargets.validateDeploy(namespace),
        "benchplan rbac validate [--dgd NS/NAME]"
            + (namespace == null
                ? " (or keep discovery to one namespace with --namespace NS)"
                : " --namespace " + namespace),
        row -> row.where() == KubeCall.Where.DISCOVERY);
    return api("discovering DGDs", () -> DgdDiscoverer.discover(access, api, namespace));
  }

  @Override
  public ObjectNode dgdDocument(DgdApi api, String namespace, String name) {
    // the DGD to benchmark is known: every permission validate needs is checked before anything is
    // created
    skipped(
        PermissionCheck.require(
            access,
            RbacTargets.validateDgd(namespace, discoveryNamespace),
            "benchplan rbac validate --dgd "
                + namespace
                + "/"
                + name
                + (discoveryNamespace == null ? "" : " --namespace " + discoveryNamespace)));
    io.fabric8.kubernetes.api.model.GenericKubernetesResource r;
    try {
      r =
          access.getCustom(
              KubeCall.VALIDATE_DGD_GET, KubeDocuments.dgdContext(api), namespace, name);
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      throw ApiErrors.map("reading DGD " + namespace + "/" + name, e);
    }
    if (r == null) {
      throw BenchplanException.runtime(
          "DGD " + namespace + "/" + name + " disappeared during discovery");
    }
    return (ObjectNode) KubeDocuments.tree(access, r);
  }

  @Override
  public List<GpuNode> gpuNodes() {
    return api("reading GPU nodes", () -> GpuInventory.read(access));
  }

  @Override
  public dev.benchplan.validate.DraGpus draGpus() {
    return api("reading DRA ResourceSlices", () -> DraSlices.read(access));
  }

  @Override
  public void awaitOldNamespacesGone(Duration bound, boolean modelCache, ProgressSink progress) {
    // the first step of a deployment: every permission it needs is checked before anything is
    // created
    // (the model cache's only when it is used)
    skipped(
        PermissionCheck.require(
            access,
            RbacTargets.validateDeploy(discoveryNamespace, modelCache),
            "benchplan rbac validate"
                + (discoveryNamespace == null ? "" : " --namespace " + discoveryNamespace)
                + (modelCache ? "" : " --no-model-cache")));
    api(
        "waiting for earlier validate namespaces to be gone",
        () -> {
          ValidateNamespaces.awaitOldGone(access, bound, progress);
          return null;
        });
  }

  @Override
  public void createNamespace(
      ValidateRun run, String name, CreatedObjects ledger, Duration bound, ProgressSink progress) {
    api(
        "creating namespace " + name,
        () -> {
          ValidateNamespaces.create(access, run, name, ledger, bound, progress);
          return null;
        });
  }

  @Override
  public String modelCacheStorageClass(@Nullable String named) {
    return api(
        "resolving the model-cache StorageClass",
        () -> ModelCacheStore.storageClass(access, named));
  }

  @Override
  public void populateModelCache(dev.benchplan.validate.ModelCache cache, ProgressSink progress) {
    api(
        "populating the model cache",
        () -> {
          ModelCacheStore.populate(access, cache, progress);
          return null;
        });
  }

  @Override
  public DgdView createDgd(DgdApi api, ObjectNode manifest, CreatedObjects ledger) {
    return api("creating the DGD", () -> DgdDeployer.create(access, api, manifest, ledger));
  }

  @Override
  public DgdCandidate awaitReady(
      DgdApi api,
      String namespace,
      String name,
      Map<String, Integer> desiredWorkers,
      Duration bound,
      ProgressSink progress) {
    return api(
        "waiting for DGD " + namespace + "/" + name,
        () -> DgdDeployer.awaitReady(access, api, namespace, name, bound, progress));
  }

  @Override
  public DgdView awaitComponentsReady(
      DgdApi api, String namespace, String name, Duration bound, ProgressSink progress) {
    return api(
        "waiting for DGD " + namespace + "/" + name,
        () ->
            DgdDeployer.awaitComponents(
                access, KubeCall.VALIDATE_DGD_WATCH, api, namespace, name, bound, progress));
  }

  @Override
  public CleanupReport cleanup(CreatedObjects ledger, Duration boundEach, ProgressSink progress) {
    return api("cleaning up", () -> ValidateCleaner.cleanup(access, ledger, boundEach, progress));
  }

  @Override
  public void close() {
    if (ownsClient) {
      access.close();
    }
  }

  /**
   * Runs one cluster operation: an API failure the helpers did not map themselves is still an API
   * failure (the one policy of {@link ApiErrors}), never mistaken for a bug (exit 4).
   */
  private static <T> T api(String what, java.util.function.Supplier<T> body) {
    try {
      return body.get();
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      throw ApiErrors.map(what, e);
    }
  }
}
