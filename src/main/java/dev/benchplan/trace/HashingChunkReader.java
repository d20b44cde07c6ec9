package dev.benchplan.trace;

import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * Reads a file in large chunks on a background thread that also feeds every chunk to SHA-256, so
 * hashing overlaps the caller's parsing. A small fixed pool of buffers bounds memory: the reader
 * refills a buffer only after the caller {@link #release released} it. Hashing alone leaves that
 * thread idle most of the time, so a {@link Lane} may give it work on most chunks (hashed first,
 * then worked on, then handed over), which puts both cores to use.
 */
final class HashingChunkReader implements AutoCloseable {
  /**
   * A buffer and how many bytes of it hold file data. The array has {@code padding} spare bytes
   * after its capacity so a parser may read a few bytes past the data.
   */
  static final class Chunk {
    final byte[] data;
    final int capacity;
    int length;

    /** The lines the lane parsed, or null; reused with the chunk. */
    @Nullable RowBatch batch;

    /** The bytes [parsedFrom, parsedTo) the lane parsed into {@link #batch}; -1 when it did not. */
    int parsedFrom = -1;

    int parsedTo;

    Chunk(int capacity, int padding) {
      this.capacity = capacity;
      this.data = new byte[capacity + padding];
    }
  }

  private static final Chunk END = new Chunk(0, 0);

  /** Work the reader thread does on a chunk after hashing it, before handing it over. */
  interface Lane {
    /**
     * Works on a chunk (never the first).
     *
     * @param previousLastByte the last byte of the chunk before it
     */
    void work(Chunk c, byte previousLastByte);
  }

  private final FileChannel channel;
  private final BlockingQueue<Chunk> free;
  private final BlockingQueue<Chunk> full;
  private final Thread thread;
  private volatile @Nullable Throwable failure;
  private @Nullable String sha256;
  private long bytes;

  private final int chunkSize;
  private final int maxChunks;
  private final int padding;

  /** Chunks made so far; only the reader thread makes them, lazily (small files need one). */
  private int chunks;

  private final @Nullable Lane lane;

  /**
   * The lane works on every chunk but those whose index is a multiple of this: the scanning thread
   * parses one chunk in 4 and replays the rest into its statistics (which need file order), the
   * reader thread hashes all and parses 3 in 4. Profiled on a 450 MB trace, 4 gives both threads
   * about the same work (2: 40 vs 74 samples; 3: 40 vs 55; all: 55 vs 39).
   */
  static final int LANE_EVERY = 4;

  HashingChunkReader(FileChannel channel, int chunkSize, int maxChunks, int padding) {
    this(channel, chunkSize, maxChunks, padding, null);
  }

  /**
   * A reader that also runs {@code lane} (when not null) on the chunks {@link #LANE_EVERY} says.
   */
  HashingChunkReader(
      FileChannel channel, int chunkSize, int maxChunks, int padding, @Nullable Lane lane) {
    this.lane = lane;
    this.channel = channel;
    this.chunkSize = chunkSize;
    this.maxChunks = maxChunks;
    this.padding = padding;
    this.free = new ArrayBlockingQueue<>(maxChunks);
    this.full = new ArrayBlockingQueue<>(maxChunks + 1);
    this.thread =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                readAndHash();
              }
            },
            "benchplan-trace-reader");
    thread.setDaemon(true);
    thread.start();
  }

  private void readAndHash() {
    MessageDigest digest = Sha256.newDigest();
    long total = 0;
    long index = 0;
    byte lastByte = 0;
    try {
      while (true) {
        Chunk c = free.poll();
        if (c == null) {
          if (chunks < maxChunks) {
            chunks++;
            c = new Chunk(chunkSize, padding);
          } else {
            c = free.take();
          }
        }
        int n = fill(c);
        if (n > 0) {
          c.parsedFrom = -1;
          byte previous = lastByte;
          lastByte = c.data[n - 1];
          if (lane != null && index % LANE_EVERY != 0) {
            digest.update(c.data, 0, n);
            lane.work(c, previous);
            full.put(c);
          } else {
            full.put(c);
            // the caller only reads the chunk, and it comes back to `free` no earlier than
            // this update finishes (this thread takes it), so sharing it is safe
            digest.update(c.data, 0, n);
          }
          index++;
          total += n;
        }
        if (n < c.capacity) {
          break;
        }
      }
      bytes = total;
      sha256 = Sha256.hex(digest);
    } catch (IOException | RuntimeException e) {
      failure = e;
    } catch (InterruptedException e) {
      failure = e;
      Thread.currentThread().interrupt();
    } finally {
      full.offer(END); // never blocks: `full` has room for every chunk plus END
    }
  }

  private int fill(Chunk c) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(c.data, 0, c.capacity);
    while (bb.hasRemaining()) {
      if (channel.read(bb) < 0) {
        break;
      }
    }
    c.length = bb.position();
    return c.length;
  }

  /**
   * The next chunk in file order, or null at the end of the file.
   *
   * @throws IOException when reading failed
   */
  @Nullable Chunk next() throws IOException, InterruptedException {
    Chunk c = full.take();
    if (c != END) {
      return c;
    }
    thread.join();
    Throwable t = failure;
    if (t instanceof IOException e) {
      throw e;
    }
    if (t instanceof InterruptedException e) {
      throw e;
    }
    if (t != null) {
      throw new IllegalStateException("reading the trace failed", t);
    }
    return null;
  }

  /** Hands a chunk back for reuse once the caller is done with it. */
  void release(Chunk c) {
    free.add(c);
  }

  /** The SHA-256 of all bytes, once {@link #next()} returned null. */
  @Nullable String sha256() {
    return sha256;
  }

  /** How many bytes were read, once {@link #next()} returned null. */
  long bytes() {
    return bytes;
  }

  /** Stops the reader thread if the caller gave up early (it ends by itself otherwise). */
  @Override
  public void close() {
    if (thread.isAlive()) {
      thread.interrupt();
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
