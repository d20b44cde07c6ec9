package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import org.jspecify.annotations.Nullable;

/**
 * Where the Job writes AIPerf's artifacts: a fresh emptyDir (the summary still reaches the log
 * between markers), or a PVC ({@code pvc:CLAIM[/SUBPATH]}) that outlives the pod.
 *
 * @param claim the PVC name, or null for emptyDir
 * @param subPath the folder inside the claim, or null for its root
 */
public record ArtifactTarget(@Nullable String claim, @Nullable String subPath) {
  /** The annotation/output form of an emptyDir target. */
  public static final String EMPTY_DIR = "emptyDir";

  public ArtifactTarget {
    if (claim == null && subPath != null) {
      throw new IllegalArgumentException("a subPath needs a claim");
    }
  }

  /** The default: a pod-local emptyDir. */
  public static ArtifactTarget emptyDir() {
    return new ArtifactTarget(null, null);
  }

  /** Parses {@code pvc:CLAIM[/SUBPATH]}; null means emptyDir. */
  public static ArtifactTarget parse(@Nullable String spec) {
    if (spec == null) {
      return emptyDir();
    }
    String what = "--artifacts '" + spec + "'";
    if (!spec.startsWith("pvc:")) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--artifacts"), what + ": expected pvc:CLAIM or pvc:CLAIM/SUBPATH");
    }
    String rest = spec.substring(4);
    int slash = rest.indexOf('/');
    String claim = slash < 0 ? rest : rest.substring(0, slash);
    String sub = slash < 0 ? null : rest.substring(slash + 1);
    if (!KubeNames.isDns1123Subdomain(claim)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--artifacts"),
          what + ": claim '" + claim + "' is not a valid PVC name: expected a DNS-1123 name");
    }
    if (sub != null) {
      sub =
          PodPaths.requireRelativePath(
              sub, what + ": subpath", ErrorLocation.option("--artifacts"));
    }
    return new ArtifactTarget(claim, sub);
  }

  /** True for a PVC target. */
  public boolean isPvc() {
    return claim != null;
  }

  /** {@code emptyDir} or {@code pvc:CLAIM[/SUBPATH]}, as annotated on the Job. */
  public String describe() {
    if (claim == null) {
      return EMPTY_DIR;
    }
    return "pvc:" + claim + (subPath == null ? "" : "/" + subPath);
  }
}
