package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.progress.ProgressSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/** An in-memory cluster for orchestration tests: objects are names in a set. */
final class FakeValidateCluster implements ValidateCluster {
  DgdApi api = new DgdApi("nvidia.com", List.of("v1alpha1"));
  List<DgdCandidate> dgds = new ArrayList<>();
  List<GpuNode> nodes = new ArrayList<>();

  /** DGD documents by namespace/name (default: metadata only). */
  final java.util.Map<String, ObjectNode> documents = new java.util.HashMap<>();

  /** What the cluster's operator Deployment shows. */
  RuntimeImage.PlatformVersion platform =
      RuntimeImage.PlatformVersion.unknown("no operator Deployment (fake)");

  @Override
  public RuntimeImage.PlatformVersion dynamoPlatformVersion() {
    calls.add("platformVersion");
    return platform;
  }

  final Set<String> existing = new LinkedHashSet<>();
  final List<String> deletionOrder = new ArrayList<>();
  final List<String> calls = new ArrayList<>();

  /** The isolation checks the permission checks "found" denied. */
  final List<ValidateVerdict.SkippedCheck> skipped = new ArrayList<>();

  @Override
  public List<ValidateVerdict.SkippedCheck> skippedIsolationChecks() {
    return List.copyOf(skipped);
  }

  RuntimeException failReadiness;
  RuntimeException failCreateNamespace;
  boolean cleanupLeavesNamespace;
  ObjectNode lastManifest;
  String defaultStorageClass = "standard";
  Set<String> storageClasses = new LinkedHashSet<>(List.of("standard", "fast-nvme"));
  ModelCache lastCache;
  boolean closed;

  @Override
  public String describe() {
    return "fake cluster";
  }

  @Override
  public DgdApi dgdApi() {
    calls.add("dgdApi");
    return api;
  }

  @Override
  public List<DgdCandidate> discover(DgdApi a, String namespace) {
    calls.add("discover " + namespace);
    return dgds.stream()
        .filter(c -> namespace == null || c.dgd().namespace().equals(namespace))
        .toList();
  }

  @Override
  public ObjectNode dgdDocument(DgdApi a, String namespace, String name) {
    calls.add("dgdDocument " + namespace + "/" + name);
    if (documents.containsKey(namespace + "/" + name)) {
      return documents.get(namespace + "/" + name).deepCopy();
    }
    ObjectNode doc = dev.benchplan.json.Json.JSON.createObjectNode();
    doc.putObject("metadata").put("name", name).put("namespace", namespace);
    return doc;
  }

  @Override
  public List<GpuNode> gpuNodes() {
    calls.add("gpuNodes");
    return nodes;
  }

  @Override
  public void awaitOldNamespacesGone(Duration bound, boolean modelCache, ProgressSink progress) {
    calls.add("awaitOld");
  }

  @Override
  public void createNamespace(
      ValidateRun run, String name, CreatedObjects ledger, Duration bound, ProgressSink p) {
    calls.add("createNamespace");
    if (!ledger.record(
        new CreatedObject("v1", "Namespace", null, name, ValidateRun.RUN_LABEL, run.runId()))) {
      throw BenchplanException.runtime("interrupted");
    }
    if (failCreateNamespace != null) {
      throw failCreateNamespace;
    }
    existing.add("Namespace " + name);
  }

  @Override
  public DgdView createDgd(DgdApi a, ObjectNode manifest, CreatedObjects ledger) {
    lastManifest = manifest;
    DgdView v = DgdView.of(manifest);
    ledger.record(
        new CreatedObject(
            a.apiVersion(), DgdApi.KIND, v.namespace(), v.name(), ValidateRun.RUN_LABEL, "x"));
    existing.add(DgdApi.KIND + " " + v.namespace() + "/" + v.name());
    return v;
  }

  @Override
  public DgdCandidate awaitReady(
      DgdApi a,
      String namespace,
      String name,
      Map<String, Integer> desired,
      Duration bound,
      ProgressSink progress) {
    progress.update("state pending");
    if (failReadiness != null) {
      throw failReadiness;
    }
    DgdView v = DgdView.of(lastManifest);
    ServiceInfo svc =
        new ServiceInfo(
            namespace,
            name + "-frontend",
            Map.of(),
            List.of(),
            List.of(new ServiceInfo.Port("http", 8000)));
    return new DgdCandidate(
        new DgdView(v.apiVersion(), namespace, name, "uid-new", "successful", v.components()),
        new FrontendMatch(svc, 8000, "name", true),
        List.of());
  }

  @Override
  public DgdView awaitComponentsReady(
      DgdApi a, String namespace, String name, Duration bound, ProgressSink progress) {
    calls.add("awaitComponentsReady " + namespace + "/" + name);
    DgdView v =
        dgds.stream()
            .map(DgdCandidate::dgd)
            .filter(x -> x.namespace().equals(namespace) && x.name().equals(name))
            .findFirst()
            .orElseThrow();
    if (!v.ready()) {
      throw BenchplanException.runtime(
          "DGD "
              + namespace
              + "/"
              + name
              + " not ready after "
              + bound
              + ": components "
              + String.join(", ", v.shortComponents())
              + " ready (ready/spec)");
    }
    return v;
  }

  @Override
  public String modelCacheStorageClass(String named) {
    calls.add("modelCacheStorageClass " + named);
    if (named == null) {
      if (defaultStorageClass == null) {
        throw BenchplanException.invalid("model cache: the cluster has no default StorageClass");
      }
      return defaultStorageClass;
    }
    if (!storageClasses.contains(named)) {
      throw BenchplanException.invalid("model cache: StorageClass '" + named + "' does not exist");
    }
    return named;
  }

  @Override
  public void populateModelCache(ModelCache cache, ProgressSink progress) {
    calls.add("populateModelCache " + cache.storageClass());
    lastCache = cache;
  }

  @Override
  public CleanupReport cleanup(CreatedObjects ledger, Duration boundEach, ProgressSink progress) {
    List<String> deleted = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (CreatedObject o : ledger.closeForCleanup()) {
      String key = o.describe();
      if (cleanupLeavesNamespace && o.kind().equals("Namespace")) {
        problems.add(key + " still present after 1s");
        continue;
      }
      if (existing.remove(key)) {
        deleted.add(key);
        deletionOrder.add(key);
      } else {
        gone.add(key);
      }
    }
    return new CleanupReport(deleted, gone, List.of(), problems);
  }

  @Override
  public void close() {
    closed = true;
  }
}
