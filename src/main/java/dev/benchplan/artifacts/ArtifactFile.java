package dev.benchplan.artifacts;

import dev.benchplan.json.Sha256;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One file of an artifact tree as the pod's manifest names it.
 *
 * @param path the path relative to the tree's root, '/'-separated, never absolute, no '.' or '..'
 * @param size its length in bytes
 * @param sha256 the SHA-256 of its bytes (lower-case hex)
 */
public record ArtifactFile(String path, long size, String sha256) {
  public ArtifactFile {
    Objects.requireNonNull(path, "path");
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0");
    }
    if (sha256 == null || !Sha256.isSha256(sha256)) {
      throw new IllegalArgumentException("not a SHA-256: " + sha256);
    }
    String problem = pathProblem(path);
    if (problem != null) {
      throw new IllegalArgumentException("artifact path '" + path + "': " + problem);
    }
  }

  /** Why {@code path} cannot name a file inside the tree, or null when it can. */
  public static @Nullable String pathProblem(String path) {
    if (path.isEmpty() || path.startsWith("/") || path.endsWith("/")) {
      return "expected a relative path without a leading or trailing '/'";
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return "expected no empty, '.' or '..' segment";
      }
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (Character.isISOControl(c) || c == '\\') {
        return "expected no control character or backslash";
      }
    }
    return null;
  }
}
