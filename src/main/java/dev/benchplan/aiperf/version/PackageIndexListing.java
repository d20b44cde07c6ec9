package dev.benchplan.aiperf.version;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The releases a package index's JSON API lists for one project (its {@code releases} map: version
 * -> uploaded files, each with a {@code yanked} flag), classified per the tool-version rule.
 *
 * @param releases every listed version, in PEP 440 order (unparsable ones last, as listed)
 */
public record PackageIndexListing(List<Release> releases) {
  public PackageIndexListing {
    releases = List.copyOf(releases);
  }

  /**
   * One listed version.
   *
   * @param version the version as listed
   * @param parsed the parsed version, or null when it is not PEP 440
   * @param files how many files were uploaded for it
   * @param yankedFiles how many of those are yanked
   */
  public record Release(
      String version, @Nullable AiperfVersion parsed, int files, int yankedFiles) {
    /** Why this version is not a candidate for "latest stable", or null when it is one. */
    public @Nullable String exclusion() {
      if (parsed == null) {
        return "not a PEP 440 version";
      }
      if (parsed.isDevRelease()) {
        return "dev release";
      }
      if (parsed.isPreRelease()) {
        return "pre-release";
      }
      if (!parsed.isStable()) {
        return "local version";
      }
      if (files == 0) {
        return "no files uploaded";
      }
      if (yankedFiles == files) {
        return "yanked";
      }
      return null;
    }
  }

  /**
   * Reads the JSON document.
   *
   * @throws IllegalArgumentException when it has no {@code releases} object
   */
  public static PackageIndexListing parse(JsonNode document) {
    JsonNode releases = document.path("releases");
    if (!releases.isObject()) {
      throw new IllegalArgumentException("the index response has no 'releases' object");
    }
    List<Release> out = new ArrayList<>();
    for (String version : releases.propertyNames()) {
      JsonNode files = releases.get(version);
      int total = 0;
      int yanked = 0;
      if (files.isArray()) {
        for (JsonNode f : files) {
          total++;
          if (f.path("yanked").asBoolean(false)) {
            yanked++;
          }
        }
      }
      out.add(new Release(version, AiperfVersion.tryParse(version), total, yanked));
    }
    out.sort(
        Comparator.comparing(Release::parsed, Comparator.nullsLast(Comparator.naturalOrder())));
    return new PackageIndexListing(out);
  }

  /** The highest version that is a final (or post) release, not yanked, with files. */
  public Optional<Release> latestStable() {
    return releases.stream()
        .filter(r -> r.exclusion() == null)
        .max(Comparator.comparing(Release::parsed));
  }

  /** Every listed version, in order. */
  public List<String> versions() {
    return releases.stream().map(Release::version).toList();
  }
}
