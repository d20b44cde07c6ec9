package dev.benchplan.trace;

import dev.benchplan.error.BenchplanException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * Validates, hashes and characterises a Mooncake-format JSONL trace in one streaming pass.
 *
 * <p>A background thread reads the file in large chunks and hashes them; between chunks it also
 * parses the chunks the calling thread has not reached yet into {@link RowBatch}es (the lines it
 * can: a line across a chunk border is left to the calling thread). The calling thread parses the
 * chunks it reaches first and the border lines itself and feeds every line to the statistics in
 * file order (line numbers, prefix reuse and timestamp order depend on it), so both cores work and
 * the split follows their speed. Parsing is a byte-level JSON scanner (no object tree per row).
 * Memory is bounded by the chunk pool (and its batches), the length histograms and the block-id
 * set.
 */
public final class TraceScanner {
  private static final int CHUNK_SIZE = 4 << 20;

  /**
   * 16 chunks (64 MiB) let the reader run well ahead of the parser, so neither thread waits on the
   * other when the scheduler runs them unevenly on a busy machine (a quarter faster under load than
   * 4 chunks).
   */
  private static final int CHUNK_COUNT = 16;

  /**
   * The longest line a trace may have, in bytes (16 MiB; a row with a 1M-token prompt as text is
   * about 4 MiB). A longer line is no trace row: the scan stops with exit 2 instead of buffering
   * without bound (an endless file such as /dev/zero, or a binary file without newlines).
   */
  public static final int MAX_LINE_BYTES = 16 << 20;

  /** How much of the start of a file is checked for binary content (NUL bytes, a gzip header). */
  static final int SNIFF_BYTES = 64 << 10;

  private final TraceStatistics stats;
  private final MooncakeLineParser parser = new MooncakeLineParser();

  /** The reader thread's parser, for the chunks it parses (never the first). */
  private final MooncakeLineParser laneParser = new MooncakeLineParser(false);

  /** Where replayed lines are unpacked for the statistics. */
  private final RowFields replayRow = new RowFields();

  /**
   * A line that started in an earlier chunk; always completed with a '\n' before parsing, and
   * always followed by {@link MooncakeLineParser#PADDING} spare bytes.
   */
  private byte[] carry = new byte[1 << 16];

  private int carryLength;

  private final Path path;

  private TraceScanner(Path path, TraceScanOptions options) {
    this.path = path;
    this.stats = new TraceStatistics(options);
  }

  /**
   * Scans a trace.
   *
   * @throws BenchplanException (exit 2) when the file is missing or cannot be read
   */
  public static TraceReport scan(Path file, TraceScanOptions options) {
    return scan(file, options, ScanProgress.NONE);
  }

  /** Scans a trace, reporting progress after every chunk (4 MiB). */
  public static TraceReport scan(Path file, TraceScanOptions options, ScanProgress progress) {
    return scan(file, options, progress, CHUNK_SIZE);
  }

  /** Scans with a given chunk size (tests use tiny chunks to put lines across chunk borders). */
  static TraceReport scan(
      Path file, TraceScanOptions options, ScanProgress progress, int chunkSize) {
    return scan(file, options, progress, chunkSize, HashingChunkReader.Split.DYNAMIC);
  }

  /** Scans with a given chunk size and split of the parsing between the threads (for tests). */
  static TraceReport scan(
      Path file,
      TraceScanOptions options,
      ScanProgress progress,
      int chunkSize,
      HashingChunkReader.Split split) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(progress, "progress");
    if (Files.isDirectory(file)) {
      throw BenchplanException.invalid(file + ": cannot read the trace: it is a directory");
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw BenchplanException.invalid(
          file
              + ": cannot read the trace: not a regular file (a"
              + " device, pipe or socket); expected a JSONL file");
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      TraceScanner scanner = new TraceScanner(file, options);
      long size = channel.size();
      // a small file gets a chunk just big enough (one read, no 4 MiB buffer to clear)
      int capacity = (int) Math.max(1, Math.min(chunkSize, size + 1));
      try (HashingChunkReader reader =
          new HashingChunkReader(
              channel,
              capacity,
              CHUNK_COUNT,
              MooncakeLineParser.PADDING,
              new HashingChunkReader.Lane() { // no lambda: none on the start-up path
                @Override
                public void work(HashingChunkReader.Chunk c) {
                  scanner.laneParse(c);
                }
              },
              split)) {
        scanner.run(file, reader, size, progress);
        return scanner.stats.toReport(
            file.toAbsolutePath().normalize().toString(),
            Objects.requireNonNull(reader.sha256(), "the scan has read every byte"),
            reader.bytes());
      }
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(file + ": cannot read the trace: no such file", e);
    } catch (IOException e) {
      throw BenchplanException.invalid(file + ": cannot read the trace: " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BenchplanException.runtime(file + ": scan interrupted", e);
    }
  }

