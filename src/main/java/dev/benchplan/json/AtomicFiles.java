package dev.benchplan.json;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Atomic file writes: content goes to a temporary sibling, is forced to disk, then moved into
 * place, so readers see either the old state or the complete new file, never half of it.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  /** Replaces (or creates) target atomically. */
  public static void write(Path target, byte[] content) {
    Path tmp = writeTemp(target, content);
    try {
      move(tmp, target, true);
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw BenchplanException.runtime(
          ErrorLocation.file(target), target + ": cannot write: " + Sha256.describe(e), e);
    }
  }

  /**
   * Creates target atomically, never overwriting: when target already exists (even if another
   * process created it a moment ago), nothing is changed and false is returned.
   */
  public static boolean createNew(Path target, byte[] content) {
    Path tmp = writeTemp(target, content);
    try {
      // a hard link fails atomically when the name exists: exactly one of concurrent writers wins
      Files.createLink(target, tmp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (UnsupportedOperationException | IOException e) {
      return createNewWithoutLinks(target, tmp);
    } finally {
      deleteQuietly(tmp);
    }
  }

  private static boolean createNewWithoutLinks(Path target, Path tmp) {
    // file systems without hard links: CREATE_NEW is atomic for the name, content copied after
    try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW)) {
      out.write(Files.readAllBytes(tmp));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw BenchplanException.runtime(
          ErrorLocation.file(target), target + ": cannot create: " + Sha256.describe(e), e);
    }
  }

  /**
   * Writes several files so that either all appear or none: each goes to a temporary sibling first;
   * only when all are written are they moved into place. If a move fails, the files already moved
   * are restored to their previous content (or removed).
   */
  public static void writeAll(Map<Path, byte[]> files) {
    Map<Path, Path> temps = new LinkedHashMap<>();
    Map<Path, byte[]> previous = new LinkedHashMap<>();
    Path current = null; // the file being written, named in the error
    try {
      for (Map.Entry<Path, byte[]> e : files.entrySet()) {
        current = e.getKey();
        temps.put(e.getKey(), writeTemp(e.getKey(), e.getValue()));
        if (Files.exists(e.getKey())) {
          previous.put(e.getKey(), Files.readAllBytes(e.getKey()));
        }
      }
      List<Path> moved = new java.util.ArrayList<>();
      try {
        for (Map.Entry<Path, Path> e : temps.entrySet()) {
          current = e.getKey();
          move(e.getValue(), e.getKey(), true);
          moved.add(e.getKey());
        }
      } catch (IOException e) {
        for (Path p : moved) {
          byte[] old = previous.get(p);
          if (old == null) {
            deleteQuietly(p);
          } else {
            write(p, old);
          }
        }
        throw e;
      }
    } catch (IOException e) {
      Path failed = Objects.requireNonNull(current, "only writing a file fails");
      throw BenchplanException.runtime(
          ErrorLocation.file(failed), failed + ": cannot write: " + Sha256.describe(e), e);
    } finally {
      temps.values().forEach(AtomicFiles::deleteQuietly);
    }
  }

  private static Path writeTemp(Path target, byte[] content) {
    Path dir = Objects.requireNonNull(target.toAbsolutePath().getParent(), "a file has a parent");
    Path tmp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      Files.createDirectories(dir);
      try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW)) {
        out.write(content);
      }
      return tmp;
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw BenchplanException.runtime(
          ErrorLocation.file(target), target + ": cannot write: " + Sha256.describe(e), e);
    }
  }

  private static void move(Path from, Path to, boolean replace) throws IOException {
    try {
      if (replace) {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Deletes a file if present, ignoring errors (cleanup of temporaries). */
  public static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException ignored) {
      // best effort: a leftover temporary name is harmless and starts with a dot
    }
  }
}
