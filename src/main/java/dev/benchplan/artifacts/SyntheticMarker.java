package dev.benchplan.artifacts;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * {@code SYNTHETIC.txt} in an artifact tree (at its top, or in each run folder): the marker a
 * generator (never AIPerf) writes when it made the numbers up, e.g. the test cluster's stand-in
 * aiperf. Its first line says what generated them. {@code run} records it in run.json ({@code
 * /artifacts/synthetic}) and marks the run ineligible ({@code RUN_SYNTHETIC}); {@code verify}
 * checks that the two agree.
 */
public final class SyntheticMarker {
  /** The marker's file name, at the top of the tree ({@code aiperf/SYNTHETIC.txt} in a run). */
  public static final String NAME = "SYNTHETIC.txt";

  /** Every label starts with this. */
  public static final String PREFIX = "synthetic: ";

  private static final int MAX = 500;

  private SyntheticMarker() {}

  /**
   * The label of the tree at {@code tree}: the first line of its first marker (the tree's own, else
   * the first in path order below it: a Job that runs AIPerf once per load point has one per load
   * point), prefixed {@link #PREFIX} when it lacks it, at most 500 characters; null when the tree
   * has no marker.
   */
  public static @Nullable String label(Path tree) {
    Path marker = tree.resolve(NAME);
    if (!Files.isRegularFile(marker)) {
      try (Stream<Path> s = Files.walk(tree)) {
        marker =
            s.filter(p -> p.getFileName().toString().equals(NAME) && Files.isRegularFile(p))
                .sorted()
                .findFirst()
                .orElse(null);
      } catch (IOException | UncheckedIOException e) {
        marker = null;
      }
      if (marker == null) {
        return null;
      }
    }
    String first;
    try (BufferedReader r = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
      String line = r.readLine();
      first = line == null ? "" : line.strip();
    } catch (IOException e) {
      first = "";
    }
    if (first.isEmpty()) {
      first = "generated, not measured (" + NAME + " gives no detail)";
    }
    String label = first.startsWith(PREFIX) ? first : PREFIX + first;
    return label.length() <= MAX ? label : label.substring(0, MAX - 3) + "...";
  }
}
