package dev.benchplan.io;

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
 * Reads a file on a background thread in large chunks of whole lines and feeds every byte to
 * SHA-256, so reading and hashing overlap the caller's parsing. Each chunk the caller gets holds
 * complete lines only, each ending in {@code '\n'} (the file's last line is given one when it has
 * none, outside the hash), followed by at least {@code padding} spare bytes, so a parser needs no
 * bounds checks and no carry-over between chunks. A line longer than the chunk grows it; one longer
 * than {@code maxLine} bytes stops the reading (see {@link Chunk#lineTooLong}). A small fixed pool
 * of buffers bounds memory: the reader refills a buffer only after the caller {@link #release
 * released} it. The caller only reads chunks (the reader thread hashes them after handing them
 * over, and copies the unfinished line at a chunk's end into the next one).
 *
 * <p>Hashing alone leaves the reader thread idle much of the time, so a {@link Lane} may give it
 * work: each chunk is handed over first and hashed after, and then the reader works on the newest
 * chunk the caller has not reached yet, while the caller has another one to go to (one a turn, more
 * while the pool is full). The caller asks {@link #laneWorked} of each chunk it takes: either it
 * claims the chunk and does the work itself, or the lane had claimed it and the caller waits for
 * the lane's result. So the split between the threads follows their speed (the machine's load, the
 * file's shape, the JIT's warm-up) instead of a fixed ratio: the caller takes whatever is ready
 * when it gets there, the lane the backlog.
 *
 * @param <R> what the lane makes of a chunk (reused with the chunk)
 */
public final class LineChunkReader<R> implements AutoCloseable {
  /** A chunk nobody has claimed to work on yet. */
  private static final int OPEN = 0;

  /** The caller claimed the chunk: it works on it itself. */
  private static final int CALLER = 1;

  /** The lane claimed the chunk and works on it. */
  private static final int LANE = 2;

  /** The lane is done with the chunk. */
  private static final int LANE_DONE = 3;

  /** How chunks are shared between the caller and the lane (tests force one side). */
  public enum Split {
    /** Whoever is free first (the default). */
    DYNAMIC,
    /** The lane works on every chunk but the first before handing it over. */
    LANE_FIRST,
    /** The lane never works: the caller does all. */
    CALLER_ONLY
  }

  /** Work the reader thread does on chunks the caller has not reached yet. */
  public interface Lane<R> {
    /**
     * Works on a chunk (never the file's first), leaving the result in {@link Chunk#laneResult}.
     *
     * @return true when it did the work; false when it left the chunk to the caller
     */
    boolean work(Chunk<R> chunk);
  }

  /** A buffer of whole lines. */
  public static final class Chunk<R> {
    private byte[] data;
    private int capacity;
    private int end;
    private int fileBytes;
    private long endOffset;
    private boolean first;
    private boolean lineTooLong;
    private final AtomicInteger state = new AtomicInteger(OPEN);

    /** Whether the lane did the work; written before {@link #state} becomes LANE_DONE. */
    private boolean laneDone;

    private @Nullable R laneResult;

    private Chunk(int capacity, int padding) {
      this.capacity = capacity;
      this.data = new byte[capacity + 1 + padding]; // + 1: the '\n' a last line may lack
    }

    /** The buffer: lines in [0, {@link #end()}), then at least {@code padding} spare bytes. */
    public byte[] data() {
      return data;
    }

    /** Where the lines end: {@code data()[end() - 1]} is a '\n' (0 when there are none). */
    public int end() {
      return end;
    }

    /**
     * How many bytes of {@link #data()} are consecutive bytes of the file, from the chunk's first
     * line on (the lines and the start of the next one; for the first chunk, the file's start).
     */
    public int fileBytes() {
      return fileBytes;
    }

    /** The file offset just after this chunk's lines (for progress). */
    public long endOffset() {
      return endOffset;
    }

    /** Whether this is the file's first chunk. */
    public boolean first() {
      return first;
    }

    /**
     * Whether the line after this chunk's lines (it has none then) is longer than the reader's
     * {@code maxLine}: the reading stopped there, and this is the last chunk.
     */
    public boolean lineTooLong() {
      return lineTooLong;
    }

    /**
     * What the lane made of the chunk, or null (reused with the chunk: check {@link #laneWorked}).
     */
    public @Nullable R laneResult() {
      return laneResult;
    }

    /** For the lane: its result (it may keep and reuse the one it finds). */
    public void laneResult(R result) {
      this.laneResult = result;
    }
  }

  private final FileChannel channel;
  private final BlockingQueue<Chunk<R>> free;
  private final BlockingQueue<Chunk<R>> full;
  private final Chunk<R> endMarker = new Chunk<>(0, 0);
  private final Thread thread;
  private volatile @Nullable Throwable failure;
  private volatile @Nullable String sha256;
  private volatile long bytes;

  private final int chunkSize;
  private final int maxChunks;
  private final int padding;
  private final int maxLine;

  /** Chunks made so far; only the reader thread makes them, lazily (small files need one). */
  private int chunks;

  /** Whether the reader thread saw the end of the file. */
  private boolean eof;

  private final @Nullable Lane<R> lane;
  private final Split split;

  /** Chunks handed over that may still be open, oldest first (reader thread only). */
  private final ArrayDeque<Chunk<R>> handedOver = new ArrayDeque<>();

  /**
   * Starts reading {@code channel} from its position.
   *
   * @param chunkSize bytes per chunk (a chunk grows for a longer line)
   * @param maxChunks buffers at most (bounds memory and how far the reader runs ahead)
   * @param padding spare bytes after each chunk's lines
   * @param maxLine the longest line, in bytes without its '\n', that is read: a longer one stops
   *     the reading (see {@link Chunk#lineTooLong})
   * @param lane work for the reader thread, or null
   * @param split how the lane and the caller share chunks
   * @param name the reader thread's name
   */
  public LineChunkReader(
      FileChannel channel,
      int chunkSize,
      int maxChunks,
      int padding,
      int maxLine,
      @Nullable Lane<R> lane,
      Split split,
      String name) {
    this.lane = split == Split.CALLER_ONLY ? null : lane;
    this.split = split;
    this.channel = channel;
    this.chunkSize = chunkSize;
    this.maxChunks = maxChunks;
    this.padding = padding;
    this.maxLine = maxLine;
    this.free = new ArrayBlockingQueue<>(maxChunks);
    this.full = new ArrayBlockingQueue<>(maxChunks + 1);
    this.thread =
        new Thread(
            new Runnable() { // no lambda: none on the start-up path
              @Override
              public void run() {
                readAndHash();
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
  }

  private void readAndHash() {
    MessageDigest digest = Sha256.newDigest();
    long total = 0;
    boolean first = true;
    // the unfinished line at the end of the last chunk: prev.data[tailFrom, tailTo)
    @Nullable Chunk<R> prev = null;
    int tailFrom = 0;
    int tailTo = 0;
    try {
      while (!(eof && tailTo == tailFrom)) {
        Chunk<R> c = nextFree();
        int t = tailTo - tailFrom;
        if (prev != null && t > 0) {
          byte[] from = prev.data; // c may be prev itself, released and taken again
          if (t >= c.capacity) {
            grow(c, 0, (long) t + chunkSize);
          }
          // the others only read chunks, and only this thread writes into them
          System.arraycopy(from, tailFrom, c.data, 0, t);
        }
        int pos = fill(c, t);
        int searched = t; // the carried-over part has no '\n'
        int end;
        boolean tooLong = false;
        while (true) {
          int nl = lastIndexOf(c.data, searched, pos, (byte) '\n');
          if (nl >= 0) {
            end = nl + 1;
            break;
          }
          searched = pos;
          if (eof) { // the last line has no '\n': give it one (outside the hash)
            if (pos > 0) {
              c.data[pos] = '\n';
            }
            end = pos == 0 ? 0 : pos + 1;
            break;
          }
          if (pos > maxLine || c.capacity >= Integer.MAX_VALUE - 2 - padding) {
            tooLong = true;
            end = 0;
            break;
          }
          grow(c, pos, Math.min(maxLine + 1L, 2L * c.capacity));
          pos = fill(c, pos);
        }
        int fresh = pos - t; // bytes read for this chunk
        if (end == 0 && !tooLong) { // nothing left: the end of the file at a chunk's border
          free.add(c);
          break;
        }
        c.end = end;
        c.fileBytes = pos;
        c.endOffset = Math.min(total - t + end, total + fresh);
        c.first = first;
        c.lineTooLong = tooLong;
        c.laneDone = false;
        c.state.set(OPEN);
        if (lane != null && split == Split.LANE_FIRST && !first) {
          digest.update(c.data, t, fresh);
          c.state.set(LANE);
          workOn(c);
          full.put(c);
        } else {
          full.put(c);
          // the caller only reads the chunk, and it comes back to `free` no earlier than this
          // update finishes (this thread takes it), so sharing it is safe
          digest.update(c.data, t, fresh);
          if (lane != null && !first) {
            handedOver.addLast(c);
            workOnNewestOpen();
          }
        }
        total += fresh;
        first = false;
        prev = c;
        tailFrom = end == 0 ? 0 : Math.min(end, pos);
        tailTo = end == 0 ? 0 : pos;
        if (tooLong) {
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
      full.offer(endMarker); // never blocks: `full` has room for every chunk plus the marker
    }
  }

  /** Replaces a chunk's buffer by one of {@code capacity} bytes that keeps its first {@code n}. */
  private void grow(Chunk<R> c, int n, long capacity) {
    int cap = (int) Math.min(capacity, Integer.MAX_VALUE - 2L - padding);
    byte[] bigger = new byte[cap + 1 + padding];
    System.arraycopy(c.data, 0, bigger, 0, n);
    c.data = bigger;
    c.capacity = cap;
  }

  /**
   * A buffer to fill: a released one, a new one while the pool is not full, or else (while waiting
   * for the caller to release one) lane work on open chunks.
   */
  private Chunk<R> nextFree() throws InterruptedException {
    while (true) {
      Chunk<R> c = free.poll();
      if (c == null && chunks < maxChunks) {
        chunks++;
        return new Chunk<>(chunkSize, padding);
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
   * Claims the newest handed-over chunk the caller has not claimed and works on it, when at least
   * one older chunk is open too: the oldest open one is the caller's next, and a lane working on it
   * would only make the caller wait (and delay the reading and hashing, which only this thread
   * does).
   *
   * @return false when there was none
   */
  private boolean workOnNewestOpen() {
    int open = 0;
    for (Chunk<R> c : handedOver) {
      if (c.state.get() == OPEN) {
        open++;
      }
    }
    if (open < 2) {
      return false;
    }
    while (!handedOver.isEmpty()) {
      Chunk<R> c = handedOver.pollLast();
      if (c.state.compareAndSet(OPEN, LANE)) {
        workOn(c);
        return true;
      }
    }
    return false;
  }

  private void workOn(Chunk<R> c) {
    Lane<R> l = lane;
    boolean done = false;
    try {
      done = l != null && c.end > 0 && l.work(c);
    } finally {
      synchronized (c) {
        c.laneDone = done;
        c.state.set(LANE_DONE);
        c.notifyAll();
      }
    }
  }

  /** Reads into the chunk from {@code pos} until it is full or the file ends; the new position. */
  private int fill(Chunk<R> c, int pos) throws IOException {
    ByteBuffer bb = ByteBuffer.wrap(c.data, pos, c.capacity - pos);
    while (bb.hasRemaining()) {
      if (channel.read(bb) < 0) {
        eof = true;
        break;
      }
    }
    return bb.position();
  }

  private static int lastIndexOf(byte[] data, int from, int to, byte b) {
    for (int i = to - 1; i >= from; i--) {
      if (data[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The next chunk in file order, or null at the end of the file.
   *
   * @throws IOException when reading failed
   */
  public @Nullable Chunk<R> next() throws IOException, InterruptedException {
    Chunk<R> c = full.take();
    if (c != endMarker) {
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
      throw new IllegalStateException("reading the file failed", t);
    }
    return null;
  }

  /**
   * Takes a chunk {@link #next} returned: claims it for the caller, or, when the lane claimed it
   * first, waits until the lane is done with it.
   *
   * @return true when the lane did the chunk's work ({@link Chunk#laneResult} holds it); false when
   *     the caller must do it
   */
  public static boolean laneWorked(Chunk<?> c) throws InterruptedException {
    if (c.state.compareAndSet(OPEN, CALLER)) {
      return false;
    }
    if (c.state.get() != LANE_DONE) {
      synchronized (c) {
        while (c.state.get() != LANE_DONE) {
          c.wait();
        }
      }
    }
    return c.laneDone;
  }

  /** Hands a chunk back for reuse once the caller is done with it. */
  public void release(Chunk<R> c) {
    free.add(c);
  }

  /**
   * The SHA-256 of all bytes, once {@link #next()} returned null.
   *
   * @throws IllegalStateException before that
   */
  public String sha256() {
    String s = sha256;
    if (s == null) {
      throw new IllegalStateException("the file was not read to its end");
    }
    return s;
  }

  /** How many bytes were read, once {@link #next()} returned null. */
  public long bytes() {
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
