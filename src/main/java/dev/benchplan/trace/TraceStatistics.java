package dev.benchplan.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Accumulates what one pass over a trace learns, row by row in file order, and applies the row
 * rules (lengths, block rule, timestamp presence, context limit). Memory is independent of the
 * number of rows except for the length histograms and the set of distinct block ids.
 */
final class TraceStatistics {
  private final TraceScanOptions options;
  private final int blockSize;
  private final long contextLimit;
  private final long windowStart;
  private final long windowEnd;

  private final ProblemLog problems = new ProblemLog();
  private final LengthHistogram inputLengths = new LengthHistogram();
  private final LengthHistogram outputLengths = new LengthHistogram();
  private final BlockIdSet blocks = new BlockIdSet();

  private long lines;
  private long rows;
  private long blankLines;

  private long timestampRows;
  private long timestampMin = Long.MAX_VALUE;
  private long timestampMax = Long.MIN_VALUE;
  private long previousTimestamp;
  private long nonMonotonicRows;

  /** The replay window's own figures (null without a window): the rows the replay sends. */
  private final @Nullable WindowTally window;

  /** Rows with / without a timestamp key, and the first lines of each (for the mixed-rows rule). */
  private long rowsWithTimestampKey;

  private long rowsWithoutTimestampKey;
  private final long[] firstLinesWithTimestamp = new long[TraceReport.MAX_LISTED_PROBLEMS];
  private final long[] firstLinesWithoutTimestamp = new long[TraceReport.MAX_LISTED_PROBLEMS];

  private long rowsWithHashIds;
  private long blockRuleViolations;
  private long hashedTokens;
  private long hitTokens;
  private boolean[] rowHits = new boolean[256];

  private long rowsOverContext;
  private final List<Long> firstOverContextLines = new ArrayList<>();

  TraceStatistics(TraceScanOptions options) {
    this.options = options;
    this.blockSize = options.blockSize();
    this.contextLimit = options.maxContext() == null ? Long.MAX_VALUE : options.maxContext();
    this.windowStart = options.windowStartMs() == null ? Long.MIN_VALUE : options.windowStartMs();
    this.windowEnd = options.windowEndMs() == null ? Long.MAX_VALUE : options.windowEndMs();
    this.window = options.hasWindow() ? new WindowTally() : null;
  }

  long rows() {
    return rows;
  }

  long lines() {
    return lines;
  }

  /** Records the outcome of the parser's last line. */
  void accept(MooncakeLineParser parser) {
    accept(parser.outcome(), parser.row(), parser.badMessage());
  }

  /** Records the next line: its outcome, its fields (a row) or why it is not JSON (bad). */
  void accept(int outcome, RowFields row, @Nullable String badMessage) {
    long line = ++lines;
    switch (outcome) {
      case MooncakeLineParser.BLANK -> blankLines++;
      case MooncakeLineParser.ROW -> acceptRow(row, line);
      default -> {
        rows++;
        problems.add(
            line,
            null,
            Objects.requireNonNull(badMessage, "the parser names what is wrong with a bad line"));
      }
    }
  }

  private void acceptRow(RowFields r, long line) {
    rows++;
    for (int i = 0; i < r.problemCount; i++) {
      problems.add(line, r.problemFields[i], r.problemMessages[i]);
    }
    acceptTimestamp(r, line);

    if (r.inputValid) {
      inputLengths.add(r.input);
      if (r.input < 1 && !r.hasText) {
        problem(line, "input_length", "expected at least 1 (or a text_input), got " + r.input);
      }
    } else if (!r.hasInput && !r.hasText) {
      problem(line, "input_length", "missing: a row needs input_length or text_input");
    }
    if (r.outputValid) {
      outputLengths.add(r.output);
      if (r.output < 1) {
        problem(line, "output_length", "expected at least 1, got " + r.output);
      }
    }
    if (r.hasHashIds) {
      acceptHashIds(r, line);
    }
    boolean over = false;
    if (r.inputValid && (r.outputValid || !r.hasOutput)) {
      long total = r.input + (r.outputValid ? r.output : 0);
      if (total > contextLimit) {
        over = true;
        rowsOverContext++;
        if (firstOverContextLines.size() < TraceReport.ContextSummary.MAX_LISTED_LINES) {
          firstOverContextLines.add(line);
        }
      }
    }
    if (window != null
        && r.timestampValid
        && r.timestamp >= windowStart
        && r.timestamp <= windowEnd) {
      window.accept(r, line, over);
    }
  }

