package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.render.manifest.PerfManifests;

/** Paths inside the AIPerf pod, and the check for paths inside a volume. */
public final class PodPaths {
  /** The artifact volume's mount point; each run writes to {@code /artifacts/<run-id>}. */
  public static final String ARTIFACTS_ROOT = PerfManifests.ARTIFACTS_ROOT;

  private PodPaths() {}

  /** The artifact folder of one run. */
  public static String artifactDir(RunId runId) {
    return ARTIFACTS_ROOT + "/" + runId.value();
  }

  /**
   * Checks a path relative to a volume root: no leading '/', no '..' or empty segment, no control
   * characters.
   */
  public static String requireRelativePath(String path, String what, ErrorLocation at) {
    boolean bad = path.isEmpty() || path.startsWith("/") || path.endsWith("/");
    for (String segment : path.split("/", -1)) {
      bad |= segment.isEmpty() || segment.equals("..") || segment.equals(".");
    }
    for (int i = 0; i < path.length(); i++) {
      bad |= Character.isISOControl(path.charAt(i));
    }
    if (bad) {
      throw BenchplanException.invalid(
          at,
          what
              + " '"
              + path
              + "': expected a relative path inside the volume (no leading '/',"
              + " no '.' or '..' segments)");
    }
    return path;
  }
}
