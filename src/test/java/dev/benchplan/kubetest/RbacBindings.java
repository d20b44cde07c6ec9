package dev.benchplan.kubetest;

import dev.benchplan.json.Json;
import dev.benchplan.kube.rbac.Permission;
import dev.benchplan.kube.rbac.RbacManifest;
import dev.benchplan.testing.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The least-privilege ITs' harness (RbacRunIT, RbacValidateIT): binds, as admin, the objects {@code
 * benchplan rbac} prints for an identity with no rights, with one permission left out at will, and
 * removes them again.
 */
public final class RbacBindings {
  private final KubernetesClient admin;
  private final List<HasMetadata> created = new ArrayList<>();

  public RbacBindings(KubernetesClient admin) {
    this.admin = admin;
  }

  /** A ServiceAccount with no rights and a client authenticated as it. */
  public record Identity(String name, KubernetesClient client) {
    /** A fresh one named {@code name} in the test's namespace. */
    public static Identity create(KubeTestContext kube, String name) {
      return new Identity(name, kube.clientWithToken(kube.serviceAccountToken(name)));
    }
  }

  /** True for the printed objects labelled as required (not the optional isolation checks). */
  public static boolean required(ObjectNode o) {
    return o.path("metadata")
        .path("labels")
        .path(RbacManifest.NEED_LABEL)
        .asString()
        .equals("required");
  }

  /**
   * Creates the printed objects {@code keep} keeps, each renamed with {@code suffix} so that steps
   * do not collide, and with {@code without}'s verb taken out of its rule (null: every verb kept).
   */
  public void bind(
      RbacManifest m, Predicate<ObjectNode> keep, @Nullable Permission without, String suffix) {
    for (RbacManifest.Item item : m.objects()) {
      ObjectNode o = item.object().deepCopy();
      if (!keep.test(o)) {
        continue;
      }
      String name = o.path("metadata").path("name").asString() + suffix;
      ((ObjectNode) o.path("metadata")).put("name", name);
      if (o.has("roleRef")) {
        ((ObjectNode) o.path("roleRef")).put("name", name);
      }
      if (without != null && o.has("rules")) {
        boolean nsMatches =
            o.path("kind").asString().equals("ClusterRole")
                ? without.namespace() == null
                : o.path("metadata").path("namespace").asString().equals(without.namespace());
        for (JsonNode rule : o.path("rules")) {
          if (nsMatches
              && rule.path("apiGroups").get(0).asString().equals(without.group())
              && rule.path("resources").get(0).asString().equals(without.row().rbacResource())) {
            ArrayNode verbs = (ArrayNode) rule.path("verbs");
            for (int i = verbs.size() - 1; i >= 0; i--) {
              if (verbs.get(i).asString().equals(without.verb())) {
                verbs.remove(i);
              }
            }
            if (verbs.isEmpty()) {
              verbs.add("deletecollection"); // a rule needs a verb; this one benchplan never uses
            }
          }
        }
      }
      HasMetadata obj =
          admin
              .getKubernetesSerialization()
              .unmarshal(Json.JSON.writeValueAsString(o), HasMetadata.class);
      created.add(admin.resource(obj).create());
    }
  }

  /** Deletes what {@link #bind} created. */
  public void unbind() {
    for (HasMetadata o : created) {
      admin.resource(o).delete();
    }
    created.clear();
  }

  /** Waits until {@code who} may do {@code p}: the RBAC authorizer's caches follow watches. */
  public static void awaitAllowed(Identity who, Permission p) {
    awaitAllowed(
        who,
        p.verb(),
        p.group(),
        p.resource(),
        p.subresource(),
        p.namespace(),
        p.resourceName(),
        p.describe());
  }

  /**
   * Waits until {@code who} may {@code verb} {@code resource} of {@code group} in {@code
   * namespace}.
   */
  public static void awaitAllowed(
      Identity who, String verb, String group, String resource, @Nullable String namespace) {
    awaitAllowed(who, verb, group, resource, null, namespace, null, verb + " " + resource);
  }

  private static void awaitAllowed(
      Identity who,
      String verb,
      String group,
      String resource,
      @Nullable String subresource,
      @Nullable String namespace,
      @Nullable String name,
      String what) {
    Await.until(
        who.name() + " to be allowed to " + what,
        Duration.ofSeconds(20),
        () ->
            Boolean.TRUE.equals(
                who.client()
                    .authorization()
                    .v1()
                    .selfSubjectAccessReview()
                    .create(
                        new SelfSubjectAccessReviewBuilder()
                            .withNewSpec()
                            .withNewResourceAttributes()
                            .withVerb(verb)
                            .withGroup(group)
                            .withResource(resource)
                            .withSubresource(subresource)
                            .withNamespace(namespace)
                            .withName(name)
                            .endResourceAttributes()
                            .endSpec()
                            .build())
                    .getStatus()
                    .getAllowed()));
  }
}
