package dev.benchplan.kube.validate;

import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.validate.DgdApi;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscovery;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds, through API discovery (allowed to every authenticated user, unlike reading the CRD
 * itself), which versions of the DGD group serve {@code dynamographdeployments}. A group that does
 * not exist (404) means the CRD is not installed; any other error is an error.
 */
final class DgdApiProbe {
  private DgdApiProbe() {}

  static DgdApi probe(ClusterAccess client, String group) {
    APIGroup g;
    try {
      g = client.apiGroup(group); // null on 404
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("API discovery of group " + group, e);
    }
    List<String> served = new ArrayList<>();
    if (g == null || g.getVersions() == null) {
      return new DgdApi(group, served);
    }
    for (GroupVersionForDiscovery v : g.getVersions()) {
      String gv = v.getGroupVersion() != null ? v.getGroupVersion() : group + "/" + v.getVersion();
      APIResourceList resources;
      try {
        resources = client.apiResources(gv);
      } catch (KubernetesClientException e) {
        throw ApiErrors.map("API discovery of " + gv, e);
      }
      if (resources != null
          && resources.getResources() != null
          && resources.getResources().stream().anyMatch(r -> DgdApi.PLURAL.equals(r.getName()))) {
        served.add(v.getVersion() != null ? v.getVersion() : gv.substring(gv.indexOf('/') + 1));
      }
    }
    return new DgdApi(group, served);
  }
}
