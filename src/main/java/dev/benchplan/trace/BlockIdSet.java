package dev.benchplan.trace;

/**
 * The set of hash-block ids seen so far, without boxing. Mooncake remaps block hashes to small
 * dense integers, so ids below 2^31 live in a paged bitset (one bit per id, pages allocated on
 * first use: 27 million dense ids cost 3.4 MB instead of hundreds of MB in a hash set); larger ids
 * fall back to an open-addressing {@link LongHashSet}.
 */
final class BlockIdSet {
  private static final int PAGE_BITS = 20; // 2^20 ids (128 KB) per page
  private static final int PAGE_WORDS = 1 << (PAGE_BITS - 6);
  private static final long BITSET_LIMIT = 1L << 31;

  private final long[][] pages = new long[(int) (BITSET_LIMIT >>> PAGE_BITS)][];
  private final LongHashSet large = new LongHashSet();
  private long bitsetSize;

  /** True when the id was added before. */
  boolean contains(long id) {
    if (id >= 0 && id < BITSET_LIMIT) {
      long[] page = pages[(int) (id >>> PAGE_BITS)];
      return page != null && (page[(int) (id >>> 6) & (PAGE_WORDS - 1)] & (1L << id)) != 0;
    }
    return large.contains(id);
  }

  /**
   * Adds an id and says whether it was there before (one lookup instead of two, and no branch on
   * the answer: whether an id was seen is as good as random to the processor).
   *
   * @return 1 when the id had been added before, else 0
   */
  long testAndAdd(long id) {
    if (id >= 0 && id < BITSET_LIMIT) {
      int p = (int) (id >>> PAGE_BITS);
      long[] page = pages[p];
      if (page == null) {
        page = new long[PAGE_WORDS];
        pages[p] = page;
      }
      int w = (int) (id >>> 6) & (PAGE_WORDS - 1);
      long word = page[w];
      long seen = (word >>> id) & 1; // shifts use the low 6 bits: the id's bit in its word
      page[w] = word | (1L << id);
      bitsetSize += 1 - seen;
      return seen;
    }
    if (large.contains(id)) {
      return 1;
    }
    large.add(id);
    return 0;
  }

  /** Adds an id. */
  void add(long id) {
    testAndAdd(id);
  }

  /** Distinct ids added. */
  long size() {
    return bitsetSize + large.size();
  }
}