  private void acceptTimestamp(RowFields r, long line) {
    if (r.hasTimestamp) {
      if (rowsWithTimestampKey < firstLinesWithTimestamp.length) {
        firstLinesWithTimestamp[(int) rowsWithTimestampKey] = line;
      }
      rowsWithTimestampKey++;
    } else {
      if (rowsWithoutTimestampKey < firstLinesWithoutTimestamp.length) {
        firstLinesWithoutTimestamp[(int) rowsWithoutTimestampKey] = line;
      }
      rowsWithoutTimestampKey++;
    }
    if (!r.timestampValid) {
      return;
    }
    long t = r.timestamp;
    if (timestampRows > 0 && t < previousTimestamp) {
      nonMonotonicRows++;
    }
    previousTimestamp = t;
    timestampRows++;
    if (t < timestampMin) {
      timestampMin = t;
    }
    if (t > timestampMax) {
      timestampMax = t;
    }
  }

  private void acceptHashIds(RowFields r, long line) {
    if (!r.hasInput) {
      problem(line, "hash_ids", "present without input_length (blocks are sized from it)");
    }
    if (!r.hashIdsValid) {
      return;
    }
    rowsWithHashIds++;
    int n = r.idCount;
    long[] ids = r.ids;
    int from = r.idStart;
    if (r.inputValid) {
      long length = r.input;
      long last = length - (long) (n - 1) * blockSize;
      if (last < 1 || last > blockSize) {
        blockRuleViolations++;
        if (problems.listing()) {
          long expected = (length + blockSize - 1) / blockSize;
          problems.add(
              line,
              "hash_ids",
              String.format(
                  "%d hash ids for input_length %d leave %d tokens in the last block; expected 1..%d"
                      + " (block size %d), i.e. %d hash ids",
                  n, length, last, blockSize, blockSize, expected));
        } else {
          problems.countOnly();
        }
      }
      hashedTokens += length;
      hitTokens +=
          strictlyIncreasing(ids, from, n)
              ? hitsDistinct(ids, from, n, length)
              : hits(ids, from, n, length);
    } else {
      for (int j = 0; j < n; j++) {
        blocks.add(ids[from + j]);
      }
    }
  }

  /**
   * Hit tokens of a row whose ids are all different (the usual case: Mooncake rows list increasing
   * ids): each id can only have been seen in an earlier row, so one test-and-add each.
   */
  private long hitsDistinct(long[] ids, int from, int n, long length) {
    BlockIdSet blocks = this.blocks;
    long hits = 0;
    for (int j = 0; j < n; j++) {
      hits += blocks.testAndAdd(ids[from + j]) * blockTokens(length, j); // no branch on the hit
    }
    return hits;
  }

  /**
   * Hit tokens of any row: a block hits when its id appeared in an EARLIER row, so all lookups come
   * before the row's own ids are added (a repeat inside the row is not a hit).
   */
  private long hits(long[] ids, int from, int n, long length) {
    if (rowHits.length < n) {
      rowHits = new boolean[Math.max(n, rowHits.length * 2)];
    }
    for (int j = 0; j < n; j++) {
      rowHits[j] = blocks.contains(ids[from + j]);
    }
    long hits = 0;
    for (int j = 0; j < n; j++) {
      if (rowHits[j]) {
        hits += blockTokens(length, j);
      } else {
        blocks.add(ids[from + j]);
      }
    }
    return hits;
  }

  /** Tokens in block j of a row of {@code length} tokens: min(block, rest), never negative. */
  private long blockTokens(long length, int j) {
    return Math.max(0, Math.min(blockSize, length - (long) j * blockSize));
  }

  private static boolean strictlyIncreasing(long[] ids, int from, int n) {
    for (int j = from + 1; j < from + n; j++) {
      if (ids[j] <= ids[j - 1]) {
        return false;
      }
    }
    return true;
  }

  private void problem(long line, String field, String message) {
    problems.add(line, field, message);
  }

