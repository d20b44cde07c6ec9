package dev.benchplan.kube.rbac;

import dev.benchplan.kube.KubeCall;
import java.util.StringJoiner;

/**
 * The call table of one command as a Markdown table (the README's permissions tables are these).
 */
public final class RbacTable {
  private RbacTable() {}

  /** One row per table row the command makes: verbs, group, resource, where, need, step. */
  public static String markdown(KubeCall.Command command) {
    StringBuilder sb = new StringBuilder();
    sb.append("| verbs | API group | resource | where | need | step |\n");
    sb.append("|---|---|---|---|---|---|\n");
    for (KubeCall row : KubeCall.values()) {
      if (!row.commands().contains(command)) {
        continue;
      }
      StringJoiner verbs = new StringJoiner(", ");
      row.verbs().forEach(verbs::add);
      sb.append("| ")
          .append(verbs)
          .append(" | ")
          .append(row.group().isEmpty() ? "core" : row.group())
          .append(" | ")
          .append(row.rbacResource())
          .append(" | ")
          .append(where(row, command))
          .append(" | ")
          .append(row.need().name().toLowerCase(java.util.Locale.ROOT))
          .append(row.feature() == KubeCall.Feature.MODEL_CACHE ? " (model cache)" : "")
          .append(" | ")
          .append(row.step().replace("|", "\\|"))
          .append(" |\n");
    }
    return sb.toString();
  }

  private static String where(KubeCall row, KubeCall.Command command) {
    boolean deploy = command == KubeCall.Command.VALIDATE_DEPLOY;
    return switch (row.where()) {
      case RUN_NAMESPACE ->
          deploy
              ? "validate's namespace (cluster-wide)"
              : command == KubeCall.Command.RUN || command == KubeCall.Command.RUN_PVC
                  ? "the Job's namespace"
                  : command == KubeCall.Command.RUN_OPERATOR
                      ? "the AIPerfJobs' namespace"
                      : "the DGD's namespace";
      case RUN_NAMESPACE_BY_NAME ->
          deploy ? "cluster (any namespace)" : "cluster (the run's namespace by name)";
      case DGD_NAMESPACE -> deploy ? "validate's namespace (cluster-wide)" : "the DGD's namespace";
      case DISCOVERY -> "all namespaces, or --namespace";
      case ALL_NAMESPACES -> "all namespaces";
      case CLUSTER -> "cluster";
      case NEW_NAMESPACE -> "validate's namespace (cluster-wide)";
      case OPERATOR_NAMESPACE -> "the operator's namespace (aiperf-system)";
    };
  }
}
