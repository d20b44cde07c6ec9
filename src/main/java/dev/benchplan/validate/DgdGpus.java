package dev.benchplan.validate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Reads a DGD document for what validate scales by: the GPUs its workers request (prefill and
 * decode workers alike: {@code nvidia.com/gpu} per replica x replicas), whether they take GPUs from
 * DRA claims instead (then there is no per-GPU figure), and the container images it runs.
 */
public final class DgdGpus {
  private DgdGpus() {}

  /** The GPUs of the DGD's worker and prefill components. */
  public static GpuCount count(JsonNode dgd) {
    DgdView view = DgdView.of(dgd);
    Map<String, DgdComponent.Role> roles =
        view.components().stream()
            .collect(Collectors.toMap(DgdComponent::name, DgdComponent::role, (a, b) -> a));
    List<String> parts = new ArrayList<>();
    List<String> dra = new ArrayList<>();
    long total = 0;
    for (Map.Entry<String, JsonNode> c : components(dgd).entrySet()) {
      DgdComponent.Role role = roles.get(c.getKey());
      if (role != DgdComponent.Role.WORKER && role != DgdComponent.Role.PREFILL) {
        continue;
      }
      JsonNode comp = c.getValue();
      if (usesClaims(comp)) {
        dra.add(c.getKey());
        continue;
      }
      long perReplica = gpusPerReplica(comp);
      int replicas = comp.path("replicas").isNumber() ? comp.path("replicas").asInt() : 1;
      if (perReplica > 0) {
        total += perReplica * replicas;
        parts.add(c.getKey() + " " + perReplica + " x " + replicas + " replica(s)");
      }
    }
    if (!dra.isEmpty()) {
      return new GpuCount(
          null,
          "dgd",
          "the GPUs of "
              + String.join(", ", dra)
              + " come from DRA resource claims:"
              + " no per-GPU figure");
    }
    if (total < 1 || total > Integer.MAX_VALUE) {
      return new GpuCount(
          null, "dgd", "its workers request no " + GpuNode.GPU_RESOURCE + ": no per-GPU figure");
    }
    return new GpuCount((int) total, "dgd: " + String.join(" + ", parts), null);
  }

  /** Every container image the DGD names, in document order. */
  public static Set<String> images(JsonNode dgd) {
    Set<String> out = new LinkedHashSet<>();
    for (JsonNode comp : components(dgd).values()) {
      addImage(out, comp.path("extraPodSpec").path("mainContainer"));
      for (JsonNode c : comp.path("podTemplate").path("spec").path("containers").values()) {
        addImage(out, c);
      }
    }
    return out;
  }

  private static void addImage(Set<String> out, JsonNode container) {
    if (container.path("image").isString() && !container.path("image").stringValue().isBlank()) {
      out.add(container.path("image").stringValue().trim());
    }
  }

  /**
   * Component name to its node: v1alpha1 {@code spec.services}, v1beta1 {@code spec.components}.
   */
  private static Map<String, JsonNode> components(JsonNode dgd) {
    Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
    JsonNode spec = dgd.path("spec");
    if (spec.path("services").isObject()) {
      for (Map.Entry<String, JsonNode> e : spec.path("services").properties()) {
        out.put(e.getKey(), e.getValue());
      }
    } else {
      for (JsonNode c : spec.path("components").values()) {
        if (c.path("name").isString()) {
          out.put(c.path("name").stringValue(), c);
        }
      }
    }
    return out;
  }

  private static boolean usesClaims(JsonNode comp) {
    Function<JsonNode, Boolean> podClaims =
        pod -> pod.path("resourceClaims").isArray() && !pod.path("resourceClaims").isEmpty();
    if (podClaims.apply(comp.path("extraPodSpec"))
        || podClaims.apply(comp.path("podTemplate").path("spec"))) {
      return true;
    }
    if (nonEmpty(comp.path("resources").path("claims"))
        || nonEmpty(
            comp.path("extraPodSpec").path("mainContainer").path("resources").path("claims"))) {
      return true;
    }
    for (JsonNode c : comp.path("podTemplate").path("spec").path("containers").values()) {
      if (nonEmpty(c.path("resources").path("claims"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean nonEmpty(JsonNode n) {
    return n.isArray() && !n.isEmpty();
  }

  /**
   * GPUs one replica requests (requests, else limits): the component's own, else its containers'.
   */
  private static long gpusPerReplica(JsonNode comp) {
    long own = quantity(comp.path("resources"), "gpu");
    if (own > 0) {
      return own;
    }
    long main =
        quantity(
            comp.path("extraPodSpec").path("mainContainer").path("resources"),
            GpuNode.GPU_RESOURCE);
    if (main > 0) {
      return main;
    }
    long sum = 0;
    for (JsonNode c : comp.path("podTemplate").path("spec").path("containers").values()) {
      sum += quantity(c.path("resources"), GpuNode.GPU_RESOURCE);
    }
    return sum;
  }

  private static long quantity(JsonNode resources, String key) {
    for (String kind : List.of("requests", "limits")) {
      JsonNode v = resources.path(kind).path(key);
      if (v.isNumber() || v.isString()) {
        try {
          return new BigDecimal(v.asString().trim()).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
          return 0;
        }
      }
    }
    return 0;
  }
}
