package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The node the default deployment goes to: among schedulable, ready nodes that match {@code
 * --node-selector}, the one with the most free GPUs (ties broken by name, so the choice is
 * reproducible). Workers = its free GPUs, one GPU each.
 *
 * @param node the chosen node
 * @param workers the number of workers (its free GPUs)
 * @param considered one line per node: its GPU figures or why it was excluded
 */
public record GpuNodeChoice(GpuNode node, int workers, List<String> considered) {
  public GpuNodeChoice {
    Objects.requireNonNull(node, "node");
    considered = List.copyOf(considered);
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1");
    }
  }

  /** Chooses a node; throws a runtime error (exit 3) naming every node's reason when none fits. */
  public static GpuNodeChoice choose(List<GpuNode> nodes, Map<String, String> selector) {
    List<String> considered = new ArrayList<>();
    List<GpuNode> eligible = new ArrayList<>();
    for (GpuNode n : nodes.stream().sorted(Comparator.comparing(GpuNode::name)).toList()) {
      String why = exclusion(n, selector);
      if (why != null) {
        considered.add(n.name() + ": excluded, " + why);
        continue;
      }
      considered.add(
          n.name()
              + ": "
              + n.allocatableGpus()
              + " allocatable, "
              + n.requestedGpus()
              + " requested, "
              + n.freeGpus()
              + " free");
      if (n.freeGpus() > 0) {
        eligible.add(n);
      }
    }
    GpuNode best =
        eligible.stream()
            .max(
                Comparator.comparingLong(GpuNode::freeGpus)
                    .thenComparing(GpuNode::name, Comparator.reverseOrder()))
            .orElse(null);
    if (best == null) {
      String scope = selector.isEmpty() ? "" : " matching --node-selector " + selector;
      throw BenchplanException.runtime(
          "no schedulable node"
              + scope
              + " has a free "
              + GpuNode.GPU_RESOURCE
              + (nodes.isEmpty()
                  ? " (the cluster lists no nodes)"
                  : " (" + String.join("; ", considered) + ")"));
    }
    long free = best.freeGpus();
    if (free > Integer.MAX_VALUE) {
      throw BenchplanException.runtime("node " + best.name() + " reports " + free + " free GPUs");
    }
    return new GpuNodeChoice(best, (int) free, considered);
  }

  private static @Nullable String exclusion(GpuNode n, Map<String, String> selector) {
    for (Map.Entry<String, String> e : selector.entrySet()) {
      if (!e.getValue().equals(n.labels().get(e.getKey()))) {
        return "label " + e.getKey() + "=" + e.getValue() + " missing";
      }
    }
    if (n.unschedulable()) {
      return "unschedulable (cordoned)";
    }
    if (Boolean.FALSE.equals(n.ready())) {
      return "not Ready";
    }
    if (n.allocatableGpus() == 0) {
      return "no allocatable " + GpuNode.GPU_RESOURCE;
    }
    return null;
  }
}
