package dev.benchplan.kube.rbac;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.json.Json;
import dev.benchplan.kube.KubeCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Roles, ClusterRoles and bindings that grant a command exactly what the call table says it
 * needs: required and isolation rules in separate objects, a ClusterRole only for cluster-scoped or
 * all-namespace calls, no wildcards, each rule with the steps that need it.
 *
 * @param title what the objects are for (first comment line)
 * @param notes further comment lines (inputs read, what needs no rule)
 * @param objects the objects, roles first, each followed by its binding
 */
public record RbacManifest(String title, List<String> notes, List<Item> objects) {
  /** Label on every printed object: which need it grants. */
  public static final String NEED_LABEL = "benchplan.dev/rbac-need";

  /**
   * Annotation carrying, for JSON output, the comment YAML gives each rule: an array, one step per
   * rule.
   */
  public static final String STEPS_ANNOTATION = "benchplan.dev/rule-steps";

  private static final Pattern SUBJECT_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9./_-]*");
  private static final Set<String> YAML_WORDS =
      Set.of("true", "false", "null", "yes", "no", "on", "off", "y", "n", "~");

  public RbacManifest {
    Objects.requireNonNull(title, "title");
    notes = List.copyOf(notes);
    objects = List.copyOf(objects);
  }

  /**
   * One printed object.
   *
   * @param comment the comment above it
   * @param object the Kubernetes object
   * @param ruleSteps for a role, the comment of each rule; empty for a binding
   */
  public record Item(String comment, ObjectNode object, List<String> ruleSteps) {}

  /**
   * Who the bindings bind.
   *
   * @param kind ServiceAccount or User
   * @param name its name
   * @param namespace the ServiceAccount's namespace (null for a User)
   */
  public record Subject(String kind, String name, @Nullable String namespace) {
    public Subject {
      if (!kind.equals("ServiceAccount") && !kind.equals("User")) {
        throw BenchplanException.invalid(
            "subject kind: expected ServiceAccount or User, got '" + kind + "'");
      }
      if (kind.equals("ServiceAccount")
          && (namespace == null
              || !SUBJECT_NAME.matcher(namespace).matches()
              || !SUBJECT_NAME.matcher(name).matches())) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--service-account"),
            "option --service-account: expected NAMESPACE/NAME (lower-case DNS names),"
                + " got '"
                + namespace
                + "/"
                + name
                + "'");
      }
      if (name.isBlank()) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--user"),
            "option --user: expected a user name, got an empty one");
      }
    }

    /** {@code NAMESPACE/NAME} as a ServiceAccount. */
    public static Subject serviceAccount(String ref) {
      int slash = ref.indexOf('/');
      if (slash <= 0 || slash == ref.length() - 1) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--service-account"),
            "option --service-account: expected NAMESPACE/NAME, got '" + ref + "'");
      }
      return new Subject("ServiceAccount", ref.substring(slash + 1), ref.substring(0, slash));
    }
  }

  /**
   * The objects for {@code targets}.
   *
   * @param prefix the objects' name prefix (e.g. benchplan-run)
   */
  public static RbacManifest build(
      String title, List<String> notes, RbacTargets targets, String prefix, Subject subject) {
    List<Item> items = new ArrayList<>();
    add(
        items,
        Permissions.required(targets),
        "required",
        prefix,
        subject,
        targets,
        "required: "
            + label(targets)
            + " fails (exit 3, nothing created) without every rule of this");
    add(
        items,
        Permissions.isolation(targets),
        "isolation",
        prefix + "-isolation",
        subject,
        targets,
        "isolation: without these rules the isolation checks are skipped and recorded as not verified");
    return new RbacManifest(title, notes, items);
  }

  private static void add(
      List<Item> items,
      List<Permission> perms,
      String need,
      String name,
      Subject subject,
      RbacTargets targets,
      String comment) {
    // namespace (null: cluster) -> rule key -> verbs and steps
    Map<String, Map<String, Rule>> byScope =
        new TreeMap<>(
            java.util.Comparator.comparing(String::isEmpty)
                .thenComparing(java.util.Comparator.naturalOrder()));
    for (Permission p : perms) {
      String scope = p.namespace() == null ? "" : p.namespace();
      // one rule per table row: each rule is one step's need, named in its comment
      String key = p.row().name();
      Rule r =
          byScope
              .computeIfAbsent(scope, s -> new LinkedHashMap<>())
              .computeIfAbsent(
                  key,
                  k ->
                      new Rule(
                          p.group(),
                          p.row().rbacResource(),
                          p.resourceName(),
                          new LinkedHashSet<>(),
                          new LinkedHashSet<>()));
      r.verbs().add(p.verb());
      r.steps().add(p.row().step());
    }
    for (Map.Entry<String, Map<String, Rule>> e : byScope.entrySet()) {
      boolean cluster = e.getKey().isEmpty();
      String roleName = cluster ? name + "-cluster" : name;
      ObjectNode role = Json.JSON.createObjectNode();
      role.put("apiVersion", "rbac.authorization.k8s.io/v1");
      role.put("kind", cluster ? "ClusterRole" : "Role");
      ObjectNode meta = metadata(role, roleName, cluster ? null : e.getKey(), need);
      ArrayNode rules = role.putArray("rules");
      List<String> steps = new ArrayList<>();
      ArrayNode stepsJson = Json.JSON.createArrayNode();
      for (Rule r : e.getValue().values()) {
        ObjectNode rule = rules.addObject();
        rule.putArray("apiGroups").add(r.group());
        rule.putArray("resources").add(r.resource());
        if (r.resourceName() != null) {
          rule.putArray("resourceNames").add(r.resourceName());
        }
        ArrayNode verbs = rule.putArray("verbs");
        r.verbs().forEach(verbs::add);
        String s = String.join("; ", r.steps());
        steps.add(s);
        stepsJson.add(s);
      }
      meta.putObject("annotations").put(STEPS_ANNOTATION, stepsJson.toString());
      String where =
          cluster
              ? (targets.command() == KubeCall.Command.VALIDATE_DEPLOY
                  ? "cluster-wide (validate's fresh namespace is named only when it runs)"
                  : "cluster-wide")
              : "namespace " + e.getKey();
      items.add(new Item(comment + "; " + where, role, steps));

      ObjectNode binding = Json.JSON.createObjectNode();
      binding.put("apiVersion", "rbac.authorization.k8s.io/v1");
      binding.put("kind", cluster ? "ClusterRoleBinding" : "RoleBinding");
      metadata(binding, roleName, cluster ? null : e.getKey(), need);
      ObjectNode ref = binding.putObject("roleRef");
      ref.put("apiGroup", "rbac.authorization.k8s.io");
      ref.put("kind", cluster ? "ClusterRole" : "Role");
      ref.put("name", roleName);
      ObjectNode subj = binding.putArray("subjects").addObject();
      subj.put("kind", subject.kind());
      subj.put("name", subject.name());
      if (subject.namespace() != null) {
        subj.put("namespace", subject.namespace());
      } else {
        subj.put("apiGroup", "rbac.authorization.k8s.io");
      }
      items.add(
          new Item(
              "binds "
                  + roleName
                  + " to the identity benchplan runs as: fill in the subject"
                  + " (--service-account NS/NAME or --user NAME)",
              binding,
              List.of()));
    }
  }

  private record Rule(
      String group,
      String resource,
      @Nullable String resourceName,
      Set<String> verbs,
      Set<String> steps) {}

  private static ObjectNode metadata(
      ObjectNode o, String name, @Nullable String namespace, String need) {
    ObjectNode meta = o.putObject("metadata");
    meta.put("name", name);
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    ObjectNode labels = meta.putObject("labels");
    labels.put("app.kubernetes.io/part-of", "benchplan");
    labels.put(NEED_LABEL, need);
    return meta;
  }

  private static String label(RbacTargets targets) {
    return switch (targets.command()) {
      case RUN -> "benchplan run";
      case VALIDATE_DGD -> "benchplan validate --dgd";
      case VALIDATE_DEPLOY -> "benchplan validate (auto-deploy)";
      case RUN_OPERATOR -> "benchplan run (engine aiperf-operator)";
      case RUN_PVC -> "benchplan run (artifacts on a PVC)";
    };
  }

  /** The objects as one {@code v1 List} (what {@code kubectl apply -f} takes as JSON). */
  public ObjectNode json() {
    ObjectNode list = Json.JSON.createObjectNode();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    ArrayNode items = list.putArray("items");
    objects.forEach(i -> items.add(i.object()));
    return list;
  }

  /** The objects as YAML documents, with a comment above each object and each rule. */
  public String yaml() {
    StringBuilder sb = new StringBuilder();
    sb.append("# ").append(title).append('\n');
    notes.forEach(n -> sb.append("# ").append(n).append('\n'));
    for (Item item : objects) {
      sb.append("---\n# ").append(item.comment()).append('\n');
      int ruleIndex = 0;
      for (Map.Entry<String, JsonNode> f : item.object().properties()) {
        if (f.getKey().equals("rules")) {
          sb.append("rules:\n");
          for (JsonNode rule : f.getValue()) {
            sb.append("  # ").append(item.ruleSteps().get(ruleIndex++)).append('\n');
            writeObject(sb, (ObjectNode) rule, "  ", true);
          }
        } else {
          writeField(sb, f.getKey(), f.getValue(), "");
        }
      }
    }
    return sb.toString();
  }

  private static void writeField(StringBuilder sb, String key, JsonNode v, String indent) {
    sb.append(indent).append(scalar(key)).append(':');
    if (v.isObject()) {
      sb.append('\n');
      writeObject(sb, (ObjectNode) v, indent + "  ", false);
    } else if (v.isArray()) {
      sb.append('\n');
      for (JsonNode e : v) {
        if (e.isObject()) {
          writeObject(sb, (ObjectNode) e, indent + "  ", true);
        } else {
          sb.append(indent).append("- ").append(scalar(e.asString())).append('\n');
        }
      }
    } else {
      sb.append(' ').append(scalar(v.asString())).append('\n');
    }
  }

  private static void writeObject(StringBuilder sb, ObjectNode o, String indent, boolean listItem) {
    boolean first = true;
    for (Map.Entry<String, JsonNode> f : o.properties()) {
      if (listItem) {
        String lead = first ? indent.substring(0, indent.length() - 2) + "- " : indent;
        StringBuilder one = new StringBuilder();
        writeField(one, f.getKey(), f.getValue(), indent);
        sb.append(lead).append(one.substring(indent.length()));
      } else {
        writeField(sb, f.getKey(), f.getValue(), indent);
      }
      first = false;
    }
  }

  /** A YAML scalar: plain when that is unambiguous, else a JSON (double-quoted) string. */
  static String scalar(String s) {
    if (PLAIN.matcher(s).matches()
        && !YAML_WORDS.contains(s.toLowerCase(java.util.Locale.ROOT))
        && !s.matches("[-+]?[0-9._]+([eE][-+]?[0-9]+)?")) {
      return s;
    }
    return Json.JSON.writeValueAsString(s);
  }
}
