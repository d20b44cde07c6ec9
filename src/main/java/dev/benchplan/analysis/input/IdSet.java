package dev.benchplan.analysis.input;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The request ids a scan has seen, for finding duplicates: each id's bytes in one growing array and
 * an open-addressing table of them, so a record adds no String and no hash-set entry (a set of
 * Strings cost a tenth of the scan). Two ids are the same exactly when their Strings are equal: the
 * byte-level parser gives an id's UTF-8 bytes (well-formed, without escapes), and an id Jackson
 * read is encoded to the same bytes, or, when it holds a lone surrogate (which UTF-8 cannot carry),
 * to a form no UTF-8 id has (a 0xFF byte, then its UTF-16 chars).
 */
final class IdSet {
  // the hash is seeded per set: how long the probe chains get cannot be planned in a file
  private final long seed = ThreadLocalRandom.current().nextLong() | 1;

  private byte[] bytes = new byte[1 << 14];
  private int used;

  // slot -> the id's offset in `bytes` (-1: empty), its length and hash
  private int[] offsets;
  private int[] lengths;
  // 64 bits: two different ids share one only by a 1-in-2^64 chance, so the comparison of their
  // bytes runs for a duplicate id, not for a collision (the JIT log showed the compiled scan thrown
  // away the first time a 32-bit hash collided, about 26,000 ids into a file)
  private long[] hashes;
  private int size;

  IdSet() {
    allocate(1 << 10);
  }

  /**
   * Makes room for about {@code n} ids in all, of up to twice the average length of those added so
   * far (ids such as req-N grow longer as a file goes on): the table is rehashed once to its final
   * size instead of at each doubling (a rehash loop runs too rarely to be compiled), and the ids'
   * bytes do not grow late (the JIT log showed the compiled scan thrown away when they did).
   */
  void expect(int n) {
    long slots = Long.highestOneBit(Math.max(2L * n, 1)) << 1; // load factor stays under 1/2
    if (slots > offsets.length && slots <= 1 << 30) {
      rehash((int) slots);
    }
    if (size > 0) {
      long want = 2L * n * used / size + 1024;
      if (want > bytes.length && want <= Integer.MAX_VALUE - 8) {
        bytes = Arrays.copyOf(bytes, (int) want);
      }
    }
  }

  /** Adds the id whose UTF-8 bytes are {@code b[from, to)}; false when it was there already. */
  boolean add(byte[] b, int from, int to) {
    int len = to - from;
    long h = hash(b, from, to);
    int mask = offsets.length - 1;
    for (int i = (int) h & mask; ; i = (i + 1) & mask) {
      int off = offsets[i];
      if (off < 0) {
        if (used + len > bytes.length) {
          bytes =
              Arrays.copyOf(
                  bytes,
                  (int)
                      Math.min(
                          Integer.MAX_VALUE - 8, Math.max(2L * bytes.length, (long) used + len)));
        }
        System.arraycopy(b, from, bytes, used, len);
        offsets[i] = used;
        lengths[i] = len;
        hashes[i] = h;
        used += len;
        if (++size * 2 > offsets.length) {
          grow();
        }
        return true;
      }
      if (hashes[i] == h
          && lengths[i] == len
          && Arrays.equals(bytes, off, off + len, b, from, to)) {
        return false;
      }
    }
  }

  /** Adds an id Jackson read; false when it was there already. */
  boolean add(String id) {
    byte[] b = encode(id);
    return add(b, 0, b.length);
  }

  /** The id's UTF-8 bytes, or 0xFF and its UTF-16 chars when it has a lone surrogate. */
  static byte[] encode(String id) {
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < id.length()
            && Character.isLowSurrogate(id.charAt(i + 1))) {
          i++;
        } else {
          byte[] out = new byte[1 + 2 * id.length()];
          out[0] = (byte) 0xFF;
          for (int k = 0; k < id.length(); k++) {
            out[1 + 2 * k] = (byte) (id.charAt(k) >>> 8);
            out[2 + 2 * k] = (byte) id.charAt(k);
          }
          return out;
        }
      }
    }
    return id.getBytes(StandardCharsets.UTF_8);
  }

  private long hash(byte[] b, int from, int to) {
    long x = seed;
    for (int i = from; i < to; i++) {
      x = (x ^ (b[i] & 0xFF)) * 0x100000001B3L;
    }
    x ^= x >>> 31;
    x *= 0xBF58476D1CE4E5B9L;
    x ^= x >>> 29;
    return x;
  }

  private void allocate(int capacity) {
    offsets = new int[capacity];
    Arrays.fill(offsets, -1);
    lengths = new int[capacity];
    hashes = new long[capacity];
  }

  private void grow() {
    rehash(offsets.length * 2);
  }

  private void rehash(int capacity) {
    int[] o = offsets;
    int[] l = lengths;
    long[] h = hashes;
    allocate(capacity);
    int mask = offsets.length - 1;
    for (int j = 0; j < o.length; j++) {
      if (o[j] >= 0) {
        int i = (int) h[j] & mask;
        while (offsets[i] >= 0) {
          i = (i + 1) & mask;
        }
        offsets[i] = o[j];
        lengths[i] = l[j];
        hashes[i] = h[j];
      }
    }
  }
}
