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

  /** The paths, in order. */
  public List<String> paths() {
    List<String> out = new ArrayList<>();
    files.forEach(f -> out.add(f.path()));
    return out;
  }
}
