package dev.benchplan.trace;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The parsed lines of one chunk, in order, held column by column so another thread can parse while
 * the statistics (which depend on file order: line numbers, prefix reuse, timestamp order) are
 * still accumulated by one thread, by {@link #replay replaying} the lines. Reused chunk after
 * chunk; grows to the largest chunk's needs.
 */
final class RowBatch {
  private static final int HAS_TIMESTAMP = 1;
  private static final int TIMESTAMP_VALID = 1 << 1;
  private static final int HAS_INPUT = 1 << 2;
  private static final int INPUT_VALID = 1 << 3;
  private static final int HAS_OUTPUT = 1 << 4;
  private static final int OUTPUT_VALID = 1 << 5;
  private static final int HAS_TEXT = 1 << 6;
  private static final int HAS_HASH_IDS = 1 << 7;
  private static final int HASH_IDS_VALID = 1 << 8;

  private int count;
  private int[] outcomes = new int[1024];
  private int[] flags = new int[1024];
  private long[] timestamps = new long[1024];
  private long[] inputs = new long[1024];
  private long[] outputs = new long[1024];

  /** Where each line's ids end in {@link #ids} (they start where the previous line's end). */
  private int[] idEnds = new int[1024];

  private long[] ids = new long[1 << 16];
  private int idCount;

  /** Messages of bad lines and field problems, in line order; lines index them by count. */
  private int[] problemEnds = new int[1024];

  private String[] problemFields = new String[16];
  private String[] messages = new String[16];
  private int problemCount;

  /**
   * Whether the parser's next row writes its ids straight into {@link #ids} (see {@link #target}).
   */
  private boolean targeted;

  void clear() {
    count = 0;
    idCount = 0;
    problemCount = 0;
  }

  /**
   * Points the parser's next row at this batch's id array, after the ids so far, so {@link #add}
   * keeps them where they are instead of copying them (the parser grows the array when it must,
   * keeping what is before).
   */
  void target(MooncakeLineParser parser) {
    RowFields r = parser.row();
    r.ids = ids;
    r.idStart = idCount;
    targeted = true;
  }

  int size() {
    return count;
  }

  /** Appends the parser's last line. */
  void add(MooncakeLineParser parser) {
    if (count == outcomes.length) {
      int n = count * 2;
      outcomes = Arrays.copyOf(outcomes, n);
      flags = Arrays.copyOf(flags, n);
      timestamps = Arrays.copyOf(timestamps, n);
      inputs = Arrays.copyOf(inputs, n);
      outputs = Arrays.copyOf(outputs, n);
      idEnds = Arrays.copyOf(idEnds, n);
      problemEnds = Arrays.copyOf(problemEnds, n);
    }
    int i = count++;
    int outcome = parser.outcome();
    outcomes[i] = outcome;
    if (outcome == MooncakeLineParser.ROW) {
      RowFields r = parser.row();
      flags[i] =
          (r.hasTimestamp ? HAS_TIMESTAMP : 0)
              | (r.timestampValid ? TIMESTAMP_VALID : 0)
              | (r.hasInput ? HAS_INPUT : 0)
              | (r.inputValid ? INPUT_VALID : 0)
              | (r.hasOutput ? HAS_OUTPUT : 0)
              | (r.outputValid ? OUTPUT_VALID : 0)
              | (r.hasText ? HAS_TEXT : 0)
              | (r.hasHashIds ? HAS_HASH_IDS : 0)
              | (r.hashIdsValid ? HASH_IDS_VALID : 0);
      timestamps[i] = r.timestamp;
      inputs[i] = r.input;
      outputs[i] = r.output;
      int n = r.idCount;
      if (targeted) { // already in place: r.ids is this batch's array, or its grown copy
        ids = r.ids;
      } else {
        if (idCount + n > ids.length) {
          ids = Arrays.copyOf(ids, Math.max(ids.length * 2, idCount + n));
        }
        System.arraycopy(r.ids, r.idStart, ids, idCount, n);
      }
      idCount += n;
      for (int k = 0; k < r.problemCount; k++) {
        problem(r.problemFields[k], r.problemMessages[k]);
      }
    } else if (outcome == MooncakeLineParser.BAD) {
      problem(null, parser.badMessage());
    }
    idEnds[i] = idCount;
    problemEnds[i] = problemCount;
    targeted = false;
  }

  private void problem(@Nullable String field, @Nullable String message) {
    if (problemCount == messages.length) {
      problemFields = Arrays.copyOf(problemFields, problemCount * 2);
      messages = Arrays.copyOf(messages, problemCount * 2);
    }
    problemFields[problemCount] = field;
    messages[problemCount] = message;
    problemCount++;
  }

  /**
   * Feeds every line, in order, to the statistics, through {@code row} (overwritten; its ids point
   * into this batch, without a copy).
   */
  void replay(TraceStatistics stats, RowFields row) {
    long[] ids = this.ids;
    int idStart = 0;
    int problemStart = 0;
    for (int i = 0; i < count; i++) {
      int outcome = outcomes[i];
      String bad = null;
      if (outcome == MooncakeLineParser.ROW) {
        int f = flags[i];
        row.hasTimestamp = (f & HAS_TIMESTAMP) != 0;
        row.timestampValid = (f & TIMESTAMP_VALID) != 0;
        row.hasInput = (f & HAS_INPUT) != 0;
        row.inputValid = (f & INPUT_VALID) != 0;
        row.hasOutput = (f & HAS_OUTPUT) != 0;
        row.outputValid = (f & OUTPUT_VALID) != 0;
        row.hasText = (f & HAS_TEXT) != 0;
        row.hasHashIds = (f & HAS_HASH_IDS) != 0;
        row.hashIdsValid = (f & HASH_IDS_VALID) != 0;
        row.timestamp = timestamps[i];
        row.input = inputs[i];
        row.output = outputs[i];
        row.ids = ids;
        row.idStart = idStart;
        row.idCount = idEnds[i] - idStart;
        row.problemCount = 0;
        for (int k = problemStart; k < problemEnds[i]; k++) {
          row.addProblem(problemFields[k], messages[k]);
        }
      } else if (outcome == MooncakeLineParser.BAD) {
        bad = messages[problemStart];
      }
      idStart = idEnds[i];
      problemStart = problemEnds[i];
      stats.accept(outcome, row, bad);
    }
  }
}
