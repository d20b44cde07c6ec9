package dev.benchplan.kube.rbac;

import dev.benchplan.kube.KubeCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The permissions a command needs, from the table ({@link KubeCall}) and its targets. */
public final class Permissions {
  private Permissions() {}

  /** Every (verb, resource, where) the command cannot do without, per table row, in table order. */
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
  public static boolean grants(Permission held, Permission wanted) {
    return held.verb().equals(wanted.verb())
        && held.group().equals(wanted.group())
        && held.resource().equals(wanted.resource())
        && java.util.Objects.equals(held.subresource(), wanted.subresource())
        && (held.namespace() == null || held.namespace().equals(wanted.namespace()))
        && (held.resourceName() == null || held.resourceName().equals(wanted.resourceName()));
  }

  /** One permission per (verb, resource, where), whichever row needs it first. */
  public static List<Permission> distinct(List<Permission> permissions) {
    Map<String, Permission> out = new LinkedHashMap<>();
    permissions.forEach(p -> out.putIfAbsent(p.key(), p));
    return new ArrayList<>(out.values());
  }

  /**
   * Per row of the table, in its order, each verb where the targets put it. The same pair can come
   * from several rows (each step's rule names it); {@link #distinct} keeps one.
   */
  private static List<Permission> collect(RbacTargets targets, KubeCall.Need need) {
    List<Permission> out = new ArrayList<>();
    for (KubeCall row : KubeCall.values()) {
      if (row.need() != need || !targets.needs(row)) {
        continue;
      }
      for (String verb : row.verbs()) {
        out.add(
            new Permission(
                verb,
                row.group(),
                row.resource(),
                row.subresource(),
                targets.namespaceOf(row),
                targets.resourceNameOf(row),
                row));
      }
    }
    return out;
  }
}
