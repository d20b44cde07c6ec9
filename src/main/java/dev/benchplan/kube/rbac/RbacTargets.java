package dev.benchplan.kube.rbac;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.KubeCall;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which namespaces a command's calls go to: the table's {@link KubeCall.Where} made concrete.
 *
 * @param command the command
 * @param runNamespace where the AIPerf Job runs (run, validate --dgd); null for auto-deploy
 * @param dgdNamespace the DGD's namespace (run, validate --dgd); null for auto-deploy
 * @param discoveryNamespace validate's {@code --namespace}, or null for all namespaces (validate
 *     only)
 * @param operatorNamespace where AIPerf's operator serves its results (run of the operator engine)
 * @param modelCache whether validate's auto-deployment caches the model weights (its PVC, populate
 *     Job and StorageClass rows, {@link KubeCall.Feature#MODEL_CACHE}, are needed only then)
 */
public record RbacTargets(
    KubeCall.Command command,
    @Nullable String runNamespace,
    @Nullable String dgdNamespace,
    @Nullable String discoveryNamespace,
    @Nullable String operatorNamespace,
    boolean modelCache) {
  /** Targets of a command that does not reach AIPerf's operator. */
  public RbacTargets(
      KubeCall.Command command,
      @Nullable String runNamespace,
      @Nullable String dgdNamespace,
      @Nullable String discoveryNamespace) {
    this(command, runNamespace, dgdNamespace, discoveryNamespace, null, true);
  }

  /** Targets with the model cache on (validate's default; only the auto-deployment has one). */
  public RbacTargets(
      KubeCall.Command command,
      @Nullable String runNamespace,
      @Nullable String dgdNamespace,
      @Nullable String discoveryNamespace,
      @Nullable String operatorNamespace) {
    this(command, runNamespace, dgdNamespace, discoveryNamespace, operatorNamespace, true);
  }

  public RbacTargets {
    Objects.requireNonNull(command, "command");
    if (command != KubeCall.Command.VALIDATE_DEPLOY
        && (runNamespace == null || dgdNamespace == null)) {
      throw BenchplanException.invalid(command + " needs the run's and the DGD's namespaces");
    }
  }

  /** run: the Job's namespace and the DGD's. */
  public static RbacTargets run(String runNamespace, String dgdNamespace) {
    return new RbacTargets(KubeCall.Command.RUN, runNamespace, dgdNamespace, null);
  }

  /**
   * run of a deploy root: with {@code artifactsOnClaim} (rendered with --artifacts-pvc) the
   * collector pod's rights too.
   */
  public static RbacTargets run(
      String runNamespace, String dgdNamespace, boolean artifactsOnClaim) {
    return new RbacTargets(
        artifactsOnClaim ? KubeCall.Command.RUN_PVC : KubeCall.Command.RUN,
        runNamespace,
        dgdNamespace,
        null);
  }

  /** run of the operator engine: the AIPerfJobs' namespace, the DGD's, and the operator's. */
  public static RbacTargets runOperator(
      String runNamespace, String dgdNamespace, String operatorNamespace) {
    return new RbacTargets(
        KubeCall.Command.RUN_OPERATOR, runNamespace, dgdNamespace, null, operatorNamespace);
  }

  /** validate of an existing DGD (its Job runs in the DGD's namespace). */
  public static RbacTargets validateDgd(String dgdNamespace, @Nullable String discoveryNamespace) {
    return new RbacTargets(
        KubeCall.Command.VALIDATE_DGD, dgdNamespace, dgdNamespace, discoveryNamespace);
  }

  /**
   * validate deploying its default DGD in a fresh namespace, with the model cache (the default).
   */
  public static RbacTargets validateDeploy(@Nullable String discoveryNamespace) {
    return validateDeploy(discoveryNamespace, true);
  }

  /** validate deploying its default DGD in a fresh namespace, with or without the model cache. */
  public static RbacTargets validateDeploy(
      @Nullable String discoveryNamespace, boolean modelCache) {
    return new RbacTargets(
        KubeCall.Command.VALIDATE_DEPLOY, null, null, discoveryNamespace, null, modelCache);
  }

  /** Whether the targets need the calls of {@code row}: its command's, and its feature on. */
  public boolean needs(KubeCall row) {
    return row.commands().contains(command)
        && (row.feature() != KubeCall.Feature.MODEL_CACHE || modelCache);
  }

  /** The namespace a row's call goes to; null: all namespaces (or a cluster-scoped resource). */
  public @Nullable String namespaceOf(KubeCall row) {
    if (row.clusterScopedResource()) {
      return null;
    }
    return switch (row.where()) {
      case RUN_NAMESPACE -> runNamespace;
      case DGD_NAMESPACE -> dgdNamespace;
      case DISCOVERY -> discoveryNamespace;
      case OPERATOR_NAMESPACE -> operatorNamespace;
      case ALL_NAMESPACES, CLUSTER, NEW_NAMESPACE, RUN_NAMESPACE_BY_NAME -> null;
    };
  }

  /**
   * The one object a row's call names, when the rule can be limited to it (the run's namespace).
   */
  public @Nullable String resourceNameOf(KubeCall row) {
    return row.where() == KubeCall.Where.RUN_NAMESPACE_BY_NAME ? runNamespace : null;
  }
}
