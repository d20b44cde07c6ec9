package dev.benchplan.verify;

import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A run directory's {@code artifacts.sha256}, in {@code sha256sum} format ({@code HEX PATH} or
 * {@code HEX *PATH}, paths relative to the directory, {@code /}-separated), checked against the
 * directory: every listed file present and matching, no file present that is not listed (the
 * manifest itself excepted).
 */
final class ArtifactsManifest {
  /** The manifest's file name inside a run directory. */
  static final String NAME = "artifacts.sha256";

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
    Map<String, String> listed = new LinkedHashMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(manifest, StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      out.add(new Finding(file, "", "cannot read: " + e.getMessage()));
      return out;
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      boolean escaped = line.startsWith("\\");
      String body = escaped ? line.substring(1) : line;
      if (body.length() < 67
          || !Sha256.isSha256(body.substring(0, 64))
          || body.charAt(64) != ' '
          || (body.charAt(65) != ' ' && body.charAt(65) != '*')) {
        out.add(
            new Finding(
                file,
                "line " + (i + 1),
                "expected 'SHA256  PATH' (sha256sum"
                    + " format), found '"
                    + abbreviate(line)
                    + "'"));
        continue;
      }
      String rel = body.substring(66);
      if (escaped) {
        rel = rel.replace("\\n", "\n").replace("\\\\", "\\");
      }
      if (rel.startsWith("/")
          || rel.equals("..")
          || rel.startsWith("../")
          || rel.contains("/../")) {
        out.add(
            new Finding(
                file,
                "line " + (i + 1),
                "path '"
                    + rel
                    + "' leaves the run"
                    + " directory: expected a path relative to it"));
        continue;
      }
      if (listed.put(rel, body.substring(0, 64).toLowerCase(Locale.ROOT)) != null) {
        out.add(new Finding(file, "line " + (i + 1), rel + " is listed twice"));
      }
    }
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
    for (String present : present(dir)) {
      if (!present.equals(NAME)
          && !listed.containsKey(present)
          && !listedElsewhere.contains(present)) {
        out.add(
            new Finding(
                label + "/" + present,
                "",
                "present but not listed in "
                    + NAME
                    + (listedElsewhere.isEmpty() ? "" : " or run.json")
                    + ": added after collection"));
      }
    }
    return out;
  }

  private static SortedSet<String> present(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      TreeSet<String> out = new TreeSet<>();
      s.filter(Files::isRegularFile)
          .forEach(p -> out.add(dir.relativize(p).toString().replace('\\', '/')));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }
}
