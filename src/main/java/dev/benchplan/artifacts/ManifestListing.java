package dev.benchplan.artifacts;

import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A run directory's {@code artifacts.sha256} as read back, strictly, in {@code sha256sum} format
 * ({@code HEX PATH} or {@code HEX *PATH}, {@code \}-escaped lines, paths relative to the run
 * directory): the one reader verify and the audit share, so both see the same listing and the same
 * malformed lines.
 *
 * @param files every well-formed entry, path to lower-case SHA-256, in file order
 * @param problems every line that is not one, by line number
 */
public record ManifestListing(Map<String, String> files, List<Problem> problems) {
  /** A line that is not a well-formed entry. */
  public record Problem(int line, String message) {}

  public ManifestListing {
    files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    problems = List.copyOf(problems);
  }

  /** Reads {@code file}. */
  public static ManifestListing read(Path file) throws IOException {
    try {
      return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Parses the manifest's lines; blank lines are skipped. */
  public static ManifestListing parse(List<String> lines) {
    Map<String, String> listed = new LinkedHashMap<>();
    List<Problem> problems = new ArrayList<>();
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
        problems.add(
            new Problem(
                i + 1,
                "expected 'SHA256  PATH' (sha256sum format), found '" + abbreviate(line) + "'"));
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
        problems.add(
            new Problem(
                i + 1,
                "path '" + rel + "' leaves the run directory: expected a path relative to it"));
        continue;
      }
      if (listed.put(rel, body.substring(0, 64).toLowerCase(Locale.ROOT)) != null) {
        problems.add(new Problem(i + 1, rel + " is listed twice"));
      }
    }
    return new ManifestListing(listed, problems);
  }

  /**
   * Files under {@code dir} listed neither here nor in {@code elsewhere} (the manifest itself
   * excepted), sorted: what was added after collection.
   */
  public List<String> unlisted(Path dir, Set<String> elsewhere) {
    List<String> out = new ArrayList<>();
    for (String present : present(dir)) {
      if (!present.equals(ArtifactManifest.FILE_NAME)
          && !files.containsKey(present)
          && !elsewhere.contains(present)) {
        out.add(present);
      }
    }
    return out;
  }

  private static Set<String> present(Path dir) {
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
