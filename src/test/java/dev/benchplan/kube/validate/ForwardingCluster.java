package dev.benchplan.kube.validate;

import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.CleanupReport;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdCandidate;
import dev.benchplan.validate.DgdView;
import dev.benchplan.validate.GpuNode;
import dev.benchplan.validate.ValidateCluster;
import dev.benchplan.validate.ValidateRun;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/** Delegates every call; tests override one method to observe it or inject a fault. */
class ForwardingCluster implements ValidateCluster {
  private final ValidateCluster d;

  ForwardingCluster(ValidateCluster d) {
    this.d = d;
  }

  @Override
  public String describe() {
    return d.describe();
  }

  @Override
  public DgdApi dgdApi() {
    return d.dgdApi();
  }

  @Override
  public List<DgdCandidate> discover(DgdApi api, String namespace) {
    return d.discover(api, namespace);
  }

  @Override
  public ObjectNode dgdDocument(DgdApi api, String namespace, String name) {
    return d.dgdDocument(api, namespace, name);
  }

  @Override
  public List<GpuNode> gpuNodes() {
    return d.gpuNodes();
  }

  @Override
  public void awaitOldNamespacesGone(Duration bound, boolean modelCache, ProgressSink progress) {
    d.awaitOldNamespacesGone(bound, modelCache, progress);
  }

  @Override
  public void createNamespace(
      ValidateRun run, String name, CreatedObjects ledger, Duration bound, ProgressSink p) {
    d.createNamespace(run, name, ledger, bound, p);
  }

  @Override
  public DgdView createDgd(DgdApi api, ObjectNode manifest, CreatedObjects ledger) {
    return d.createDgd(api, manifest, ledger);
  }

  @Override
  public DgdCandidate awaitReady(
      DgdApi api,
      String namespace,
      String name,
      Map<String, Integer> desired,
      Duration bound,
      ProgressSink progress) {
    return d.awaitReady(api, namespace, name, desired, bound, progress);
  }

  @Override
  public dev.benchplan.validate.DgdView awaitComponentsReady(
      DgdApi api, String namespace, String name, Duration bound, ProgressSink progress) {
    return d.awaitComponentsReady(api, namespace, name, bound, progress);
  }

  @Override
  public String modelCacheStorageClass(String named) {
    return d.modelCacheStorageClass(named);
  }

  @Override
  public void populateModelCache(dev.benchplan.validate.ModelCache cache, ProgressSink progress) {
    d.populateModelCache(cache, progress);
  }

  @Override
  public CleanupReport cleanup(CreatedObjects ledger, Duration boundEach, ProgressSink progress) {
    return d.cleanup(ledger, boundEach, progress);
  }

  @Override
  public void close() {
    d.close();
  }
}
