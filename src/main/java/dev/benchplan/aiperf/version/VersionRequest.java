package dev.benchplan.aiperf.version;

import java.net.URI;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * How the AIPerf version should be found; first match wins: operator pin, reference recipe, package
 * index.
 *
 * @param pinnedVersion {@code --aiperf-version}, or null
 * @param referenceRecipe {@code --reference-recipe} (a recipe perf.yaml being reproduced), or null
 * @param indexUrl the package index's JSON document for project aiperf ({@code --aiperf-index-url}
 *     or the BENCHPLAN_AIPERF_INDEX_URL environment variable), or null
 * @param image {@code --aiperf-image}, or null for the default image of the version
 */
public record VersionRequest(
    @Nullable String pinnedVersion,
    @Nullable Path referenceRecipe,
    @Nullable URI indexUrl,
    @Nullable String image) {
  /** Nothing given: resolution will block with AIPERF_VERSION_UNRESOLVED. */
  public static VersionRequest none() {
    return new VersionRequest(null, null, null, null);
  }

  /** An operator pin. */
  public static VersionRequest pinned(String version) {
    return new VersionRequest(version, null, null, null);
  }

  /** Resolution from a package index JSON document. */
  public static VersionRequest index(URI url) {
    return new VersionRequest(null, null, url, null);
  }
}
