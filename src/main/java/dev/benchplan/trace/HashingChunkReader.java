package dev.benchplan.trace;

import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a file in large chunks on a background thread that also feeds every chunk to SHA-256, so
 * hashing overlaps the caller's parsing. A small fixed pool of buffers bounds memory: the reader
 * refills a buffer only after the caller {@link #release released} it.
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

    Chunk(int capacity, int padding) {
      this.capacity = capacity;
      this.data = new byte[capacity + padding];
    }
  }

  private static final Chunk END = new Chunk(0, 0);

  private final FileChannel channel;
  private final BlockingQueue<Chunk> free;
  private final BlockingQueue<Chunk> full;
  private final Thread thread;
  private volatile Throwable failure;
  private String sha256;
  private long bytes;

  private final int chunkSize;
  private final int maxChunks;
  private final int padding;
  /** Chunks made so far; only the reader thread makes them, lazily (small files need one). */
  private int chunks;

  HashingChunkReader(FileChannel channel, int chunkSize, int maxChunks, int padding) {
    this.channel = channel;
    this.chunkSize = chunkSize;
    this.maxChunks = maxChunks;
    this.padding = padding;
    this.free = new ArrayBlockingQueue<>(maxChunks);
    this.full = new ArrayBlockingQueue<>(maxChunks + 1);
    this.thread = new Thread(new Runnable() {
      @Override
      public void run() {
        readAndHash();
      }
    }, "benchplan-trace-reader");
    thread.setDaemon(true);
    thread.start();
  }

  private void readAndHash() {
    MessageDigest digest = Sha256.newDigest();
    long total = 0;
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
          full.put(c);
          // the caller only reads the chunk, and it comes back to `free` no earlier than
          // this update finishes (this thread takes it), so sharing it is safe
          digest.update(c.data, 0, n);
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
  Chunk next() throws IOException, InterruptedException {
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
  String sha256() {
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
