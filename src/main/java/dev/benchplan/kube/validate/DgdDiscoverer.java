package dev.benchplan.kube.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdCandidate;
import dev.benchplan.validate.DgdView;
import dev.benchplan.validate.FrontendMatch;
import dev.benchplan.validate.ServiceInfo;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Lists DGDs (all namespaces, or one) and, for each, looks for its frontend Service in the DGD's
 * own namespace only: Services elsewhere are never looked at, so a Service outside any DGD's
 * namespace can never be picked.
 */
final class DgdDiscoverer {
  private DgdDiscoverer() {}

  static List<DgdCandidate> discover(ClusterAccess client, DgdApi api, @Nullable String namespace) {
    List<GenericKubernetesResource> items;
    try {
      items =
          client.listCustom(KubeCall.VALIDATE_DGDS_LIST, KubeDocuments.dgdContext(api), namespace);
    } catch (KubernetesClientException e) {
      if (ApiErrors.code(e) == 403 && namespace == null) {
        throw BenchplanException.runtime(
            "listing "
                + DgdApi.PLURAL
                + " in all namespaces was denied ("
                + ApiErrors.describe(e)
                + "); name the namespace with --namespace");
      }
      throw ApiErrors.map(
          "listing "
              + DgdApi.PLURAL
              + (namespace == null ? " in all namespaces" : " in namespace " + namespace),
          e);
    }
    Map<String, List<ServiceInfo>> servicesByNamespace = new HashMap<>();
    List<DgdCandidate> out = new ArrayList<>();
    for (GenericKubernetesResource r : items) {
      DgdView dgd = KubeDocuments.dgd(client, r);
      List<ServiceInfo> services =
          servicesByNamespace.computeIfAbsent(
              dgd.namespace(),
              ns -> {
                try {
                  return client.listServices(KubeCall.VALIDATE_SERVICES_LIST, ns).stream()
                      .map(KubeDocuments::service)
                      .toList();
                } catch (KubernetesClientException e) {
                  throw ApiErrors.map("listing Services in namespace " + ns, e);
                }
              });
      List<String> problems = new ArrayList<>();
      FrontendMatch frontend = FrontendMatch.find(dgd, services, problems).orElse(null);
      if (frontend != null) {
        problems.clear();
      }
      if (!dgd.successful()) {
        problems.add(
            0,
            "state "
                + (dgd.state() == null ? "not reported yet" : dgd.state())
                + ", not successful");
      }
      out.add(new DgdCandidate(dgd, frontend, problems));
    }
    out.sort(
        Comparator.comparing((DgdCandidate c) -> c.dgd().namespace())
            .thenComparing(c -> c.dgd().name()));
    return out;
  }
}
