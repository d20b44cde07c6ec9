package dev.benchplan.trace;

/**
 * An open-addressing set of {@code long}s (linear probing, load factor at most 1/2), for block ids
 * too large for {@link BlockIdSet}'s bitset. Zero marks an empty slot; the key 0 itself is tracked
 * by a flag.
 */
final class LongHashSet {
  private long[] slots = new long[16];
  private int size;
  private boolean hasZero;

  boolean contains(long key) {
    if (key == 0) {
      return hasZero;
    }
    int mask = slots.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      long k = slots[i];
      if (k == key) {
        return true;
      }
      if (k == 0) {
        return false;
      }
    }
  }

  void add(long key) {
    if (key == 0) {
      if (!hasZero) {
        hasZero = true;
        size++;
      }
      return;
    }
    if (insert(slots, key)) {
      size++;
      if (size * 2 > slots.length) {
        grow();
      }
    }
  }

  int size() {
    return size;
  }

  private static boolean insert(long[] table, long key) {
    int mask = table.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      long k = table[i];
      if (k == key) {
        return false;
      }
      if (k == 0) {
        table[i] = key;
        return true;
      }
    }
  }

  private void grow() {
    long[] bigger = new long[slots.length * 2];
    for (long k : slots) {
      if (k != 0) {
        insert(bigger, k);
      }
    }
    slots = bigger;
  }

  /** MurmurHash3's 64-bit finaliser: spreads sequential ids over the table. */
  private static int mix(long key) {
    long h = key;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (int) h;
  }
}
