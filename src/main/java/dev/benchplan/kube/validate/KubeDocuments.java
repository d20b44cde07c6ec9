package dev.benchplan.kube.validate;

import dev.benchplan.json.Json;
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
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withPlural(DgdApi.PLURAL)
        .withKind(DgdApi.KIND)
        .withNamespaced(true)
        .build();
  }

  static ResourceDefinitionContext dgdContext(DgdApi api) {
    return dgdContext(api.group(), api.version());
  }

  /** A generic resource as a JSON tree (through the client's own serialization). */
  static JsonNode tree(KubernetesClient client, Object resource) {
    return Json.JSON.readTree(client.getKubernetesSerialization().asJson(resource));
  }

  static DgdView dgd(KubernetesClient client, GenericKubernetesResource r) {
    return DgdView.of(tree(client, r));
  }

  /** A JSON tree as a generic resource. */
  static GenericKubernetesResource generic(KubernetesClient client, ObjectNode doc) {
    return client.getKubernetesSerialization()
        .unmarshal(Json.JSON.writeValueAsString(doc), GenericKubernetesResource.class);
  }

  static ServiceInfo service(Service s) {
    var meta = s.getMetadata();
    List<ServiceInfo.Owner> owners = meta.getOwnerReferences() == null ? List.of()
        : meta.getOwnerReferences().stream()
            .map(o -> new ServiceInfo.Owner(o.getKind(), o.getName(), o.getUid())).toList();
    List<ServiceInfo.Port> ports = s.getSpec() == null || s.getSpec().getPorts() == null ? List.of()
        : s.getSpec().getPorts().stream()
            .map(p -> new ServiceInfo.Port(p.getName(), p.getPort() == null ? -1 : p.getPort())).toList();
    return new ServiceInfo(meta.getNamespace(), meta.getName(), meta.getLabels(), owners, ports);
  }
}
