package dev.benchplan.kube.rbac;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;

/**
 * Asks the API server (SelfSubjectAccessReview) for every permission a command needs before it
 * creates anything: one missing required permission is a cluster error (exit 3) naming every
 * missing one and the command that prints the rules; missing isolation permissions are returned,
 * for the record.
 */
public final class PermissionCheck {
  private PermissionCheck() {}

  /**
   * Checks {@code targets}' permissions.
   *
   * @param rbacCommand the {@code benchplan rbac ...} command that prints the rules
   * @return the isolation permissions the user lacks (those checks will be skipped)
   * @throws BenchplanException (exit 3) when a required permission is missing
   */
  public static List<Permission> require(
      ClusterAccess access, RbacTargets targets, String rbacCommand) {
    return require(access, targets, rbacCommand, row -> true);
  }

  /**
   * As {@link #require(ClusterAccess, RbacTargets, String)}, for the rows {@code rows} accepts
   * only.
   */
  public static List<Permission> require(
      ClusterAccess access,
      RbacTargets targets,
      String rbacCommand,
      java.util.function.Predicate<dev.benchplan.kube.KubeCall> rows) {
    List<Permission> missing =
        missing(
            access,
            Permissions.distinct(Permissions.required(targets)).stream()
                .filter(p -> rows.test(p.row()))
                .toList());
    if (!missing.isEmpty()) {
      StringBuilder sb =
          new StringBuilder(
              "the API server denied the user of this context "
                  + missing.size()
                  + " permission(s) "
                  + label(targets)
                  + " needs, so nothing was created: ");
      for (int i = 0; i < missing.size(); i++) {
        sb.append(i == 0 ? "" : "; ").append(missing.get(i).describe());
      }
      sb.append(". Print the Role(s) to grant with: ").append(rbacCommand);
      throw BenchplanException.runtime(sb.toString());
    }
    return missing(
        access,
        Permissions.distinct(Permissions.isolation(targets)).stream()
            .filter(p -> rows.test(p.row()))
            .toList());
  }

  /**
   * The permissions of {@code wanted} the server denies (an unanswered review counts as allowed).
   */
  public static List<Permission> missing(ClusterAccess access, List<Permission> wanted) {
    List<Permission> out = new ArrayList<>();
    for (Permission p : wanted) {
      Boolean allowed;
      try {
        allowed =
            access.allowed(
                p.verb(),
                p.group(),
                p.resource(),
                p.subresource(),
                p.namespace(),
                p.resourceName());
      } catch (KubernetesClientException e) {
        throw ApiErrors.map(
            "check permission " + p.verb() + " " + p.resourceRef() + " (SelfSubjectAccessReview)",
            e);
      }
      if (Boolean.FALSE.equals(allowed)) {
        out.add(p);
      }
    }
    return out;
  }

  private static String label(RbacTargets targets) {
    return switch (targets.command()) {
      case RUN -> "run";
      case VALIDATE_DGD -> "validate of an existing DGD";
      case VALIDATE_DEPLOY -> "validate with its default deployment";
      case RUN_OPERATOR -> "run (engine aiperf-operator)";
      case RUN_PVC -> "run (artifacts on a PVC, collector pod)";
    };
  }
}