  /** The report, once every line was accepted. */
  TraceReport toReport(String path, String sha256, long bytes) {
    List<TraceProblem> listed = new ArrayList<>(problems.listed());
    long total = problems.total();
    if (bytes == 0) {
      total++;
      listed.add(
          0, new TraceProblem(1, null, "the file is empty: expected one JSON object per line"));
    } else if (rows == 0) {
      total++;
      listed.add(
          0,
          new TraceProblem(
              1,
              null,
              "no rows: all "
                  + blankLines
                  + " lines are blank; expected one JSON object per line"));
    }
    if (rowsWithTimestampKey > 0 && rowsWithoutTimestampKey > 0) {
      total += mixedTimestampProblems(listed);
    }
    if (listed.size() > TraceReport.MAX_LISTED_PROBLEMS) {
      listed = listed.subList(0, TraceReport.MAX_LISTED_PROBLEMS);
    }
    TraceReport.TimestampSummary timestamps =
        timestampRows == 0
            ? new TraceReport.TimestampSummary(0, null, null, null, nonMonotonicRows)
            : new TraceReport.TimestampSummary(
                timestampRows,
                timestampMin,
                timestampMax,
                timestampMax - timestampMin,
                nonMonotonicRows);
    TraceReport.HashBlockSummary hash =
        new TraceReport.HashBlockSummary(
            blockSize,
            rowsWithHashIds,
            blocks.size(),
            blockRuleViolations,
            hashedTokens == 0 ? null : (double) hitTokens / hashedTokens,
            hashedTokens,
            hitTokens);
    TraceReport.ContextSummary context =
        new TraceReport.ContextSummary(
            options.maxContext(), rowsOverContext, firstOverContextLines);
    TraceReport.WindowSummary window = this.window == null ? null : this.window.toSummary(options);
    return new TraceReport(
        path,
        sha256,
        bytes,
        rows,
        blankLines,
        timestamps,
        inputLengths.toSummary(),
        outputLengths.toSummary(),
        hash,
        context,
        total,
        listed,
        window);
  }

  /**
   * Timestamps on some rows but not others: the minority is wrong (ties blame the rows without
   * one). Merges their problems into {@code listed} by line; returns how many there are.
   */
  private long mixedTimestampProblems(List<TraceProblem> listed) {
    boolean blameMissing = rowsWithoutTimestampKey <= rowsWithTimestampKey;
    long count = blameMissing ? rowsWithoutTimestampKey : rowsWithTimestampKey;
    long[] lines = blameMissing ? firstLinesWithoutTimestamp : firstLinesWithTimestamp;
    String message =
        blameMissing
            ? "missing, but "
                + rowsWithTimestampKey
                + " other rows have a timestamp; expected"
                + " it on every row or on none"
            : "present, but "
                + rowsWithoutTimestampKey
                + " other rows have none; expected it on"
                + " every row or on none";
    List<TraceProblem> merged = new ArrayList<>(listed.size() + lines.length);
    int i = 0;
    for (int k = 0; k < Math.min(count, lines.length); k++) {
      while (i < listed.size() && listed.get(i).line() <= lines[k]) {
        merged.add(listed.get(i++));
      }
      merged.add(new TraceProblem(lines[k], "timestamp", message));
    }
    while (i < listed.size()) {
      merged.add(listed.get(i++));
    }
    listed.clear();
    listed.addAll(merged);
    return count;
  }

  /** What the rows inside the replay window add up to: the same figures as the whole trace's. */
  private static final class WindowTally {
    private long rows;
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;
    private final LengthHistogram input = new LengthHistogram();
    private final LengthHistogram output = new LengthHistogram();
    private long overContext;
    private final List<Long> firstOverContextLines = new ArrayList<>();

    void accept(RowFields r, long line, boolean overContext) {
      rows++;
      first = Math.min(first, r.timestamp);
      last = Math.max(last, r.timestamp);
      if (r.inputValid) {
        input.add(r.input);
      }
      if (r.outputValid) {
        output.add(r.output);
      }
      if (overContext) {
        this.overContext++;
        if (firstOverContextLines.size() < TraceReport.ContextSummary.MAX_LISTED_LINES) {
          firstOverContextLines.add(line);
        }
      }
    }

    TraceReport.WindowSummary toSummary(TraceScanOptions options) {
      return new TraceReport.WindowSummary(
          options.windowStartMs(),
          options.windowEndMs(),
          rows,
          rows == 0 ? null : first,
          rows == 0 ? null : last,
          input.toSummary(),
          output.toSummary(),
          new TraceReport.ContextSummary(options.maxContext(), overContext, firstOverContextLines));
    }
  }
}
