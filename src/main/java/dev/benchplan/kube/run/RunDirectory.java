package dev.benchplan.kube.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * {@code DEPLOY_ROOT/benchmark/runs/<run-id>/}: written under a hidden temporary name ({@code
 * .<run-id>.partial-<random>}) and renamed into place only when every file is on disk, so a reader
 * (or a crash) never sees half a run.
 */
final class RunDirectory {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final Path runsDir;
  private final String runId;
  private volatile @Nullable Path partial;

  RunDirectory(Path runsDir, String runId) {
    this.runsDir = runsDir;
    this.runId = runId;
  }

  /** The folder of AIPerf's own tree inside a run directory. */
  static final String AIPERF_DIR = "aiperf";

  /**
   * A fresh hidden staging folder beside the run directories; the tree is restored into its {@code
   * aiperf} child (not yet created).
   */
  Path stageArtifacts() {
    try {
      Files.createDirectories(runsDir);
      Path stage =
          runsDir.resolve(
              "." + runId + ".artifacts-" + UUID.randomUUID().toString().substring(0, 8));
      Files.createDirectory(stage);
      return stage.resolve(AIPERF_DIR);
    } catch (IOException e) {
      throw BenchplanException.runtime(
          ErrorLocation.file(runsDir), runsDir + ": cannot stage the artifact tree: " + e, e);
    }
  }

  /**
   * Keeps a tree whose verification failed aside as {@code <run-id>.incomplete-<UTC time>} (its
   * name says so; it is never read as a run) and returns where it went.
   */
  @Nullable Path keepIncomplete(Path stagedTree, Instant now) {
    Path aside = runsDir.resolve(runId + ".incomplete-" + STAMP.format(now));
    try {
      Path stage = stagedTree.getParent();
      Files.move(stage, aside, StandardCopyOption.ATOMIC_MOVE);
      return aside;
    } catch (IOException e) {
      return stagedTree.getParent();
    }
  }

  /**
   * The failure of a tree that did not verify: {@code why}, and the tree kept aside ({@link
   * #keepIncomplete}).
   */
  BenchplanException keptAside(
      Path stagedTree, Instant now, @Nullable String why, @Nullable Throwable cause) {
    String message =
        why
            + "; the partial copy is kept aside in "
            + keepIncomplete(stagedTree, now)
            + " (incomplete, not a run)";
    return cause == null
        ? BenchplanException.runtime(message)
        : BenchplanException.runtime(message, cause);
  }

  /** Where the run ends up. */
  Path finalDir() {
    return runsDir.resolve(runId);
  }

  /** True when a run with this run-id was already collected. */
  boolean exists() {
    return Files.exists(finalDir());
  }

  /**
   * Writes {@code files} (relative name to bytes) and renames the directory into place. With {@code
   * replace}, an earlier run directory of the same run-id is kept as {@code <run-id>.replaced-<UTC
   * time>}; without it, an existing one is an error.
   */
  Path write(Map<String, byte[]> files, boolean replace, Instant now) {
    return write(files, null, replace, now);
  }

  /**
   * As {@link #write(Map, boolean, Instant)}, with a verified artifact tree (restored beside the
   * run directory, see {@link #stageArtifacts()}) moved in as {@code aiperf/} before the rename.
   */
  Path write(Map<String, byte[]> files, @Nullable Path artifactTree, boolean replace, Instant now) {
    try {
      Files.createDirectories(runsDir);
      Path tmp =
          runsDir.resolve("." + runId + ".partial-" + UUID.randomUUID().toString().substring(0, 8));
      partial = tmp;
      Files.createDirectory(tmp);
      for (Map.Entry<String, byte[]> e : files.entrySet()) {
        Path f = tmp.resolve(e.getKey());
        Files.createDirectories(f.getParent());
        try (OutputStream out = Files.newOutputStream(f, StandardOpenOption.CREATE_NEW)) {
          out.write(e.getValue());
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
          ch.force(true); // the rename below must not publish files still in the page cache only
        }
      }
      if (artifactTree != null) {
        Files.move(artifactTree, tmp.resolve(AIPERF_DIR), StandardCopyOption.ATOMIC_MOVE);
        Files.deleteIfExists(artifactTree.getParent());
      }
      Path target = finalDir();
      if (Files.exists(target)) {
        if (!replace) {
          throw BenchplanException.runtime(
              ErrorLocation.file(target),
              target + ": a run directory with this run-id already exists");
        }
        Files.move(
            target,
            runsDir.resolve(runId + ".replaced-" + STAMP.format(now)),
            StandardCopyOption.ATOMIC_MOVE);
      }
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target);
      }
      partial = null;
      return target;
    } catch (IOException e) {
      abandon();
      throw BenchplanException.runtime(
          ErrorLocation.file(finalDir()), finalDir() + ": cannot write the run directory: " + e, e);
    }
  }

  /** Removes a partly written directory (after a failure or an interrupt); harmless when none. */
  void abandon() {
    Path p = partial;
    partial = null;
    deleteQuietly(p);
  }

  /**
   * Deletes {@code root} and everything below it, best effort (a staging, scratch or partial
   * folder, never read as a run); harmless when absent.
   */
  static void deleteQuietly(@Nullable Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc)
                throws IOException {
              Files.deleteIfExists(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException ignored) {
      // best effort: a leftover hidden folder is never mistaken for a run
    }
  }
}
