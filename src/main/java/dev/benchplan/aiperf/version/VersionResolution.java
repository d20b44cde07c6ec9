package dev.benchplan.aiperf.version;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The AIPerf version a series uses and how it was found, as recorded in the plan.
 *
 * @param version the version (PEP 440 normalized)
 * @param image the container image that runs it
 * @param mechanism package_index, operator_pin or reference_recipe
 * @param query what was consulted: the index URL, or the recipe path; null for an operator pin
 * @param outputSha256 SHA-256 of the raw index response or of the recipe file; null for a pin
 * @param versionsSeen every version the index listed (or the recipe pinned)
 * @param excluded versions the index listed that were not candidates, with why
 * @param date when it was resolved (ISO-8601 UTC, seconds)
 * @param sourceCommit an AIPerf source commit a reference recipe pinned, or null
 * @param note a one-line explanation of the choice
 */
public record VersionResolution(
    String version,
    String image,
    String mechanism,
    @Nullable String query,
    @Nullable String outputSha256,
    List<String> versionsSeen,
    List<Excluded> excluded,
    String date,
    @Nullable String sourceCommit,
    String note) {
  public VersionResolution {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(date, "date");
    versionsSeen = List.copyOf(versionsSeen);
    excluded = List.copyOf(excluded);
  }

  /**
   * A listed version that was not a candidate.
   *
   * @param version as listed
   * @param reason pre-release, dev release, yanked, no files uploaded, not a PEP 440 version
   */
  public record Excluded(String version, String reason) {}
}
