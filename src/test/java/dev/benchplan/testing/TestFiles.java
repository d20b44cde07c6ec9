package dev.benchplan.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** File helpers the tests share. */
public final class TestFiles {
  private TestFiles() {}

  /** Copies the tree under {@code from} to {@code to} (created), files byte for byte. */
  public static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }
}
