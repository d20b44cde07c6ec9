package dev.benchplan.artifacts;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The SHA-256 manifest of a collected tree, written as {@code artifacts.sha256} in the run
 * directory in {@code sha256sum} format (two spaces, then the path from the run directory), so
 * {@code cd runs/<run-id> && sha256sum -c artifacts.sha256} verifies a run with coreutils alone.
 *
 * @param files every file of the tree, sorted by path
 */
public record ArtifactManifest(List<ArtifactFile> files) {
  /** The file name in the run directory. */
  public static final String FILE_NAME = "artifacts.sha256";

  public ArtifactManifest {
    files = files.stream().sorted(Comparator.comparing(ArtifactFile::path)).toList();
  }

  /** The total bytes of every file. */
  public long totalBytes() {
    return files.stream().mapToLong(ArtifactFile::size).sum();
  }

  /** The manifest text, each path prefixed with {@code prefix} (e.g. {@code "aiperf/"}). */
  public byte[] sha256sumText(String prefix) {
    StringBuilder sb = new StringBuilder();
    for (ArtifactFile f : files) {
      sb.append(f.sha256()).append("  ").append(prefix).append(f.path()).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The first difference from {@code expected} (a file missing, extra, or of another size or
   * SHA-256), or null when both list the same files with the same bytes.
   */
  public @org.jspecify.annotations.Nullable String firstDifference(ArtifactManifest expected) {
    java.util.Map<String, ArtifactFile> mine = new java.util.TreeMap<>();
    files.forEach(f -> mine.put(f.path(), f));
    for (ArtifactFile want : expected.files()) {
      ArtifactFile got = mine.remove(want.path());
      if (got == null) {
        return want.path() + " is missing (" + want.size() + " bytes in the pod's manifest)";
      }
      if (got.size() != want.size() || !got.sha256().equals(want.sha256())) {
        return want.path()
            + " has "
            + got.size()
            + " bytes and SHA-256 "
            + got.sha256()
            + ", the pod's manifest says "
            + want.size()
            + " bytes and "
            + want.sha256()
            + " (changed on the volume after the Job)";
      }
    }
    return mine.isEmpty()
        ? null
        : mine.keySet().iterator().next()
            + " is not in the pod's manifest (written to the"
            + " volume after the Job)";
  }

  /** The paths, in order. */
  public List<String> paths() {
    List<String> out = new ArrayList<>();
    files.forEach(f -> out.add(f.path()));
    return out;
  }
}
