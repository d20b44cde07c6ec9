package dev.benchplan.analysis.input;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A scan of one run's per-request records started before the command line is parsed ({@code analyze
 * RUN}): building the commands takes a good part of a short analyze, and the second core is idle
 * meanwhile. Only a guess: {@link RecordScanner#scan} takes its result over only for the same path
 * of the same, unchanged file (file key, size and modification time before the scan and when it is
 * taken); otherwise it scans as it would have. Nothing is printed or written either way.
 */
public final class EarlyScan {
  /** The scan {@link #start} started that no {@link #take} has claimed yet. */
  private static final AtomicReference<@Nullable FutureTask<Optional<Done>>> EARLY =
      new AtomicReference<>();

  /** What the early scan read: the file as it was before the scan, and the scan. */
  private record Done(Path file, Object fileKey, long size, long modified, RecordScan scan) {
    boolean sameFile(BasicFileAttributes a) {
      return fileKey.equals(a.fileKey())
          && size == a.size()
          && modified == a.lastModifiedTime().toMillis();
    }
  }

  private EarlyScan() {}

  /** Starts scanning the records of {@code run} (as {@code analyze} locates them) on a thread. */
  public static void start(Path run) {
    FutureTask<Optional<Done>> task = new FutureTask<>(() -> scanOf(run));
    EARLY.set(task);
    Thread t = new Thread(task, "benchplan-records-early");
    t.setDaemon(true);
    t.start();
  }

  private static Optional<Done> scanOf(Path run) throws IOException {
    List<RunSource> sources = RunLocator.locate(run);
    if (sources.size() != 1) {
      return Optional.empty();
    }
    Path file = sources.get(0).recordsFile();
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    Object key = a.fileKey();
    if (!a.isRegularFile() || key == null) {
      return Optional.empty();
    }
    RecordScan scan = RecordScanner.scanNow(file);
    return Optional.of(new Done(file, key, a.size(), a.lastModifiedTime().toMillis(), scan));
  }

  /** The early scan of {@code file}, once it is done, or null when there is none for it. */
  static @Nullable RecordScan take(Path file) {
    FutureTask<Optional<Done>> task = EARLY.getAndSet(null);
    if (task == null) {
      return null;
    }
    try {
      Done d = task.get().orElse(null);
      if (d == null || !d.file().equals(file)) {
        return null;
      }
      return d.sameFile(Files.readAttributes(file, BasicFileAttributes.class)) ? d.scan() : null;
    } catch (ExecutionException | IOException | RuntimeException e) {
      return null; // the caller scans, and reports what is wrong
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
