package dev.benchplan.kube.validate;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.validate.RuntimeImage;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Reads the Dynamo platform version off its operator Deployment. The dynamo-platform chart's
 * operator subchart labels its controller-manager Deployment {@code app.kubernetes.io/part-of:
 * dynamo-operator} with {@code app.kubernetes.io/version: <appVersion>} and {@code helm.sh/chart:
 * dynamo-operator-<version>}, and passes {@code --operator-version=<tag>} to the manager. An
 * optional read: a 403, no such Deployment or no version on it gives an unknown version.
 */
final class PlatformVersionReader {
  static final String PART_OF = "app.kubernetes.io/part-of";
  static final String OPERATOR = "dynamo-operator";
  static final String VERSION_LABEL = "app.kubernetes.io/version";
  static final String CHART_LABEL = "helm.sh/chart";

  private PlatformVersionReader() {}

  static RuntimeImage.PlatformVersion read(ClusterAccess access) {
    List<Deployment> found;
    try {
      found =
          access.listDeploymentsInAnyNamespace(
              KubeCall.VALIDATE_OPERATOR_DEPLOYMENTS_LIST, PART_OF, OPERATOR);
    } catch (KubernetesClientException e) {
      return RuntimeImage.PlatformVersion.unknown(
          (ApiErrors.forbidden(e)
                  ? "forbidden to list Deployments (" + ApiErrors.code(e) + ")"
                  : "listing Deployments failed (" + ApiErrors.describe(e) + ")")
              + ": the operator's version"
              + " was not read");
    }
    TreeSet<String> versions = new TreeSet<>();
    List<String> where = new ArrayList<>();
    for (Deployment d : found) {
      String v = version(d);
      if (v != null) {
        versions.add(v);
        where.add(d.getMetadata().getNamespace() + "/" + d.getMetadata().getName());
      }
    }
    if (versions.isEmpty()) {
      return RuntimeImage.PlatformVersion.unknown(
          found.isEmpty()
              ? "no Deployment labelled " + PART_OF + "=" + OPERATOR + " in the cluster"
              : "the operator Deployment carries no version label");
    }
    String chosen = versions.last();
    return new RuntimeImage.PlatformVersion(
        chosen,
        "operator Deployment "
            + String.join(", ", where)
            + (versions.size() > 1 ? " (versions " + versions + ", the highest used)" : ""));
  }

  /** The version label, else the chart label's suffix, else the manager's --operator-version. */
  static @Nullable String version(Deployment d) {
    Map<String, String> labels =
        d.getMetadata() == null || d.getMetadata().getLabels() == null
            ? Map.of()
            : d.getMetadata().getLabels();
    String v = labels.get(VERSION_LABEL);
    if (v != null && !v.isBlank()) {
      return v.trim();
    }
    String chart = labels.get(CHART_LABEL);
    if (chart != null
        && chart.startsWith(OPERATOR + "-")
        && chart.length() > OPERATOR.length() + 1) {
      return chart.substring(OPERATOR.length() + 1).replace('_', '+');
    }
    if (d.getSpec() != null
        && d.getSpec().getTemplate() != null
        && d.getSpec().getTemplate().getSpec() != null) {
      for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
        for (String a : c.getArgs() == null ? List.<String>of() : c.getArgs()) {
          if (a.startsWith("--operator-version=") && a.length() > "--operator-version=".length()) {
            return a.substring("--operator-version=".length()).trim();
          }
        }
      }
    }
    return null;
  }
}
