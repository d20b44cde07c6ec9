package dev.benchplan.analysis.input;

import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * Reads a file in large chunks on a background thread that feeds every chunk to SHA-256 before
 * handing it over, so hashing overlaps the caller's parsing (the same idea as trace inspect's
 * reader). A fixed pool of buffers bounds memory: a buffer is refilled only after the caller {@link
 * #release released} it. Once handed over, a chunk belongs to the caller, who may write into it
 * (the hash has seen it).
 */
final class HashingReader implements AutoCloseable {
  /** A buffer and how many bytes of it hold file data; {@code padding} spare bytes follow. */
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
  private final int chunkSize;
  private final int maxChunks;
  private final int padding;
  private int chunks;
  private volatile @Nullable Throwable failure;
  private volatile @Nullable String sha256;

  HashingReader(FileChannel channel, int chunkSize, int maxChunks, int padding) {
    this.channel = channel;
    this.chunkSize = chunkSize;
    this.maxChunks = maxChunks;
    this.padding = padding;
    this.free = new ArrayBlockingQueue<>(maxChunks);
    this.full = new ArrayBlockingQueue<>(maxChunks + 1);
    this.thread = new Thread(this::readAndHash, "benchplan-records-reader");
    thread.setDaemon(true);
    thread.start();
  }

  private void readAndHash() {
    MessageDigest digest = Sha256.newDigest();
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
          digest.update(c.data, 0, n);
          full.put(c);
        }
        if (n < c.capacity) {
          break;
        }
      }
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
      throw new IllegalStateException("reading the records failed", t);
    }
    return null;
  }

  /** Hands a chunk back for reuse once the caller is done with it. */
  void release(Chunk c) {
    free.add(c);
  }

  /** The SHA-256 of all bytes, once {@link #next()} returned null. */
  String sha256() {
    String s = sha256;
    if (s == null) {
      throw new IllegalStateException("the file was not read to its end");
    }
    return s;
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
