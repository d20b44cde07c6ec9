package dev.benchplan.validate;

import dev.benchplan.progress.ProgressSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cluster operations validate needs. The implementation ({@code dev.benchplan.kube.validate})
 * talks to the API server; this interface keeps the orchestration free of Kubernetes client types.
 * Every method throws {@link dev.benchplan.error.BenchplanException} (exit 3 for API errors).
 */
public interface ValidateCluster extends AutoCloseable {
  /** The kube context and API server URL, for the record. */
  String describe();

  /**
   * Which versions serve DGDs, through API discovery. Not installed (NotFound) -> empty versions;
   * any other API error is thrown.
   */
  DgdApi dgdApi();

  /** Every DGD in {@code namespace} (null: all namespaces) with its frontend Service, if any. */
  List<DgdCandidate> discover(DgdApi api, @Nullable String namespace);

  /** The DGD document as the API server returns it now (for the record of what was measured). */
  ObjectNode dgdDocument(DgdApi api, String namespace, String name);

  /**
   * The Dynamo platform version the cluster shows (its operator Deployment's labels); an optional
   * read: forbidden or absent gives an unknown version with why, never an error.
   */
  default RuntimeImage.PlatformVersion dynamoPlatformVersion() {
    return RuntimeImage.PlatformVersion.unknown("the cluster was not asked");
  }

  /** The nodes with their GPU figures. */
  List<GpuNode> gpuNodes();

  /**
   * GPUs published through DRA (ResourceSlices of the NVIDIA DRA driver); an optional read: 403,
   * 404 or no such slice is "not detected", never an error.
   */
  default DraGpus draGpus() {
    return DraGpus.notDetected("the cluster was not asked");
  }

  /**
   * Waits until no namespace of an earlier validate run is terminating (their pods may still hold
   * GPUs); throws when one is still there after {@code bound}. The first step of a deployment: the
   * permissions it needs ({@code modelCache}: with the model cache's) are checked here.
   */
  void awaitOldNamespacesGone(Duration bound, boolean modelCache, ProgressSink progress);

  /**
   * Creates the run's namespace (recorded in {@code ledger} first). If a namespace of that name is
   * terminating, waits for it within {@code bound}; an active one is never reused.
   */
  void createNamespace(
      ValidateRun run, String name, CreatedObjects ledger, Duration bound, ProgressSink progress);

  /**
   * The StorageClass of the model cache: {@code named} when it exists, else (null) the cluster's
   * default class. A named class that does not exist, or no default and none named, is invalid
   * input (exit 2) whose message gives the fix. Creates nothing.
   */
  String modelCacheStorageClass(@Nullable String named);

  /**
   * Creates the model-cache PVC and its populate Job in the run's namespace (removed with it) and
   * waits until the Job completed within the cache's bound; a failure or timeout is exit 3.
   */
  void populateModelCache(ModelCache cache, ProgressSink progress);

  /** Creates the DGD (recorded in {@code ledger} first) and returns it as stored. */
  DgdView createDgd(DgdApi api, ObjectNode manifest, CreatedObjects ledger);

  /**
   * Waits until the DGD is {@code successful} and every component (Frontend included) reports ready
   * replicas >= its spec, then until its frontend Service exists. {@code desiredWorkers} names the
   * worker counts the deployment asked for (the DGD's own spec is what is judged).
   */
  DgdCandidate awaitReady(
      DgdApi api,
      String namespace,
      String name,
      Map<String, Integer> desiredWorkers,
      Duration bound,
      ProgressSink progress);

  /**
   * Waits until an existing DGD is {@code successful} with every component (Frontend included) at
   * ready replicas >= its spec; throws (exit 3) naming each component still short after {@code
   * bound}.
   */
  DgdView awaitComponentsReady(
      DgdApi api, String namespace, String name, Duration bound, ProgressSink progress);

  /**
   * Deletes the ledger's objects in reverse creation order, each only if it carries the run's
   * label, tolerating NotFound, waiting for each to be gone within {@code boundEach}. Idempotent.
   */
  CleanupReport cleanup(CreatedObjects ledger, Duration boundEach, ProgressSink progress);

  /**
   * The isolation checks whose permission the API server denied so far (found by the permission
   * checks before anything was created); they degrade to "isolation not verified".
   */
  default List<ValidateVerdict.SkippedCheck> skippedIsolationChecks() {
    return List.of();
  }

  @Override
  void close();
}
