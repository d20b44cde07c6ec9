package dev.benchplan.kube.validate;

import dev.benchplan.json.Json;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdView;
import dev.benchplan.validate.ServiceInfo;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Conversions between the client's objects and the plain views the validate logic reads. */
final class KubeDocuments {
  private KubeDocuments() {}

  /** The resource context of DGDs in {@code version} of {@code group}. */
  static ResourceDefinitionContext dgdContext(String group, String version) {
    return ClusterAccess.context(group, version, DgdApi.PLURAL, DgdApi.KIND);
  }

  static ResourceDefinitionContext dgdContext(DgdApi api) {
    return dgdContext(api.group(), api.version());
  }

  /** A generic resource as a JSON tree (through the client's own serialization). */
  static JsonNode tree(ClusterAccess client, Object resource) {
    return Json.JSON.readTree(client.asJson(resource));
  }

  static DgdView dgd(ClusterAccess client, GenericKubernetesResource r) {
    return DgdView.of(tree(client, r));
  }

  /** A JSON tree as a generic resource. */
  static GenericKubernetesResource generic(ClusterAccess client, ObjectNode doc) {
    // the DGD is a custom resource with no fabric8 model: it stays the tree its CRD validates
    return client.unmarshal(Json.JSON.writeValueAsString(doc), GenericKubernetesResource.class);
  }

  /**
   * A JSON tree as a generic resource, through {@code client}'s serialization (the client stays
   * open).
   */
  static GenericKubernetesResource generic(KubernetesClient client, ObjectNode doc) {
    return generic(ClusterAccess.of(client), doc);
  }

  static ServiceInfo service(Service s) {
    var meta = s.getMetadata();
    List<ServiceInfo.Owner> owners =
        meta.getOwnerReferences() == null
            ? List.of()
            : meta.getOwnerReferences().stream()
                .map(o -> new ServiceInfo.Owner(o.getKind(), o.getName(), o.getUid()))
                .toList();
    List<ServiceInfo.Port> ports =
        s.getSpec() == null || s.getSpec().getPorts() == null
            ? List.of()
            : s.getSpec().getPorts().stream()
                .map(p -> new ServiceInfo.Port(p.getName(), p.getPort() == null ? -1 : p.getPort()))
                .toList();
    return new ServiceInfo(meta.getNamespace(), meta.getName(), meta.getLabels(), owners, ports);
  }
}
