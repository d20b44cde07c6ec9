package dev.benchplan.kube;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * THE table of every Kubernetes API call benchplan makes, one row per call site kind: its verbs,
 * API group, resource, subresource, where (which namespace, or the cluster), whether the command
 * needs it ({@link Need#REQUIRED}) or it only serves an isolation check that continues after a 403
 * ({@link Need#ISOLATION}), the step that makes it, and the commands that make it.
 *
 * <p>Every call goes through {@link ClusterAccess}, whose methods take the row they serve and
 * refuse a row that does not name their verb and resource; an ArchUnit test keeps the client's API
 * out of every other class. The RBAC rules ({@code benchplan rbac}) and the permission check before
 * a run or validate creates anything are both derived from this table. API discovery and
 * SelfSubjectAccessReview are allowed to every authenticated user and need no row.
 */
public enum KubeCall {
  // --- run: preflight (also run by validate's benchmark step) ---
  RUN_NAMESPACE_GET(
      verbs("get"),
      "",
      "namespaces",
      null,
      Where.RUN_NAMESPACE_BY_NAME,
      Need.ISOLATION,
      "run preflight: the run's namespace exists (403: existence not checked)",
      Command.ALL),
  RUN_JOB_GET(
      verbs("get"),
      "batch",
      "jobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run preflight: no Job of the same name",
      Command.ALL),
  RUN_CONFIGMAP_GET(
      verbs("get"),
      "",
      "configmaps",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run preflight: no ConfigMap of the same name",
      Command.WITH_CONFIGMAPS),
  RUN_JOBS_LIST_ALL(
      verbs("list"),
      "batch",
      "jobs",
      null,
      Where.ALL_NAMESPACES,
      Need.ISOLATION,
      "run preflight: other benchplan Jobs on the same endpoint in every namespace (403: only the run's namespace)",
      Command.ALL),
  RUN_JOBS_WATCH(
      verbs("list", "watch"),
      "batch",
      "jobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run preflight: other benchplan Jobs in the run's namespace / watch the Job / cleanup: wait until it is gone",
      Command.ALL),
  RUN_DGD_PODS_LIST(
      verbs("list"),
      "",
      "pods",
      null,
      Where.DGD_NAMESPACE,
      Need.ISOLATION,
      "run preflight: the DGD's serving pods and their nodes (403: isolation not verified)",
      Command.ALL),
  RUN_NODE_GET(
      verbs("get"),
      "",
      "nodes",
      null,
      Where.CLUSTER,
      Need.ISOLATION,
      "run preflight: GPU sharing on the serving nodes (403: not checked)",
      Command.ALL),
  RUN_NODE_PODS_LIST(
      verbs("list"),
      "",
      "pods",
      null,
      Where.ALL_NAMESPACES,
      Need.ISOLATION,
      "run preflight: other pods using GPUs on the serving nodes (403: not checked)",
      Command.ALL),
  // --- run: apply, watch, collect, clean up ---
  RUN_CONFIGMAP_CREATE(
      verbs("create"),
      "",
      "configmaps",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run apply: the AIPerf ConfigMaps",
      Command.WITH_CONFIGMAPS),
  RUN_JOB_CREATE(
      verbs("create"),
      "batch",
      "jobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run apply: the AIPerf Job",
      Command.ALL),
  RUN_PODS_WATCH(
      verbs("list", "watch"),
      "",
      "pods",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run watch: the Job's pod",
      Command.ALL),
  RUN_POD_GET(
      verbs("get"),
      "",
      "pods",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run watch: the pod's final status",
      Command.ALL),
  RUN_POD_LOG(
      verbs("get"),
      "",
      "pods",
      "log",
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run watch and collect: the AIPerf pod log (progress and summary)",
      Command.ALL),
  RUN_EVENTS_LIST(
      verbs("list"),
      "",
      "events",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run watch: the Job's events when no pod starts",
      Command.ALL),
  RUN_JOB_DELETE(
      verbs("delete"),
      "batch",
      "jobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run cleanup (and --replace): the Job",
      Command.ALL),
  RUN_CONFIGMAP_DELETE(
      verbs("delete"),
      "",
      "configmaps",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run cleanup (and --replace): the ConfigMaps",
      Command.WITH_CONFIGMAPS),
  // --- run of a deploy root rendered with --artifacts-pvc: the collector pod(s) ---
  RUN_COLLECTOR_POD(
      verbs("create", "delete"),
      "",
      "pods",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run collect (artifacts on a PVC): the short-lived collector pod that streams the tree back from the claim,"
          + " deleted once it ended (also on failure and Ctrl-C)",
      EnumSet.of(Command.RUN_PVC)),
  RUN_COLLECTOR_POD_WATCH(
      verbs("get", "list", "watch"),
      "",
      "pods",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run collect (artifacts on a PVC): wait until the collector pod ended / is gone",
      EnumSet.of(Command.RUN_PVC)),
  RUN_COLLECTOR_POD_LOG(
      verbs("get"),
      "",
      "pods",
      "log",
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run collect (artifacts on a PVC): the collector pod's log (one verified part of the tree)",
      EnumSet.of(Command.RUN_PVC)),

  // --- run, engine aiperf-operator: one AIPerfJob per measured run, results from the operator ---
  RUN_OPERATOR_CRD_GET(
      verbs("get"),
      "apiextensions.k8s.io",
      "customresourcedefinitions",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "run (operator) preflight: the CRDs aiperfjobs.aiperf.nvidia.com and jobsets.jobset.x-k8s.io exist",
      EnumSet.of(Command.RUN_OPERATOR)),
  RUN_AIPERFJOB_CREATE(
      verbs("get", "create"),
      AiperfGroup.GROUP,
      "aiperfjobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run (operator) apply: no AIPerfJob of the same name, then each AIPerfJob in turn",
      EnumSet.of(Command.RUN_OPERATOR)),
  RUN_AIPERFJOB_WATCH(
      verbs("get", "list", "watch"),
      AiperfGroup.GROUP,
      "aiperfjobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run (operator) watch: the AIPerfJob's status (phase, currentPhase, requests) / cleanup: wait until it is gone",
      EnumSet.of(Command.RUN_OPERATOR)),
  RUN_AIPERFJOB_CANCEL(
      verbs("patch"),
      AiperfGroup.GROUP,
      "aiperfjobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run (operator) on Ctrl-C or timeout: set spec.cancel",
      EnumSet.of(Command.RUN_OPERATOR)),
  RUN_AIPERFJOB_DELETE(
      verbs("delete"),
      AiperfGroup.GROUP,
      "aiperfjobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "run (operator) cleanup (and --replace): the AIPerfJob (the operator keeps its results)",
      EnumSet.of(Command.RUN_OPERATOR)),
  RUN_OPERATOR_RESULTS(
      verbs("get"),
      "",
      "services",
      "proxy",
      Where.OPERATOR_NAMESPACE,
      Need.REQUIRED,
      "run (operator) collect: the operator's results API through the API server's service proxy",
      EnumSet.of(Command.RUN_OPERATOR)),

  // --- validate: discovery ---
  VALIDATE_DGDS_LIST(
      verbs("list"),
      DgdGroup.GROUP,
      "dynamographdeployments",
      null,
      Where.DISCOVERY,
      Need.REQUIRED,
      "validate discovery: the DGDs (all namespaces, or --namespace)",
      Command.VALIDATE),
  VALIDATE_SERVICES_LIST(
      verbs("list"),
      "",
      "services",
      null,
      Where.DISCOVERY,
      Need.REQUIRED,
      "validate discovery: each DGD's frontend Service in its namespace",
      Command.VALIDATE),
  VALIDATE_DGD_GET(
      verbs("get"),
      DgdGroup.GROUP,
      "dynamographdeployments",
      null,
      Where.DGD_NAMESPACE,
      Need.REQUIRED,
      "validate discovery: record the DGD under test as read",
      EnumSet.of(Command.VALIDATE_DGD)),
  VALIDATE_DGD_WATCH(
      verbs("list", "watch"),
      DgdGroup.GROUP,
      "dynamographdeployments",
      null,
      Where.DGD_NAMESPACE,
      Need.REQUIRED,
      "validate readiness: wait until every component of the DGD under test has its ready replicas",
      EnumSet.of(Command.VALIDATE_DGD)),
  VALIDATE_JOB_CLEANUP(
      verbs("get", "delete", "list", "watch"),
      "batch",
      "jobs",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "validate cleanup: the AIPerf Job (only when it still carries the run's label)",
      Command.VALIDATE),
  VALIDATE_CONFIGMAP_CLEANUP(
      verbs("get", "delete", "list", "watch"),
      "",
      "configmaps",
      null,
      Where.RUN_NAMESPACE,
      Need.REQUIRED,
      "validate cleanup: the AIPerf ConfigMaps (only when labelled)",
      Command.VALIDATE),
  VALIDATE_OPERATOR_DEPLOYMENTS_LIST(
      verbs("list"),
      "apps",
      "deployments",
      null,
      Where.ALL_NAMESPACES,
      Need.ISOLATION,
      "validate: the Dynamo platform version on its operator Deployment's labels"
          + " (403: the built-in runtime image)",
      Command.VALIDATE),

  // --- validate: auto-deploy ---
  DEPLOY_NAMESPACES_WATCH(
      verbs("list", "watch"),
      "",
      "namespaces",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate deploy: wait until earlier validate namespaces are gone",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_NODES_LIST(
      verbs("list"),
      "",
      "nodes",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate deploy: choose the GPU node",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_RESOURCESLICES_LIST(
      verbs("list"),
      "resource.k8s.io",
      "resourceslices",
      null,
      Where.CLUSTER,
      Need.ISOLATION,
      "validate deploy: GPUs published through DRA when no node has a free nvidia.com/gpu"
          + " (ResourceSlices of driver gpu.nvidia.com; 403 or 404: DRA not detected)",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_PODS_LIST_ALL(
      verbs("list"),
      "",
      "pods",
      null,
      Where.ALL_NAMESPACES,
      Need.REQUIRED,
      "validate deploy: GPUs already requested on each node",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_NAMESPACE_GET(
      verbs("get"),
      "",
      "namespaces",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate deploy: refuse an active namespace of the same name",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_NAMESPACE_CREATE(
      verbs("create"),
      "",
      "namespaces",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate deploy: the run's fresh namespace",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_DGD_CREATE(
      verbs("create"),
      DgdGroup.GROUP,
      "dynamographdeployments",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate deploy: the default DGD",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_DGD_WATCH(
      verbs("list", "watch"),
      DgdGroup.GROUP,
      "dynamographdeployments",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate deploy: wait until the DGD is successful with every component ready",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_STORAGECLASS_GET(
      verbs("get"),
      "storage.k8s.io",
      "storageclasses",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate deploy: the named model-cache StorageClass exists",
      EnumSet.of(Command.VALIDATE_DEPLOY),
      Feature.MODEL_CACHE),
  DEPLOY_STORAGECLASSES_LIST(
      verbs("list"),
      "storage.k8s.io",
      "storageclasses",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate deploy: the cluster's default StorageClass for the model cache",
      EnumSet.of(Command.VALIDATE_DEPLOY),
      Feature.MODEL_CACHE),
  DEPLOY_PVC_CREATE(
      verbs("create"),
      "",
      "persistentvolumeclaims",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate deploy: the model-cache PVC (removed with the namespace)",
      EnumSet.of(Command.VALIDATE_DEPLOY),
      Feature.MODEL_CACHE),
  DEPLOY_CACHE_JOB_CREATE(
      verbs("create"),
      "batch",
      "jobs",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate deploy: the Job that downloads the model into the cache (removed with the namespace)",
      EnumSet.of(Command.VALIDATE_DEPLOY),
      Feature.MODEL_CACHE),
  DEPLOY_CACHE_JOB_WATCH(
      verbs("list", "watch"),
      "batch",
      "jobs",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate deploy: wait until the model-cache Job completed",
      EnumSet.of(Command.VALIDATE_DEPLOY),
      Feature.MODEL_CACHE),
  DEPLOY_SERVICES_WATCH(
      verbs("list", "watch"),
      "",
      "services",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate deploy: wait for the DGD's frontend Service",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_DGD_CLEANUP(
      verbs("get", "delete", "list", "watch"),
      DgdGroup.GROUP,
      "dynamographdeployments",
      null,
      Where.NEW_NAMESPACE,
      Need.REQUIRED,
      "validate cleanup: the default DGD (only when labelled)",
      EnumSet.of(Command.VALIDATE_DEPLOY)),
  DEPLOY_NAMESPACE_CLEANUP(
      verbs("get", "delete", "list", "watch"),
      "",
      "namespaces",
      null,
      Where.CLUSTER,
      Need.REQUIRED,
      "validate cleanup: the run's namespace (only when labelled)",
      EnumSet.of(Command.VALIDATE_DEPLOY));

  /** The API group of DynamoGraphDeployments (kept here so the table names no validate type). */
  public static final class DgdGroup {
    public static final String GROUP = "nvidia.com";

    private DgdGroup() {}
  }

  /** The API group of AIPerf's operator (AIPerfJob). */
  public static final class AiperfGroup {
    public static final String GROUP = "aiperf.nvidia.com";

    private AiperfGroup() {}
  }

  /** The commands whose calls the table lists. */
  public enum Command {
    /** {@code benchplan run}. */
    RUN,
    /**
     * {@code benchplan validate --dgd NS/NAME} (or one DGD discovered): benchmark an existing DGD.
     */
    VALIDATE_DGD,
    /** {@code benchplan validate} deploying its default DGD. */
    VALIDATE_DEPLOY,
    /** {@code benchplan run} of a deploy root rendered for the {@code aiperf-operator} engine. */
    RUN_OPERATOR,
    /**
     * {@code benchplan run} of a deploy root rendered with {@code --artifacts-pvc}: the plain Job,
     * and collector pods that bring a tree past the log bound back from the claim.
     */
    RUN_PVC;

    /** Every command that runs the plain Job engine. */
    static final Set<Command> ALL = EnumSet.of(RUN, VALIDATE_DGD, VALIDATE_DEPLOY, RUN_PVC);

    static final Set<Command> VALIDATE = EnumSet.of(VALIDATE_DGD, VALIDATE_DEPLOY);

    /**
     * The plain Job's commands and the operator engine (a replayed trace travels in a ConfigMap).
     */
    static final Set<Command> WITH_CONFIGMAPS =
        EnumSet.of(RUN, VALIDATE_DGD, VALIDATE_DEPLOY, RUN_PVC, RUN_OPERATOR);
  }

  /**
   * A part of a command that can be turned off: its rows are needed only when it is on (the RBAC
   * output and the permission check leave them out otherwise).
   */
  public enum Feature {
    /** Every call the command makes whatever its options. */
    ALWAYS,
    /** validate's model-weights cache ({@code --no-model-cache} turns it off). */
    MODEL_CACHE
  }

  /** Whether a command fails without the permission. */
  public enum Need {
    /** The command fails without it: checked before anything is created. */
    REQUIRED,
    /** Only an isolation check, which continues after a 403 and records what it could not check. */
    ISOLATION
  }

  /** Where the call is made. */
  public enum Where {
    /** The namespace the AIPerf Job runs in (validate: the DGD's, or its fresh namespace). */
    RUN_NAMESPACE,
    /** The run's namespace object itself (a cluster-scoped read of one named namespace). */
    RUN_NAMESPACE_BY_NAME,
    /** The namespace of the DGD under test. */
    DGD_NAMESPACE,
    /** validate's discovery: every namespace, or the one named by {@code --namespace}. */
    DISCOVERY,
    /** A namespaced resource across all namespaces. */
    ALL_NAMESPACES,
    /** A cluster-scoped resource. */
    CLUSTER,
    /** validate's fresh namespace, whose name is known only when it runs: granted cluster-wide. */
    NEW_NAMESPACE,
    /** The namespace of AIPerf's operator and its results Service (aiperf-system by default). */
    OPERATOR_NAMESPACE
  }

  @SuppressWarnings("ImmutableEnumChecker") // List.copyOf: unmodifiable
  private final List<String> verbs;

  private final String group;
  private final String resource;
  private final @Nullable String subresource;
  private final Where where;
  private final Need need;
  private final String step;

  @SuppressWarnings("ImmutableEnumChecker") // an unmodifiable view of a private copy
  private final Set<Command> commands;

  private final Feature feature;

  KubeCall(
      List<String> verbs,
      String group,
      String resource,
      @Nullable String subresource,
      Where where,
      Need need,
      String step,
      Set<Command> commands) {
    this(verbs, group, resource, subresource, where, need, step, commands, Feature.ALWAYS);
  }

  KubeCall(
      List<String> verbs,
      String group,
      String resource,
      @Nullable String subresource,
      Where where,
      Need need,
      String step,
      Set<Command> commands,
      Feature feature) {
    this.feature = Objects.requireNonNull(feature, "feature");
    this.verbs = List.copyOf(verbs);
    this.group = group;
    this.resource = resource;
    this.subresource = subresource;
    this.where = where;
    this.need = need;
    this.step = step;
    this.commands = Collections.unmodifiableSet(EnumSet.copyOf(commands));
  }

  private static List<String> verbs(String... v) {
    return List.of(v);
  }

  public List<String> verbs() {
    return verbs;
  }

  /** The API group ("" for the core group). */
  public String group() {
    return group;
  }

  public String resource() {
    return resource;
  }

  /** The subresource, or null. */
  public @Nullable String subresource() {
    return subresource;
  }

  /** {@code resource} or {@code resource/subresource}, as RBAC rules name it. */
  public String rbacResource() {
    return subresource == null ? resource : resource + "/" + subresource;
  }

  public Where where() {
    return where;
  }

  public Need need() {
    return need;
  }

  /** The step that makes the call, for rule comments and messages. */
  public String step() {
    return step;
  }

  public Set<Command> commands() {
    return EnumSet.copyOf(commands);
  }

  /**
   * The part of the command the call serves ({@link Feature#ALWAYS} unless it can be turned off).
   */
  public Feature feature() {
    return feature;
  }

  /**
   * True when a cluster-scoped resource (namespaces, nodes, storageclasses, resourceslices) is
   * called.
   */
  public boolean clusterScopedResource() {
    return resource.equals("namespaces")
        || resource.equals("nodes")
        || resource.equals("customresourcedefinitions")
        || resource.equals("storageclasses")
        || resource.equals("resourceslices");
  }

  /**
   * Refuses (a bug: exit 4) a row that does not allow {@code verb} on {@code group/resource[/sub]}.
   */
  void require(String verb, String group, String resource, @Nullable String subresource) {
    if (!verbs.contains(verb)
        || !this.group.equals(group)
        || !this.resource.equals(resource)
        || !Objects.equals(this.subresource, subresource)) {
      throw new IllegalStateException(
          "Kubernetes call "
              + verb
              + " "
              + (group.isEmpty() ? "" : group + "/")
              + resource
              + (subresource == null ? "" : "/" + subresource)
              + " is not what table row "
              + name()
              + " declares ("
              + verbs
              + " "
              + rbacResource()
              + ")");
    }
  }
}
