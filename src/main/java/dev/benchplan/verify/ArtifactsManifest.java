package dev.benchplan.verify;

import dev.benchplan.artifacts.ManifestListing;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run directory's {@code artifacts.sha256}, in {@code sha256sum} format ({@code HEX PATH} or
 * {@code HEX *PATH}, paths relative to the directory, {@code /}-separated), checked against the
 * directory: every listed file present and matching, no file present that is not listed (the
 * manifest itself excepted).
 */
final class ArtifactsManifest {
  /** The manifest's file name inside a run directory. */
  static final String NAME = dev.benchplan.artifacts.ArtifactManifest.FILE_NAME;

  private ArtifactsManifest() {}

  /** Every finding of the manifest against {@code dir}; {@code label} names the directory. */
  static List<Finding> check(Path dir, String label) {
    return check(dir, label, java.util.Set.of());
  }

  /**
   * As {@link #check(Path, String)}, where {@code listedElsewhere} are files another record
   * accounts for (run.json's {@code /artifacts/files}, run.json itself): present, not unlisted.
   */
  static List<Finding> check(Path dir, String label, java.util.Set<String> listedElsewhere) {
    Path manifest = dir.resolve(NAME);
    String file = label + "/" + NAME;
    List<Finding> out = new ArrayList<>();
    ManifestListing listing;
    try {
      listing = ManifestListing.read(manifest);
    } catch (IOException e) {
      out.add(new Finding(file, "", "cannot read: " + e.getMessage()));
      return out;
    }
    for (ManifestListing.Problem p : listing.problems()) {
      out.add(new Finding(file, "line " + p.line(), p.message()));
    }
    Map<String, String> listed = listing.files();
    for (Map.Entry<String, String> e : listed.entrySet()) {
      Path f = dir.resolve(e.getKey()).normalize();
      if (!Files.isRegularFile(f)) {
        out.add(new Finding(label + "/" + e.getKey(), "", "listed in " + NAME + " but missing"));
        continue;
      }
      String actual = Sha256.ofFile(f);
      if (!actual.equals(e.getValue())) {
        out.add(
            new Finding(
                label + "/" + e.getKey(),
                "",
                "SHA-256 is "
                    + actual
                    + ", "
                    + NAME
                    + " lists "
                    + e.getValue()
                    + ": the file changed after collection"));
      }
    }
    for (String present : listing.unlisted(dir, listedElsewhere)) {
      out.add(
          new Finding(
              label + "/" + present,
              "",
              "present but not listed in "
                  + NAME
                  + (listedElsewhere.isEmpty() ? "" : " or run.json")
                  + ": added after collection"));
    }
    return out;
  }
}
