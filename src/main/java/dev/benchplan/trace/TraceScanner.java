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
 * <p>A background thread reads the file in large chunks and hashes them while the calling thread
 * splits the same chunks into lines and parses them with a byte-level JSON parser (no object tree
 * per row). Memory is bounded by the chunk pool, the length histograms and the block-id set.
 */
public final class TraceScanner {
  private static final int CHUNK_SIZE = 4 << 20;
  /**
   * 16 chunks (64 MiB) let the reader run well ahead of the parser, so neither thread waits on
   * the other when the scheduler runs them unevenly on a busy machine (a quarter faster under
   * load than 4 chunks).
   */
  private static final int CHUNK_COUNT = 16;

  private final TraceStatistics stats;
  private final JsonlLineParser parser = new JsonlLineParser();
  /**
   * A line that started in an earlier chunk; always completed with a '\n' before parsing, and
   * always followed by {@link JsonlLineParser#PADDING} spare bytes.
   */
  private byte[] carry = new byte[1 << 16];
  private int carryLength;

  private TraceScanner(TraceScanOptions options) {
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
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(progress, "progress");
    if (Files.isDirectory(file)) {
      throw BenchplanException.invalid(file + ": cannot read the trace: it is a directory");
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      TraceScanner scanner = new TraceScanner(options);
      long size = channel.size();
      // a small file gets a chunk just big enough (one read, no 4 MiB buffer to clear)
      int capacity = (int) Math.max(1, Math.min(chunkSize, size + 1));
      try (HashingChunkReader reader =
          new HashingChunkReader(channel, capacity, CHUNK_COUNT, JsonlLineParser.PADDING)) {
        scanner.run(reader, size, progress);
        return scanner.stats.toReport(
            file.toAbsolutePath().normalize().toString(), reader.sha256(), reader.bytes());
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

  private void run(HashingChunkReader reader, long size, ScanProgress progress)
      throws IOException, InterruptedException {
    long done = 0;
    HashingChunkReader.Chunk chunk;
    while ((chunk = reader.next()) != null) {
      byte[] data = chunk.data;
      int length = chunk.length;
      int start = 0;
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
      if (lastNewline >= start) {
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
    JsonlLineParser p = parser;
    TraceStatistics s = stats;
    int pos = start;
    while (pos < end) {
      pos = p.parseLine(data, pos);
      s.accept(p);
    }
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
    int needed = carryLength + n + JsonlLineParser.PADDING;
    if (needed > carry.length) {
      carry = Arrays.copyOf(carry, Math.max(carry.length * 2, needed));
    }
    System.arraycopy(data, from, carry, carryLength, n);
    carryLength += n;
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
