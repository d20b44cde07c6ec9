package dev.benchplan.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates third-party test data in ../shared/data (never copied into the project). A test that
 * needs a file that is absent is skipped with a message naming it.
 */
public final class SharedData {
  private SharedData() {}

  /** The shared data folder: $BENCHPLAN_SHARED_DATA, else ../shared/data from the project. */
  public static Path root() {
    String env = System.getenv("BENCHPLAN_SHARED_DATA");
    Path p = env != null && !env.isBlank() ? Paths.get(env) : Paths.get("..", "shared", "data");
    return p.toAbsolutePath().normalize();
  }

  /** A file under the shared data folder; skips the calling test when it is absent. */
  public static Path require(String relative) {
    Path p = root().resolve(relative);
    Assumptions.assumeTrue(
        Files.isReadable(p), () -> "skipped: third-party test data absent: " + p);
    return p;
  }
}
