package dev.benchplan.kubetest;

import dev.benchplan.json.Json;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * The test API server's audit log (scripts/kube-test-env.sh writes every request at Metadata level
 * to {@code BENCHPLAN_KUBE_AUDIT_LOG}), read as the resource calls one user made, and compared with
 * the {@link KubeCall} table: every call seen has a row of the command (verb, group, resource,
 * subresource, and a namespace the row's targets allow), and every required row of the command was
 * exercised.
 */
public final class AuditLog {
  /** One resource request: verb, group, resource[/sub], namespace ("*" for cluster-scoped). */
  public record Call(String verb, String group, String resource, String namespace) {
    @Override
    public String toString() {
      return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + " " + namespace;
    }
  }

  private AuditLog() {}

  /**
   * The audit log's path, or null when this environment writes none (the comparison is then
   * skipped).
   */
  public static Path path() {
    String log = System.getenv("BENCHPLAN_KUBE_AUDIT_LOG");
    return log == null || !Files.isRegularFile(Path.of(log)) ? null : Path.of(log);
  }

  /**
   * Every resource call {@code user} made (discovery and SelfSubjectAccessReview left out), read
   * until {@code done} holds for the set (the audit backend writes in batches); an {@link
   * AssertionError} with the calls seen when it does not within 10 s.
   */
  public static Set<Call> calls(Path log, String user, Predicate<Set<Call>> done) {
    return Await.value(
        "the audit log to hold the last call of " + user + " (the audit backend writes in batches)",
        Duration.ofSeconds(10),
        () -> read(log, user),
        done);
  }

  private static Set<Call> read(Path log, String user) {
    Set<Call> seen = new LinkedHashSet<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (String line : lines) {
      if (!line.contains(user)) {
        continue;
      }
      JsonNode e = Json.JSON.readTree(line);
      if (!user.equals(e.path("user").path("username").asString()) || !e.has("objectRef")) {
        continue;
      }
      JsonNode ref = e.path("objectRef");
      String resource = ref.path("resource").asString();
      if (resource.equals("selfsubjectaccessreviews")) {
        continue;
      }
      String sub = ref.path("subresource").asString("");
      // the audit log puts a namespace's own name in objectRef.namespace: cluster-scoped is "*"
      // here
      boolean cluster =
          List.of("namespaces", "nodes", "storageclasses", "customresourcedefinitions")
              .contains(resource);
      String ns = cluster ? "" : ref.path("namespace").asString("");
      seen.add(
          new Call(
              e.path("verb").asString(),
              ref.path("apiGroup").asString(""),
              resource + (sub.isEmpty() ? "" : "/" + sub),
              ns.isEmpty() ? "*" : ns));
    }
    return seen;
  }

  /** Whether {@code row} (of {@code targets}' command) allows {@code call}. */
  public static boolean allows(KubeCall row, RbacTargets targets, Call call) {
    if (!row.commands().contains(targets.command())
        || !row.verbs().contains(call.verb())
        || !row.group().equals(call.group())
        || !row.rbacResource().equals(call.resource())) {
      return false;
    }
    String ns = targets.namespaceOf(row);
    // a row granted in all namespaces (or cluster-wide) allows a call anywhere; else only its
    // namespace
    return ns == null || ns.equals(call.namespace());
  }

  /** The comparison of one command's calls with the table. */
  public record Comparison(
      List<Call> outsideTable,
      List<KubeCall> requiredUnexercised,
      Map<KubeCall, List<Call>> exercised) {}

  /** Compares {@code seen} with the table rows of {@code targets}' command. */
  public static Comparison compare(Set<Call> seen, RbacTargets targets) {
    List<Call> outside = new ArrayList<>();
    Map<KubeCall, List<Call>> exercised = new LinkedHashMap<>();
    for (Call c : seen) {
      boolean listed = false;
      for (KubeCall row : KubeCall.values()) {
        if (allows(row, targets, c)) {
          listed = true;
          exercised.computeIfAbsent(row, r -> new ArrayList<>()).add(c);
        }
      }
      if (!listed) {
        outside.add(c);
      }
    }
    List<KubeCall> unexercised = new ArrayList<>();
    for (KubeCall row : KubeCall.values()) {
      if (row.commands().contains(targets.command())
          && row.need() == KubeCall.Need.REQUIRED
          && !exercised.containsKey(row)) {
        unexercised.add(row);
      }
    }
    return new Comparison(outside, unexercised, exercised);
  }
}
