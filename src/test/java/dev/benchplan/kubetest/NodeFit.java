package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * The scheduler predicates the kubelet stand-in applies when it binds a pod: node selector,
 * required node affinity, NoSchedule/NoExecute taints against tolerations, cordon, and free {@code
 * nvidia.com/gpu}. A small subset of kube-scheduler's filters, enough for GPU placement tests.
 */
final class NodeFit {
  static final String GPU = "nvidia.com/gpu";

  private NodeFit() {}

  /** Why {@code pod} does not fit {@code node} (a scheduler-style phrase), or null when it fits. */
  static String misfit(Pod pod, FakeNode node, int gpusFree) {
    if (node.unschedulable()) {
      return "node(s) were unschedulable";
    }
    Map<String, String> labels = node.allLabels();
    Map<String, String> selector = pod.getSpec().getNodeSelector();
    if (selector != null
        && !selector.entrySet().stream()
            .allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
      return "node(s) didn't match node selector";
    }
    if (!affinityMatches(pod, node.name(), labels)) {
      return "node(s) didn't match node selector";
    }
    for (Taint taint : node.taints()) {
      boolean hard =
          "NoSchedule".equals(taint.getEffect()) || "NoExecute".equals(taint.getEffect());
      if (hard && !tolerated(taint, pod.getSpec().getTolerations())) {
        return "node(s) had taint {"
            + taint.getKey()
            + ": "
            + taint.getValue()
            + "}, that the pod didn't tolerate";
      }
    }
    if (gpuRequest(pod) > gpusFree) {
      return "Insufficient " + GPU;
    }
    return null;
  }

  /** The GPUs the pod's containers ask for (limits, else requests). */
  static int gpuRequest(Pod pod) {
    int sum = 0;
    for (Container c : pod.getSpec().getContainers()) {
      if (c.getResources() == null) {
        continue;
      }
      Quantity q = null;
      if (c.getResources().getLimits() != null) {
        q = c.getResources().getLimits().get(GPU);
      }
      if (q == null && c.getResources().getRequests() != null) {
        q = c.getResources().getRequests().get(GPU);
      }
      if (q != null) {
        sum += q.getNumericalAmount().intValue();
      }
    }
    return sum;
  }

  private static boolean affinityMatches(Pod pod, String nodeName, Map<String, String> labels) {
    var affinity = pod.getSpec().getAffinity();
    if (affinity == null || affinity.getNodeAffinity() == null) {
      return true;
    }
    var required = affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required == null
        || required.getNodeSelectorTerms() == null
        || required.getNodeSelectorTerms().isEmpty()) {
      return true;
    }
    for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
      boolean all = true;
      for (NodeSelectorRequirement r : nullToEmpty(term.getMatchExpressions())) {
        all &= requirementMatches(r, labels.get(r.getKey()));
      }
      for (NodeSelectorRequirement r : nullToEmpty(term.getMatchFields())) {
        all &= "metadata.name".equals(r.getKey()) && requirementMatches(r, nodeName);
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private static boolean requirementMatches(NodeSelectorRequirement r, String value) {
    List<String> values = nullToEmpty(r.getValues());
    return switch (r.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      case "Gt" ->
          value != null
              && !values.isEmpty()
              && Long.parseLong(value) > Long.parseLong(values.get(0));
      case "Lt" ->
          value != null
              && !values.isEmpty()
              && Long.parseLong(value) < Long.parseLong(values.get(0));
      default -> false;
    };
  }

  private static boolean tolerated(Taint taint, List<Toleration> tolerations) {
    for (Toleration t : nullToEmpty(tolerations)) {
      boolean effectOk =
          t.getEffect() == null
              || t.getEffect().isEmpty()
              || t.getEffect().equals(taint.getEffect());
      boolean exists = "Exists".equals(t.getOperator());
      boolean keyOk =
          (t.getKey() == null || t.getKey().isEmpty()) ? exists : t.getKey().equals(taint.getKey());
      boolean valueOk =
          exists
              || java.util.Objects.equals(nullToBlank(t.getValue()), nullToBlank(taint.getValue()));
      if (effectOk && keyOk && valueOk) {
        return true;
      }
    }
    return false;
  }

  private static String nullToBlank(String s) {
    return s == null ? "" : s;
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
