package dev.benchplan.kube.validate;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.validate.GpuNode;
import dev.benchplan.validate.NodeTaint;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads every node's allocatable {@code nvidia.com/gpu} and the GPUs requested by the non-terminal
 * pods bound to it (pods being deleted still hold their GPUs until they are gone).
 */
final class GpuInventory {
  private GpuInventory() {}

  static List<GpuNode> read(ClusterAccess client) {
    List<Node> nodes;
    List<Pod> pods;
    try {
      nodes = client.listNodes(KubeCall.DEPLOY_NODES_LIST);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("listing nodes", e);
    }
    try {
      pods = client.listPodsInAnyNamespace(KubeCall.DEPLOY_PODS_LIST_ALL, Map.of());
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("listing pods in all namespaces (to count GPUs in use)", e);
    }
    Map<String, Long> requested = new HashMap<>();
    for (Pod p : pods) {
      String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
      String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
      if (node == null || "Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      long gpus =
          GpuNode.podGpus(gpus(p.getSpec().getContainers()), gpus(p.getSpec().getInitContainers()));
      requested.merge(node, gpus, Long::sum);
    }
    List<GpuNode> out = new ArrayList<>();
    for (Node n : nodes) {
      String name = n.getMetadata().getName();
      Map<String, Quantity> allocatable =
          n.getStatus() == null ? null : n.getStatus().getAllocatable();
      long alloc = allocatable == null ? 0 : whole(allocatable.get(GpuNode.GPU_RESOURCE));
      Boolean ready = null;
      if (n.getStatus() != null && n.getStatus().getConditions() != null) {
        for (NodeCondition c : n.getStatus().getConditions()) {
          if ("Ready".equals(c.getType())) {
            ready = "True".equals(c.getStatus());
          }
        }
      }
      List<NodeTaint> taints =
          n.getSpec() == null || n.getSpec().getTaints() == null
              ? List.of()
              : n.getSpec().getTaints().stream()
                  .map(t -> new NodeTaint(t.getKey(), t.getValue(), t.getEffect()))
                  .toList();
      boolean unschedulable =
          n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
      out.add(
          new GpuNode(
              name,
              n.getMetadata().getLabels(),
              alloc,
              requested.getOrDefault(name, 0L),
              unschedulable,
              ready,
              taints));
    }
    return out;
  }

  /**
   * Per container: its GPU request, else its limit (extended resources default requests to limits).
   */
  private static List<Long> gpus(List<Container> containers) {
    List<Long> out = new ArrayList<>();
    if (containers == null) {
      return out;
    }
    for (Container c : containers) {
      ResourceRequirements r = c.getResources();
      Quantity q = null;
      if (r != null && r.getRequests() != null) {
        q = r.getRequests().get(GpuNode.GPU_RESOURCE);
      }
      if (q == null && r != null && r.getLimits() != null) {
        q = r.getLimits().get(GpuNode.GPU_RESOURCE);
      }
      out.add(whole(q));
    }
    return out;
  }

  private static long whole(@Nullable Quantity q) {
    if (q == null) {
      return 0;
    }
    BigDecimal v = q.getNumericalAmount();
    return v.signum() <= 0 ? 0 : v.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
  }
}
