package dev.benchplan.kubetest;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A Node the {@link FakeKubelet} registers: InternalIP 127.0.0.1 only, the stand-in's HTTPS port as
 * its kubelet endpoint, {@code gpus} as {@code nvidia.com/gpu} capacity and allocatable, and the
 * labels {@code kubernetes.io/hostname=<name>}, {@code kubernetes.io/os=linux}, {@code
 * kubernetes.io/arch=amd64} plus {@link #labels}.
 *
 * @param name a DNS-1123 subdomain, unique in the cluster while the kubelet runs
 * @param gpus {@code nvidia.com/gpu} capacity (0: none advertised)
 * @param labels extra node labels
 * @param taints node taints (NoSchedule/NoExecute ones are honoured when binding)
 * @param unschedulable {@code spec.unschedulable} (cordoned): nothing is bound to it
 */
public record FakeNode(
    String name, int gpus, Map<String, String> labels, List<Taint> taints, boolean unschedulable) {
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** Validates the name and GPU count; copies labels and taints. */
  public FakeNode {
    Objects.requireNonNull(name, "name");
    if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "node name must be a DNS-1123 subdomain, got '" + name + "'");
    }
    if (gpus < 0) {
      throw new IllegalArgumentException("gpus must be >= 0, got " + gpus);
    }
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
  }

  /** A schedulable node with {@code gpus} GPUs, no extra labels, no taints. */
  public static FakeNode withGpus(String name, int gpus) {
    return new FakeNode(name, gpus, Map.of(), List.of(), false);
  }

  /** This node with one more label. */
  public FakeNode withLabel(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(labels);
    copy.put(key, value);
    return new FakeNode(name, gpus, copy, taints, unschedulable);
  }

  /** This node with one more taint ({@code effect}: NoSchedule, PreferNoSchedule, NoExecute). */
  public FakeNode withTaint(String key, String value, String effect) {
    List<Taint> copy = new ArrayList<>(taints);
    copy.add(new TaintBuilder().withKey(key).withValue(value).withEffect(effect).build());
    return new FakeNode(name, gpus, labels, copy, unschedulable);
  }

  /** This node, cordoned ({@code spec.unschedulable: true}). */
  public FakeNode cordoned() {
    return new FakeNode(name, gpus, labels, taints, true);
  }

  /** Every label the node carries: the well-known ones plus {@link #labels}. */
  public Map<String, String> allLabels() {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("kubernetes.io/hostname", name);
    all.put("kubernetes.io/os", "linux");
    all.put("kubernetes.io/arch", "amd64");
    all.putAll(labels);
    return all;
  }
}
