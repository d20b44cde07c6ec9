package dev.benchplan.validate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A read-only view of a DynamoGraphDeployment document in either served form: v1alpha1 ({@code
 * spec.services} map, status per service) or v1beta1 ({@code spec.components} list, status per
 * component).
 *
 * @param apiVersion the document's apiVersion
 * @param namespace its namespace
 * @param name its name
 * @param uid its UID (null for a document not yet stored)
 * @param state {@code status.state}, or null when the operator has not reported one
 * @param components its components in document order
 */
public record DgdView(
    @Nullable String apiVersion,
    @Nullable String namespace,
    String name,
    @Nullable String uid,
    @Nullable String state,
    List<DgdComponent> components) {

  /** The DGD state the operator reports once every component is up. */
  public static final String SUCCESSFUL = "successful";

  private static final Pattern VAR =
      Pattern.compile(
          "\\$(\\{([A-Za-z_][A-Za-z0-9_]*)}|\\(([A-Za-z_][A-Za-z0-9_]*)\\)|([A-Za-z_][A-Za-z0-9_]*))");

  public DgdView {
    Objects.requireNonNull(name, "name");
    components = List.copyOf(components);
  }

  /** Whether the operator reports the DGD as successful. */
  public boolean successful() {
    return SUCCESSFUL.equalsIgnoreCase(state == null ? "" : state);
  }

  /**
   * The components whose ready replicas are below their spec (a status not reported counts as 0
   * ready), each as {@code "Name ready/spec"}: AICR's readiness rule, Frontend included, since a
   * DGD can say {@code successful} while a worker has no ready replica.
   */
  public List<String> shortComponents() {
    List<String> out = new ArrayList<>();
    for (DgdComponent c : components) {
      int ready = Math.max(0, c.readyReplicas());
      if (ready < c.replicas()) {
        out.add(c.name() + " " + ready + "/" + c.replicas());
      }
    }
    return out;
  }

  /** Successful, and every component has ready replicas >= its spec. */
  public boolean ready() {
    return successful() && !components.isEmpty() && shortComponents().isEmpty();
  }

  /** The state and every component's ready/spec count, for progress and messages. */
  public String readiness() {
    StringBuilder sb = new StringBuilder("state " + (state == null ? "not reported" : state));
    for (DgdComponent c : components) {
      sb.append(", ")
          .append(c.name())
          .append(' ')
          .append(Math.max(0, c.readyReplicas()))
          .append('/')
          .append(c.replicas())
          .append(" ready");
    }
    return sb.toString();
  }

  /** {@code namespace/name}. */
  public String ref() {
    return namespace + "/" + name;
  }

  /** Components with the given role. */
  public List<DgdComponent> withRole(DgdComponent.Role role) {
    return components.stream().filter(c -> c.role() == role).toList();
  }

  /** Token-generating worker replicas (aggregated or decode workers) the spec asks for. */
  public int workerReplicas() {
    return withRole(DgdComponent.Role.WORKER).stream().mapToInt(DgdComponent::replicas).sum();
  }

  /** The distinct model names its workers (and prefill workers) serve. */
  public Set<String> servedModels() {
    Set<String> models = new LinkedHashSet<>();
    for (DgdComponent c : components) {
      if (c.role() == DgdComponent.Role.WORKER || c.role() == DgdComponent.Role.PREFILL) {
        models.addAll(c.models());
      }
    }
    if (models.isEmpty()) {
      for (DgdComponent c : withRole(DgdComponent.Role.FRONTEND)) {
        models.addAll(c.models());
      }
    }
    return models;
  }

  /** Reads a DGD document (as returned by the API server). */
  public static DgdView of(JsonNode doc) {
    JsonNode meta = doc.path("metadata");
    String apiVersion = string(doc.path("apiVersion"));
    JsonNode spec = doc.path("spec");
    JsonNode status = doc.path("status");
    List<DgdComponent> components = new ArrayList<>();
    if (spec.path("services").isObject()) {
      Map<String, String> graphEnv = envMap(spec.path("envs"));
      for (Map.Entry<String, JsonNode> e : spec.path("services").properties()) {
        JsonNode svc = e.getValue();
        JsonNode main = svc.path("extraPodSpec").path("mainContainer");
        Map<String, String> env = new LinkedHashMap<>(graphEnv);
        env.putAll(envMap(svc.path("envs")));
        env.putAll(envMap(main.path("env")));
        components.add(
            component(
                e.getKey(),
                role(string(svc.path("componentType")), string(svc.path("subComponentType"))),
                integer(svc.path("replicas"), 1),
                ready(status.path("services").path(e.getKey())),
                main,
                env));
      }
    } else if (spec.path("components").isArray()) {
      Map<String, String> graphEnv = envMap(spec.path("env"));
      for (JsonNode comp : spec.path("components").values()) {
        String cname = string(comp.path("name"));
        if (cname == null) {
          continue;
        }
        JsonNode main = mainContainer(comp.path("podTemplate").path("spec").path("containers"));
        Map<String, String> env = new LinkedHashMap<>(graphEnv);
        env.putAll(envMap(main.path("env")));
        components.add(
            component(
                cname,
                role(string(comp.path("type")), null),
                integer(comp.path("replicas"), 1),
                ready(status.path("components").path(cname)),
                main,
                env));
      }
    }
    return new DgdView(
        apiVersion,
        string(meta.path("namespace")),
        Objects.requireNonNullElse(string(meta.path("name")), ""),
        string(meta.path("uid")),
        string(status.path("state")),
        components);
  }

  private static int ready(JsonNode s) {
    return s.isObject() ? integer(s.path("readyReplicas"), 0) : -1;
  }

  private static JsonNode mainContainer(JsonNode containers) {
    JsonNode first = tools.jackson.databind.node.MissingNode.getInstance();
    for (JsonNode c : containers.values()) {
      if ("main".equals(string(c.path("name")))) {
        return c;
      }
      if (first.isMissingNode()) {
        first = c;
      }
    }
    return first;
  }

  private static DgdComponent.Role role(@Nullable String type, @Nullable String subType) {
    String t = type == null ? "" : type.toLowerCase(Locale.ROOT);
    String s = subType == null ? "" : subType.toLowerCase(Locale.ROOT);
    return switch (t) {
      case "frontend" -> DgdComponent.Role.FRONTEND;
      case "decode" -> DgdComponent.Role.WORKER;
      case "prefill" -> DgdComponent.Role.PREFILL;
      case "worker", "main" ->
          s.equals("prefill") ? DgdComponent.Role.PREFILL : DgdComponent.Role.WORKER;
      default -> DgdComponent.Role.OTHER;
    };
  }

  private static Map<String, String> envMap(JsonNode envs) {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode e : envs.values()) {
      String n = string(e.path("name"));
      String v = string(e.path("value"));
      if (n != null && v != null) {
        out.put(n, v);
      }
    }
    return out;
  }

  private static DgdComponent component(
      String name,
      DgdComponent.Role role,
      int replicas,
      int ready,
      JsonNode main,
      Map<String, String> env) {
    List<String> tokens = new ArrayList<>();
    for (String s : strings(main.path("command"))) {
      tokens.addAll(split(s));
    }
    for (String s : strings(main.path("args"))) {
      tokens.addAll(split(s));
    }
    String served = option(tokens, "--served-model-name");
    String model = served != null ? served : option(tokens, "--model");
    if (model == null) {
      model = option(tokens, "--model-path");
    }
    if (model == null
        && role == DgdComponent.Role.FRONTEND
        && env.containsKey("SERVED_MODEL_NAME")) {
      model = env.get("SERVED_MODEL_NAME");
    }
    List<String> models = new ArrayList<>();
    String unresolved = null;
    if (model != null) {
      String expanded = expand(model, env);
      if (expanded == null || expanded.isBlank()) {
        unresolved = model;
      } else {
        models.add(expanded);
      }
    }
    return new DgdComponent(name, role, replicas, ready, models, unresolved);
  }

  private static List<String> split(String s) {
    List<String> out = new ArrayList<>();
    for (String t : s.trim().split("\\s+")) {
      if (!t.isEmpty()) {
        out.add(unquote(t));
      }
    }
    return out;
  }

  private static String unquote(String t) {
    if (t.length() >= 2
        && ((t.startsWith("\"") && t.endsWith("\"")) || (t.startsWith("'") && t.endsWith("'")))) {
      return t.substring(1, t.length() - 1);
    }
    return t;
  }

  private static @Nullable String option(List<String> tokens, String flag) {
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      if (t.equals(flag) && i + 1 < tokens.size()) {
        return tokens.get(i + 1);
      }
      if (t.startsWith(flag + "=")) {
        return t.substring(flag.length() + 1);
      }
    }
    return null;
  }

  /** Expands $VAR, ${VAR} and $(VAR) from env; null when a variable is unknown. */
  private static @Nullable String expand(String value, Map<String, String> env) {
    Matcher m = VAR.matcher(value);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String var = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
      String v = env.get(var);
      if (v == null || VAR.matcher(v).find()) {
        return null;
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(v));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  // typed reads of the DGD document as the API server returned it: a wrong type reads as absent
  /** The string at {@code node}, or null when it is absent or not a string. */
  private static @Nullable String string(JsonNode node) {
    return node != null && node.isString() ? node.stringValue() : null;
  }

  /** The integer at {@code node}, or {@code fallback} when absent or not an integer. */
  private static int integer(JsonNode node, int fallback) {
    if (node == null) {
      return fallback;
    }
    if (node.isIntegralNumber() && node.canConvertToInt()) {
      return node.intValue();
    }
    if (node.isString()) {
      try {
        return Integer.parseInt(node.stringValue().trim());
      } catch (NumberFormatException e) {
        return fallback;
      }
    }
    return fallback;
  }

  /** The strings of an array node (non-strings skipped); empty when absent. */
  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node != null && node.isArray()) {
      for (JsonNode n : node.values()) {
        if (n.isString()) {
          out.add(n.stringValue());
        }
      }
    }
    return out;
  }
}
