package dev.benchplan.trace;

import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Reads a file in large chunks on a background thread that also feeds every chunk to SHA-256, so
 * hashing overlaps the caller's parsing. A small fixed pool of buffers bounds memory: the reader
 * refills a buffer only after the caller {@link #release released} it.
 *
 * <p>Hashing alone leaves that thread idle much of the time, so a {@link Lane} may give it work:
 * each chunk is handed over first and hashed after, and then the reader works on the newest chunk
 * that the caller has not {@link #claim claimed} yet (one a turn, more while the pool is full). The
 * caller claims each chunk it takes; one the lane claimed first it {@link #awaitLane awaits}. So
 * the split between the threads follows their speed (the machine's load, the trace's shape, the
 * JIT's warm-up of SHA-256) instead of a fixed ratio: the caller takes whatever is ready when it
 * gets there, the lane the backlog.
 */
final class HashingChunkReader implements AutoCloseable {
  /** A chunk nobody has claimed to work on yet. */
  static final int OPEN = 0;

  /** The caller claimed the chunk: it works on it itself. */
  static final int CALLER = 1;

  /** The lane claimed the chunk and works on it. */
  static final int LANE = 2;

  /** The lane is done with the chunk. */
  static final int LANE_DONE = 3;

  /** How chunks are shared between the caller and the lane (tests force one side). */
  enum Split {
    /** Whoever is free first (the default). */
    DYNAMIC,
    /** The lane works on every chunk but the first before handing it over. */
    LANE_FIRST,
    /** The lane never works: the caller does all. */
    CALLER_ONLY
  }

  /**
   * A buffer and how many bytes of it hold file data. The array has {@code padding} spare bytes
   * after its capacity so a parser may read a few bytes past the data.
   */
  static final class Chunk {
    final byte[] data;
    final int capacity;
    int length;

    /** The last byte of the chunk before this one (0 for the first). */
    byte previousLastByte;

    /** Whether this is the file's first chunk. */
    boolean first;

    /** {@link #OPEN}, {@link #CALLER}, {@link #LANE} or {@link #LANE_DONE}. */
    final AtomicInteger state = new AtomicInteger(OPEN);

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

  /** Work the reader thread does on a chunk the caller has not claimed. */
  interface Lane {
    /**
     * Works on a chunk (never the first): on success sets {@link Chunk#parsedFrom}; leaves it -1
     * when it gives up, and the caller then does the work itself.
     */
    void work(Chunk c);
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
  private final Split split;

  /** Chunks handed over that may still be open, oldest first (reader thread only). */
  private final ArrayDeque<Chunk> handedOver = new ArrayDeque<>();

  HashingChunkReader(FileChannel channel, int chunkSize, int maxChunks, int padding) {
    this(channel, chunkSize, maxChunks, padding, null, Split.CALLER_ONLY);
  }

  /**
   * A reader whose thread also runs {@code lane} (when not null) on chunks as {@code split} says.
   */
  HashingChunkReader(
      FileChannel channel,
      int chunkSize,
      int maxChunks,
      int padding,
      @Nullable Lane lane,
      Split split) {
    this.lane = split == Split.CALLER_ONLY ? null : lane;
    this.split = split;
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
    byte lastByte = 0;
    boolean first = true;
    try {
      while (true) {
        Chunk c = nextFree();
        int n = fill(c);
        if (n > 0) {
          c.parsedFrom = -1;
          c.previousLastByte = lastByte;
          c.first = first;
          first = false;
          lastByte = c.data[n - 1];
          c.state.set(OPEN);
          if (lane != null && split == Split.LANE_FIRST && !c.first) {
            digest.update(c.data, 0, n);
            c.state.set(LANE);
            workOn(c);
            full.put(c);
          } else {
            full.put(c);
            // the caller only reads the chunk, and it comes back to `free` no earlier than this
            // update finishes (this thread takes it), so sharing it is safe
            digest.update(c.data, 0, n);
            if (lane != null && !c.first) {
              handedOver.addLast(c);
              workOnNewestOpen();
            }
          }
          total += n;
        }
        if (n < c.capacity) {
          break;
        }
      }
      bytes = total;
      sha256 = Sha256.hex(digest);
      // the file is read and hashed: help the caller with the chunks it has not reached
      while (workOnNewestOpen()) {
        // one chunk a turn, newest first, until the caller has claimed all the rest
      }
    } catch (IOException | RuntimeException e) {
      failure = e;
    } catch (InterruptedException e) {
      failure = e;
      Thread.currentThread().interrupt();
    } finally {
      full.offer(END); // never blocks: `full` has room for every chunk plus END
    }
  }

  /**
   * A buffer to fill: a released one, a new one while the pool is not full, or else (while waiting
   * for the caller to release one) lane work on open chunks.
   */
  private Chunk nextFree() throws InterruptedException {
    while (true) {
      Chunk c = free.poll();
      if (c == null && chunks < maxChunks) {
        chunks++;
        return new Chunk(chunkSize, padding);
      }
      if (c == null && !workOnNewestOpen()) {
        c = free.take();
      }
      if (c != null) {
        handedOver.remove(c); // its last use is over: the list holds each chunk at most once
        return c;
      }
    }
  }

  /**
   * Claims the newest handed-over chunk the caller has not claimed and works on it.
   *
   * @return false when there was none
   */
  private boolean workOnNewestOpen() {
    while (!handedOver.isEmpty()) {
      Chunk c = handedOver.pollLast();
      if (c.state.compareAndSet(OPEN, LANE)) {
        workOn(c);
        return true;
      }
    }
    return false;
  }

  private void workOn(Chunk c) {
    Lane l = lane;
    try {
      if (l != null) {
        l.work(c);
      }
    } finally {
      synchronized (c) {
        c.state.set(LANE_DONE);
        c.notifyAll();
      }
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

  /**
   * Claims a chunk {@link #next} returned for the caller.
   *
   * @return true when the caller must work on it itself; false when the lane has claimed it (then
   *     {@link #awaitLane} before reading its results)
   */
  static boolean claim(Chunk c) {
    return c.state.compareAndSet(OPEN, CALLER);
  }

  /** Waits until the lane is done with a chunk it claimed. */
  static void awaitLane(Chunk c) throws InterruptedException {
    if (c.state.get() == LANE_DONE) {
      return;
    }
    synchronized (c) {
      while (c.state.get() != LANE_DONE) {
        c.wait();
      }
    }
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
