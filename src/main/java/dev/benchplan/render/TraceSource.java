package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import org.jspecify.annotations.Nullable;

/**
 * How the trace reaches the pod: in a ConfigMap (the plan's file, when it fits), or from a PVC the
 * operator filled ({@code pvc:CLAIM/PATH}); never a host path.
 *
 * @param kind auto (ConfigMap when it fits), configmap, or pvc
 * @param claim the PVC holding the trace (pvc only)
 * @param path the trace file inside the claim (pvc only)
 */
public record TraceSource(Kind kind, @Nullable String claim, @Nullable String path) {
  /** The choice the user made. */
  public enum Kind {
    AUTO,
    CONFIGMAP,
    PVC
  }

  public TraceSource {
    if ((kind == Kind.PVC) != (claim != null && path != null)) {
      throw new IllegalArgumentException("a PVC trace source needs a claim and a path");
    }
  }

  /** Parses {@code configmap} or {@code pvc:CLAIM/PATH}; null means auto. */
  public static TraceSource parse(@Nullable String spec) {
    if (spec == null) {
      return new TraceSource(Kind.AUTO, null, null);
    }
    if (spec.equals("configmap")) {
      return new TraceSource(Kind.CONFIGMAP, null, null);
    }
    String what = "--trace-source '" + spec + "'";
    if (!spec.startsWith("pvc:") || spec.indexOf('/') < 0) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--trace-source"), what + ": expected configmap or pvc:CLAIM/PATH");
    }
    String rest = spec.substring(4);
    int slash = rest.indexOf('/');
    String claim = rest.substring(0, slash);
    if (!KubeNames.isDns1123Subdomain(claim)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--trace-source"),
          what + ": claim '" + claim + "' is not a valid PVC name: expected a DNS-1123 name");
    }
    String path =
        PodPaths.requireRelativePath(
            rest.substring(slash + 1), what + ": path", ErrorLocation.option("--trace-source"));
    return new TraceSource(Kind.PVC, claim, path);
  }
}
