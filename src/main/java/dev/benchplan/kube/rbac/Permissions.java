package dev.benchplan.kube.rbac;

import dev.benchplan.kube.KubeCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The permissions a command needs, from the table ({@link KubeCall}) and its targets. */
public final class Permissions {
  private Permissions() {}

  /** Every (verb, resource, where) the command cannot do without, in table order, once each. */
  public static List<Permission> required(RbacTargets targets) {
    return collect(targets, KubeCall.Need.REQUIRED);
  }

  /**
   * The permissions only isolation checks use, less those the required ones already grant (an
   * isolation check in the run's own namespace needs nothing extra).
   */
  public static List<Permission> isolation(RbacTargets targets) {
    List<Permission> required = required(targets);
    List<Permission> out = new ArrayList<>();
    for (Permission p : collect(targets, KubeCall.Need.ISOLATION)) {
      if (required.stream().noneMatch(r -> grants(r, p))) {
        out.add(p);
      }
    }
    return out;
  }

  /** True when holding {@code held} allows {@code wanted}. */
  static boolean grants(Permission held, Permission wanted) {
    return held.verb().equals(wanted.verb()) && held.group().equals(wanted.group())
        && held.resource().equals(wanted.resource())
        && java.util.Objects.equals(held.subresource(), wanted.subresource())
        && (held.namespace() == null || held.namespace().equals(wanted.namespace()))
        && (held.resourceName() == null || held.resourceName().equals(wanted.resourceName()));
  }

  private static List<Permission> collect(RbacTargets targets, KubeCall.Need need) {
    Map<String, Permission> out = new LinkedHashMap<>();
    for (KubeCall row : KubeCall.values()) {
      if (row.need() != need || !row.commands().contains(targets.command())) {
        continue;
      }
      for (String verb : row.verbs()) {
        Permission p = new Permission(verb, row.group(), row.resource(), row.subresource(),
            targets.namespaceOf(row), targets.resourceNameOf(row), row);
        out.putIfAbsent(p.key(), p);
      }
    }
    // a narrower permission that a broader one of the same need grants adds nothing
    List<Permission> all = new ArrayList<>(out.values());
    List<Permission> kept = new ArrayList<>();
    for (Permission p : all) {
      boolean covered = all.stream().anyMatch(o -> o != p && grants(o, p) && !grants(p, o));
      if (!covered) {
        kept.add(p);
      }
    }
    return kept;
  }
}
