package dev.benchplan.kube.validate;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.validate.DraGpus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the NVIDIA DRA driver's ResourceSlices (cluster-scoped, {@code resource.k8s.io}): v1 from
 * Kubernetes 1.34, v1beta2 and v1beta1 before, newest first. A version the server does not serve
 * (404) tries the next; none served, or a 403, is "not detected", never an error: DRA is a question
 * validate asks only to explain a cluster without device-plugin GPUs.
 */
final class DraSlices {
  static final String GROUP = "resource.k8s.io";
  static final List<String> VERSIONS = List.of("v1", "v1beta2", "v1beta1");

  private DraSlices() {}

  static DraGpus read(ClusterAccess access) {
    for (String version : VERSIONS) {
      List<GenericKubernetesResource> slices;
      try {
        slices =
            access.listClusterScoped(
                KubeCall.DEPLOY_RESOURCESLICES_LIST,
                GROUP,
                version,
                "resourceslices",
                "ResourceSlice");
      } catch (KubernetesClientException e) {
        if (ApiErrors.notFound(e)) {
          continue;
        }
        if (ApiErrors.forbidden(e)) {
          return DraGpus.notDetected("not detected: listing ResourceSlices is forbidden (403)");
        }
        throw e;
      }
      return count(GROUP + "/" + version, slices);
    }
    return DraGpus.notDetected("not detected: the cluster serves no " + GROUP + " ResourceSlices");
  }

  /** Devices of the NVIDIA driver per node; {@code spec.devices} in v1beta2/v1, as in v1beta1. */
  static DraGpus count(String apiVersion, List<GenericKubernetesResource> slices) {
    Map<String, Integer> byNode = new TreeMap<>();
    for (GenericKubernetesResource s : slices) {
      if (!(s.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)
          || !DraGpus.DRIVER.equals(spec.get("driver"))) {
        continue;
      }
      int devices = spec.get("devices") instanceof List<?> d ? d.size() : 0;
      Object node = spec.get("nodeName");
      byNode.merge(
          node instanceof String n && !n.isEmpty() ? n : "(no node)", devices, Integer::sum);
    }
    return new DraGpus(
        apiVersion,
        byNode,
        byNode.isEmpty()
            ? "not detected: no " + apiVersion + " ResourceSlice of driver " + DraGpus.DRIVER
            : "detected: " + apiVersion + " ResourceSlices of driver " + DraGpus.DRIVER);
  }
}
