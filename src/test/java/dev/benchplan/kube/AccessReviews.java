package dev.benchplan.kube;

import dev.benchplan.json.Json;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Answers SelfSubjectAccessReviews on the fabric8 mock server (which, in CRUD mode, would reject
 * them): allowed unless {@code denied} matches the review's resource attributes, as {@code "verb
 * resource[/sub][.group] namespace-or-*"}. Records every question asked.
 */
public final class AccessReviews {
  private final List<String> asked = new CopyOnWriteArrayList<>();

  private AccessReviews() {}

  /** Installs the answers on {@code server}. */
  public static AccessReviews install(KubernetesMockServer server, Predicate<String> denied) {
    AccessReviews reviews = new AccessReviews();
    server
        .expect()
        .post()
        .withPath("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
        .andReply(
            201,
            request -> {
              ObjectNode review = (ObjectNode) Json.JSON.readTree(request.getBody().readUtf8());
              JsonNode a = review.path("spec").path("resourceAttributes");
              String group = a.path("group").asString("");
              String key =
                  a.path("verb").asString("")
                      + " "
                      + a.path("resource").asString("")
                      + (a.path("subresource").asString("").isEmpty()
                          ? ""
                          : "/" + a.path("subresource").asString(""))
                      + (group.isEmpty() ? "" : "." + group)
                      + " "
                      + (a.path("namespace").asString("").isEmpty()
                          ? "*"
                          : a.path("namespace").asString(""));
              reviews.asked.add(key);
              review.putObject("status").put("allowed", !denied.test(key));
              return review;
            })
        .always();
    return reviews;
  }

  /** Every review asked, as {@code "verb resource namespace-or-*"}. */
  public List<String> asked() {
    return List.copyOf(asked);
  }
}
