package dev.benchplan.validate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The frontend Service of a DGD and how it was recognised as belonging to it.
 *
 * @param service the Service
 * @param port the HTTP port used (named {@code http}, else 8000)
 * @param matchedBy {@code name} (the operator's naming {@code <dgd>-<frontend component>}), {@code
 *     labels} (component type frontend and the DGD's name), or {@code name+labels}
 * @param ownedByDgd whether an owner reference names the DGD as well
 */
public record FrontendMatch(ServiceInfo service, int port, String matchedBy, boolean ownedByDgd) {
  public FrontendMatch {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(matchedBy, "matchedBy");
  }

  /**
   * Finds the frontend Service of {@code dgd} among {@code services}. Only Services in the DGD's
   * own namespace are considered; a Service qualifies by the operator's name for a frontend
   * component of the DGD or by the operator's labels (component type frontend and the DGD's name);
   * a Service whose labels or owner reference name another DGD never qualifies. Returns empty with
   * the reason in {@code problems} when there is none with an HTTP port.
   */
  public static Optional<FrontendMatch> find(
      DgdView dgd, List<ServiceInfo> services, List<String> problems) {
    Set<String> expectedNames = new LinkedHashSet<>();
    for (DgdComponent c : dgd.withRole(DgdComponent.Role.FRONTEND)) {
      expectedNames.add(c.serviceName(dgd.name()));
    }
    if (expectedNames.isEmpty()) {
      expectedNames.add(dgd.name() + "-frontend");
    }
    List<FrontendMatch> matches = new ArrayList<>();
    for (ServiceInfo s : services) {
      if (!s.namespace().equals(dgd.namespace())) {
        continue;
      }
      boolean byName = expectedNames.contains(s.name());
      boolean byLabels =
          "frontend".equals(s.labels().get(ServiceInfo.COMPONENT_TYPE_LABEL))
              && dgd.name().equals(s.labels().get(ServiceInfo.DGD_NAME_LABEL));
      if (!byName && !byLabels) {
        continue;
      }
      String labelledDgd = s.labels().get(ServiceInfo.DGD_NAME_LABEL);
      if (labelledDgd != null && !labelledDgd.equals(dgd.name())) {
        problems.add(
            "Service "
                + s.namespace()
                + "/"
                + s.name()
                + " is labelled for DGD "
                + labelledDgd
                + ", not "
                + dgd.name());
        continue;
      }
      boolean owned = false;
      boolean ownedByOther = false;
      for (ServiceInfo.Owner o : s.owners()) {
        if (DgdApi.KIND.equals(o.kind())) {
          boolean same =
              dgd.name().equals(o.name())
                  && (dgd.uid() == null || o.uid() == null || dgd.uid().equals(o.uid()));
          owned |= same;
          ownedByOther |= !same;
        }
      }
      if (ownedByOther && !owned) {
        problems.add("Service " + s.namespace() + "/" + s.name() + " is owned by another DGD");
        continue;
      }
      int port = s.httpPort();
      if (port < 0) {
        problems.add(
            "Service "
                + s.namespace()
                + "/"
                + s.name()
                + " has no port named http and no port 8000");
        continue;
      }
      String how = byName && byLabels ? "name+labels" : byName ? "name" : "labels";
      matches.add(new FrontendMatch(s, port, how, owned));
    }
    if (matches.isEmpty() && problems.isEmpty()) {
      problems.add(
          "no frontend Service (expected "
              + String.join(" or ", expectedNames)
              + ", or one labelled "
              + ServiceInfo.COMPONENT_TYPE_LABEL
              + "=frontend and "
              + ServiceInfo.DGD_NAME_LABEL
              + "="
              + dgd.name()
              + ") in namespace "
              + dgd.namespace());
    }
    // strongest evidence first, then by name for a stable choice
    return matches.stream()
        .min(
            Comparator.comparingInt((FrontendMatch m) -> strength(m))
                .thenComparing(m -> m.service().name()));
  }

  private static int strength(FrontendMatch m) {
    int s =
        switch (m.matchedBy()) {
          case "name+labels" -> 0;
          case "name" -> 2;
          default -> 4;
        };
    return m.ownedByDgd() ? s : s + 1;
  }
}
