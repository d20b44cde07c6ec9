package dev.benchplan.trace;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.io.LineChunkReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Validates, hashes and characterises a Mooncake-format JSONL trace in one streaming pass.
 *
 * <p>A background thread ({@link LineChunkReader}) reads the file in large chunks of whole lines
 * and hashes them; between chunks it also parses the chunks the calling thread has not reached yet
 * into {@link RowBatch}es. The calling thread parses the chunks it reaches first itself and feeds
 * every line to the statistics in file order (line numbers, prefix reuse and timestamp order depend
 * on it), so both cores work and the split follows their speed. Parsing is a byte-level JSON
 * scanner (no object tree per row). Memory is bounded by the chunk pool (and its batches), the
 * length histograms and the block-id set.
 *
 * <p>The command line may {@link #startEarly start} the reading before it has parsed its arguments,
 * so the reader thread reads, hashes and parses (and the JIT compiles that work) while the main
 * thread is still starting up; {@link #scan} takes that reading over when it is for the same file.
 */
public final class TraceScanner {
  private static final int CHUNK_SIZE = 2 << 20;

  /**
   * 8 chunks of 2 MiB (16 MiB) let the reader run ahead of the parser so neither thread waits on
   * the other when the scheduler runs them unevenly, and keep fresh memory small: every new buffer
   * is zeroed by the JVM and faulted in by the kernel (on a virtual machine, first touches are
   * dear). On a 452 MB trace, 10 interleaved calls beside a busy helper: CPU median 1.71 s against
   * 1.86 s with 16 chunks of 4 MiB (RSS 103 against 127 MB); wall time alike.
   */
  private static final int CHUNK_COUNT = 8;

  /**
   * The longest line a trace may have, in bytes (16 MiB; a row with a 1M-token prompt as text is
   * about 4 MiB). A longer line is no trace row: the scan stops with exit 2 instead of buffering
   * without bound (an endless file such as /dev/zero, or a binary file without newlines).
   */
  public static final int MAX_LINE_BYTES = 16 << 20;

  /** How much of the start of a file is checked for binary content (NUL bytes, a gzip header). */
  static final int SNIFF_BYTES = 64 << 10;

  private static final String READER_THREAD = "benchplan-trace-reader";

  /** A reading {@link #startEarly} started that no scan has taken over yet. */
  private static final AtomicReference<@Nullable Early> EARLY = new AtomicReference<>();

  private final TraceStatistics stats;
  private final MooncakeLineParser parser = new MooncakeLineParser();

  /** Where replayed lines are unpacked for the statistics. */
  private final RowFields replayRow = new RowFields();

  private final Path path;

  private TraceScanner(Path path, TraceScanOptions options) {
    this.path = path;
    this.stats = new TraceStatistics(options);
  }

  /**
   * On the reader thread: parses the lines of a chunk the scanning thread has not reached into its
   * batch (never the file's first chunk, where a byte-order mark may start the first line).
   */
  private static final class LaneParser implements LineChunkReader.Lane<RowBatch> {
    private final MooncakeLineParser parser = new MooncakeLineParser(false);

    @Override
    public boolean work(LineChunkReader.Chunk<RowBatch> c) {
      RowBatch batch = c.laneResult();
      if (batch == null) {
        batch = new RowBatch();
        c.laneResult(batch);
      }
      batch.clear();
      MooncakeLineParser p = parser;
      byte[] data = c.data();
      int end = c.end();
      int pos = 0;
      while (pos < end) {
        batch.target(p);
        pos = p.parseLine(data, pos);
        batch.add(p);
      }
      return true;
    }
  }

  /** A reading started before the scan: the file as it was opened, and its reader. */
  private record Early(
      Path file,
      @Nullable Object fileKey,
      long size,
      long modified,
      FileChannel channel,
      LineChunkReader<RowBatch> reader) {
    /** Whether the file at {@code file} is still the one this reading opened. */
    boolean sameFile(BasicFileAttributes a) {
      return fileKey != null
          && fileKey.equals(a.fileKey())
          && size == a.size()
          && modified == a.lastModifiedTime().toMillis();
    }

    void close() {
      reader.close();
      try {
        channel.close();
      } catch (IOException e) {
        // only read from: nothing to lose
      }
    }
  }

  /**
   * Starts reading, hashing and parsing a trace ahead of {@link #scan(Path, TraceScanOptions,
   * ScanProgress)}, which takes the reading over when it scans the same file (same path, and the
   * file not replaced or changed since). Does nothing unless {@code file} is a regular file that
   * opens; never fails (the scan reports what is wrong with the file). A reading no scan takes over
   * reads at most the chunk pool's worth (16 MiB) and waits.
   */
  public static void startEarly(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      if (!a.isRegularFile() || a.fileKey() == null) {
        return;
      }
      FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
      Early early =
          new Early(
              file,
              a.fileKey(),
              a.size(),
              a.lastModifiedTime().toMillis(),
              channel,
              reader(channel, a.size(), CHUNK_SIZE, LineChunkReader.Split.DYNAMIC));
      Early old = EARLY.getAndSet(early);
      if (old != null) {
        old.close();
      }
    } catch (IOException | RuntimeException e) {
      // the scan opens the file itself and reports what is wrong
    }
  }

  /** The early reading of {@code file}, or null (then any other early reading is stopped). */
  private static @Nullable Early takeEarly(Path file, int chunkSize, LineChunkReader.Split split) {
    Early early = EARLY.getAndSet(null);
    if (early == null) {
      return null;
    }
    try {
      if (early.file().equals(file)
          && chunkSize == CHUNK_SIZE
          && split == LineChunkReader.Split.DYNAMIC
          && early.sameFile(Files.readAttributes(file, BasicFileAttributes.class))) {
        return early;
      }
    } catch (IOException | RuntimeException e) {
      // gone or changed: read it again
    }
    early.close();
    return null;
  }

  private static LineChunkReader<RowBatch> reader(
      FileChannel channel, long size, int chunkSize, LineChunkReader.Split split) {
    // a small file gets a chunk just big enough (one read, no 2 MiB buffer to clear)
    int capacity = (int) Math.max(1, Math.min(chunkSize, size + 1));
    return new LineChunkReader<>(
        channel,
        capacity,
        CHUNK_COUNT,
        MooncakeLineParser.PADDING,
        MAX_LINE_BYTES,
        new LaneParser(),
        split,
        READER_THREAD);
  }

  /**
   * Scans a trace.
   *
   * @throws BenchplanException (exit 2) when the file is missing or cannot be read
   */
  public static TraceReport scan(Path file, TraceScanOptions options) {
    return scan(file, options, ScanProgress.NONE);
  }

  /** Scans a trace, reporting progress after every chunk (2 MiB). */
  public static TraceReport scan(Path file, TraceScanOptions options, ScanProgress progress) {
    return scan(file, options, progress, CHUNK_SIZE);
  }

  /** Scans with a given chunk size (tests use tiny chunks to put lines across chunk borders). */
  static TraceReport scan(
      Path file, TraceScanOptions options, ScanProgress progress, int chunkSize) {
    return scan(file, options, progress, chunkSize, LineChunkReader.Split.DYNAMIC);
  }

  /** Scans with a given chunk size and split of the parsing between the threads (for tests). */
  static TraceReport scan(
      Path file,
      TraceScanOptions options,
      ScanProgress progress,
      int chunkSize,
      LineChunkReader.Split split) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(progress, "progress");
    Early early = takeEarly(file, chunkSize, split);
    if (early == null) {
      if (Files.isDirectory(file)) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file), file + ": cannot read the trace: it is a directory");
      }
      if (Files.exists(file) && !Files.isRegularFile(file)) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": cannot read the trace: not a regular file (a"
                + " device, pipe or socket); expected a JSONL file");
      }
    }
    try (FileChannel channel =
        early != null ? early.channel() : FileChannel.open(file, StandardOpenOption.READ)) {
      TraceScanner scanner = new TraceScanner(file, options);
      long size = early != null ? early.size() : channel.size();
      try (LineChunkReader<RowBatch> reader =
          early != null ? early.reader() : reader(channel, size, chunkSize, split)) {
        scanner.run(file, reader, size, progress);
        return scanner.stats.toReport(
            file.toAbsolutePath().normalize().toString(), reader.sha256(), reader.bytes());
      }
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read the trace: no such file", e);
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": cannot read the trace: " + InputErrors.describe(e),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BenchplanException.runtime(ErrorLocation.file(file), file + ": scan interrupted", e);
    }
  }

  private void run(Path file, LineChunkReader<RowBatch> reader, long size, ScanProgress progress)
      throws IOException, InterruptedException {
    LineChunkReader.Chunk<RowBatch> chunk;
    while ((chunk = reader.next()) != null) {
      boolean laneParsed = LineChunkReader.laneWorked(chunk);
      if (chunk.first()) {
        refuseBinary(file, chunk.data(), chunk.fileBytes());
      }
      RowBatch batch = chunk.laneResult();
      if (laneParsed && batch != null) {
        batch.replay(stats, replayRow);
      } else {
        parseLines(chunk.data(), chunk.end());
      }
      if (chunk.lineTooLong()) {
        throw BenchplanException.invalid(
            ErrorLocation.line(path, stats.lines() + 1),
            path
                + ": line "
                + (stats.lines() + 1)
                + ": longer than "
                + (MAX_LINE_BYTES >> 20)
                + " MiB, the maximum line length of a trace; expected one JSON"
                + " object per line (is this a JSONL trace?)");
      }
      reader.release(chunk);
      progress.update(chunk.endOffset(), size, stats.rows());
    }
  }

  /** Parses the complete lines [0, end); {@code data[end - 1]} is a '\n'. */
  private void parseLines(byte[] data, int end) {
    MooncakeLineParser p = parser;
    TraceStatistics s = stats;
    int pos = 0;
    while (pos < end) {
      pos = p.parseLine(data, pos);
      s.accept(p);
    }
  }

  /** Refuses content that cannot be a JSONL trace: a NUL byte or a gzip header near the start. */
  private static void refuseBinary(Path file, byte[] data, int length) {
    if (length >= 2 && data[0] == (byte) 0x1F && data[1] == (byte) 0x8B) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file
              + ": cannot read the trace: it is gzip-compressed;"
              + " expected a JSONL text file (decompress it first)");
    }
    int n = Math.min(length, SNIFF_BYTES);
    for (int i = 0; i < n; i++) {
      if (data[i] == 0) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file
                + ": cannot read the trace: binary content (a NUL"
                + " byte at offset "
                + i
                + "); expected a JSONL text file, one JSON object per line");
      }
    }
  }
}
