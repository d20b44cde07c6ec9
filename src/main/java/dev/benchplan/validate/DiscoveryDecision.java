package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What discovery concluded: benchmark one existing DGD, refuse because several qualify, or deploy
 * the default DGD because none does.
 */
public sealed interface DiscoveryDecision {
  /** Benchmark this existing DGD. */
  record Use(DgdCandidate candidate) implements DiscoveryDecision {}

  /** Several DGDs qualify and none was named: exit 2 listing them. */
  record Ambiguous(List<DgdCandidate> candidates) implements DiscoveryDecision {
    public Ambiguous {
      candidates = List.copyOf(candidates);
    }

    /** The one-line message listing every candidate as namespace/DGD/Service/model. */
    public String message() {
      return candidates.size()
          + " DynamoGraphDeployments serve a frontend; name one with --dgd"
          + " NAME or NAMESPACE/NAME: "
          + candidates.stream().map(DgdCandidate::describe).collect(Collectors.joining("; "));
    }
  }

  /** No DGD qualifies: deploy the default one. */
  record Deploy(String reason) implements DiscoveryDecision {}

  /**
   * Decides from every DGD seen. With {@code --dgd}, exactly that DGD is used (it must exist, be
   * successful and have a frontend Service); without it, the single usable DGD is used, several are
   * ambiguous, none means deploy.
   */
  static DiscoveryDecision decide(
      List<DgdCandidate> seen, @Nullable String dgdOption, String scope) {
    if (dgdOption != null) {
      String ns = dgdOption.contains("/") ? dgdOption.substring(0, dgdOption.indexOf('/')) : null;
      String name =
          dgdOption.contains("/") ? dgdOption.substring(dgdOption.indexOf('/') + 1) : dgdOption;
      List<DgdCandidate> named =
          seen.stream()
              .filter(
                  c ->
                      c.dgd().name().equals(name) && (ns == null || ns.equals(c.dgd().namespace())))
              .toList();
      if (named.isEmpty()) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--dgd"),
            "option --dgd: no DynamoGraphDeployment "
                + dgdOption
                + " in "
                + scope
                + (seen.isEmpty()
                    ? " (none found)"
                    : " (found: "
                        + seen.stream().map(c -> c.dgd().ref()).collect(Collectors.joining(", "))
                        + ")"));
      }
      if (named.size() > 1) {
        return new Ambiguous(named);
      }
      DgdCandidate c = named.get(0);
      if (!c.dgd().successful()) {
        throw BenchplanException.runtime(
            "DynamoGraphDeployment "
                + c.dgd().ref()
                + " is in state "
                + (c.dgd().state() == null ? "unknown (no status yet)" : c.dgd().state())
                + ", not successful: it cannot be benchmarked now");
      }
      if (c.frontend() == null) {
        throw BenchplanException.runtime(
            "DynamoGraphDeployment "
                + c.dgd().ref()
                + " has no usable frontend Service: "
                + String.join("; ", c.problems()));
      }
      return new Use(c);
    }
    List<DgdCandidate> usable = seen.stream().filter(DgdCandidate::usable).toList();
    if (usable.size() == 1) {
      return new Use(usable.get(0));
    }
    if (usable.size() > 1) {
      return new Ambiguous(usable);
    }
    List<String> why = new ArrayList<>();
    for (DgdCandidate c : seen) {
      if (!c.dgd().successful()) {
        why.add(
            c.dgd().ref()
                + " is "
                + (c.dgd().state() == null ? "without status" : c.dgd().state()));
      } else {
        why.add(c.dgd().ref() + ": " + String.join("; ", c.problems()));
      }
    }
    return new Deploy(
        seen.isEmpty()
            ? "no DynamoGraphDeployment in " + scope
            : "no successful DynamoGraphDeployment with a frontend Service in "
                + scope
                + " ("
                + String.join("; ", why)
                + ")");
  }
}