  private void run(Path file, HashingChunkReader reader, long size, ScanProgress progress)
      throws IOException, InterruptedException {
    long done = 0;
    HashingChunkReader.Chunk chunk;
    while ((chunk = reader.next()) != null) {
      boolean laneParsed = !HashingChunkReader.claim(chunk);
      if (laneParsed) {
        HashingChunkReader.awaitLane(chunk);
      }
      byte[] data = chunk.data;
      int length = chunk.length;
      int start = 0;
      if (done == 0) {
        refuseBinary(file, data, length);
      }
      if (carryLength > 0) {
        int newline = indexOf(data, start, length, (byte) '\n');
        if (newline < 0) {
          appendCarry(data, start, length);
          start = length;
        } else {
          appendCarry(data, start, newline + 1);
          parseCarry();
          start = newline + 1;
        }
      }
      int lastNewline = lastIndexOf(data, start, length, (byte) '\n');
      RowBatch parsed = chunk.batch;
      if (laneParsed && chunk.parsedFrom >= 0 && parsed != null) { // the lane parsed its lines
        // the reader thread parsed these lines: it starts where this thread would have
        if (chunk.parsedFrom != start || chunk.parsedTo != lastNewline + 1) {
          throw new IllegalStateException(
              "the parallel lane parsed bytes ["
                  + chunk.parsedFrom
                  + ", "
                  + chunk.parsedTo
                  + ") of a chunk whose lines are ["
                  + start
                  + ", "
                  + (lastNewline + 1)
                  + ")");
        }
        parsed.replay(stats, replayRow);
        appendCarry(data, lastNewline + 1, length);
      } else if (lastNewline >= start) {
        parseLines(data, start, lastNewline + 1);
        appendCarry(data, lastNewline + 1, length);
      } else {
        appendCarry(data, start, length);
      }
      reader.release(chunk);
      done += length;
      progress.update(done, size, stats.rows());
    }
    if (carryLength > 0) {
      appendCarry(new byte[] {'\n'}, 0, 1); // the last line had no newline: add the terminator
      parseCarry();
    }
  }

  /** Parses complete lines; {@code data[end - 1]} is a '\n'. */
  private void parseLines(byte[] data, int start, int end) {
    MooncakeLineParser p = parser;
    TraceStatistics s = stats;
    int pos = start;
    while (pos < end) {
      pos = p.parseLine(data, pos);
      s.accept(p);
    }
  }

  /**
   * On the reader thread: parses the complete lines of a chunk into its batch. A line starts the
   * chunk when the chunk before ended with '\n'; else the chunk's first line is the rest of one
   * that began earlier, which the scanning thread completes and parses itself.
   */
  private void laneParse(HashingChunkReader.Chunk c) {
    byte[] data = c.data;
    int length = c.length;
    int from = 0;
    if (c.previousLastByte != '\n') {
      from = indexOf(data, 0, length, (byte) '\n') + 1;
      if (from == 0) {
        return; // no line ends here: all of it continues a line
      }
    }
    int to = lastIndexOf(data, from, length, (byte) '\n') + 1;
    if (to <= from) {
      return;
    }
    RowBatch batch = c.batch == null ? new RowBatch() : c.batch;
    c.batch = batch;
    batch.clear();
    MooncakeLineParser p = laneParser;
    int pos = from;
    while (pos < to) {
      pos = p.parseLine(data, pos);
      batch.add(p);
    }
    c.parsedFrom = from;
    c.parsedTo = to;
  }

  private void parseCarry() {
    parseLines(carry, 0, carryLength);
    carryLength = 0;
  }

  private void appendCarry(byte[] data, int from, int to) {
    int n = to - from;
    if (n <= 0) {
      return;
    }
    if ((long) carryLength + n > MAX_LINE_BYTES + 1L) { // + 1: the line's own '\n'
      throw BenchplanException.invalid(
          path
              + ": line "
              + (stats.lines() + 1)
              + ": longer than "
              + (MAX_LINE_BYTES >> 20)
              + " MiB, the maximum line length of a trace; expected one JSON"
              + " object per line (is this a JSONL trace?)");
    }
    int needed = carryLength + n + MooncakeLineParser.PADDING;
    if (needed > carry.length) {
      carry = Arrays.copyOf(carry, Math.max(carry.length * 2, needed));
    }
    System.arraycopy(data, from, carry, carryLength, n);
    carryLength += n;
  }

  /** Refuses content that cannot be a JSONL trace: a NUL byte or a gzip header near the start. */
  private static void refuseBinary(Path file, byte[] data, int length) {
    if (length >= 2 && data[0] == (byte) 0x1F && data[1] == (byte) 0x8B) {
      throw BenchplanException.invalid(
          file
              + ": cannot read the trace: it is gzip-compressed;"
              + " expected a JSONL text file (decompress it first)");
    }
    int n = Math.min(length, SNIFF_BYTES);
    for (int i = 0; i < n; i++) {
      if (data[i] == 0) {
        throw BenchplanException.invalid(
            file
                + ": cannot read the trace: binary content (a NUL"
                + " byte at offset "
                + i
                + "); expected a JSONL text file, one JSON object per line");
      }
    }
  }

  private static int indexOf(byte[] data, int from, int to, byte b) {
    for (int i = from; i < to; i++) {
      if (data[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static int lastIndexOf(byte[] data, int from, int to, byte b) {
    for (int i = to - 1; i >= from; i--) {
      if (data[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static String describe(IOException e) {
    String name = e.getClass().getSimpleName();
    return e.getMessage() == null ? name : name + " (" + e.getMessage() + ")";
  }
}
