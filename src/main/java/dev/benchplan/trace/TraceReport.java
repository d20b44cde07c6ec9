package dev.benchplan.trace;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The result of one streaming pass over a Mooncake-format trace: identity (path, SHA-256, bytes),
 * shape (rows, timestamps, length distributions, prefix reuse, context overruns) and every problem
 * found. {@link #toJson()} is the {@code trace inspect --format json} document.
 *
 * @param path absolute path of the trace
 * @param sha256 SHA-256 of the file's exact bytes, lowercase hex
 * @param bytes file size in bytes
 * @param rows non-blank lines
 * @param blankLines lines holding only whitespace
 * @param timestampMs timestamp statistics
 * @param inputLength input_length distribution (rows with a valid input_length)
 * @param outputLength output_length distribution (rows with a valid output_length)
 * @param hashIds hash-block statistics
 * @param context context-limit overruns
 * @param problemsTotal every problem found, also those beyond the listed ones
 * @param problems the first {@link #MAX_LISTED_PROBLEMS} problems, by line
 * @param window rows in the replay window, or null when no window was asked for
 */
public record TraceReport(
    String path,
    String sha256,
    long bytes,
    long rows,
    long blankLines,
    TimestampSummary timestampMs,
    LengthSummary inputLength,
    LengthSummary outputLength,
    HashBlockSummary hashIds,
    ContextSummary context,
    long problemsTotal,
    List<TraceProblem> problems,
    @Nullable WindowSummary window) {

  /** At most this many problems are listed; {@code problems_total} counts them all. */
  public static final int MAX_LISTED_PROBLEMS = 100;

  public TraceReport {
    Objects.requireNonNull(path, "path");
    if (!Sha256.isSha256(sha256)) {
      throw new IllegalArgumentException("sha256 must be 64 hex characters, got " + sha256);
    }
    Objects.requireNonNull(timestampMs, "timestampMs");
    Objects.requireNonNull(inputLength, "inputLength");
    Objects.requireNonNull(outputLength, "outputLength");
    Objects.requireNonNull(hashIds, "hashIds");
    Objects.requireNonNull(context, "context");
    problems = List.copyOf(problems);
    if (problems.size() > MAX_LISTED_PROBLEMS || problemsTotal < problems.size()) {
      throw new IllegalArgumentException(
          "problems: " + problems.size() + " listed of " + problemsTotal + " total");
    }
    if (bytes < 0 || rows < 0 || blankLines < 0) {
      throw new IllegalArgumentException("negative count");
    }
  }

  /** True when the trace has no problem at all. */
  public boolean valid() {
    return problemsTotal == 0;
  }

  /** The report as the JSON document {@code trace inspect --format json} prints (keys in order). */
  public ObjectNode toJson() {
    return Json.JSON.valueToTree(toMap());
  }

  /**
   * The same document as text, laid out as Jackson's pretty printer writes {@link #toJson()}, but
   * without loading Jackson (so {@code trace inspect} starts and ends fast).
   */
  public String toJsonText() {
    return PrettyJson.write(toMap());
  }

  /** The JSON document as ordered maps and lists: the one place that names its keys. */
  private Map<String, Object> toMap() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("path", path);
    root.put("sha256", sha256);
    root.put("bytes", bytes);
    root.put("rows", rows);
    root.put("blank_lines", blankLines);
    root.put("timestamp_ms", timestampMs.toMap());
    root.put("input_length", inputLength.toMap());
    root.put("output_length", outputLength.toMap());
    root.put("hash_ids", hashIds.toMap());
    root.put("context", context.toMap());
    if (window != null) {
      root.put("window", window.toMap());
    }
    root.put("valid", valid());
    root.put("problems_total", problemsTotal);
    List<Object> list = new ArrayList<>(problems.size());
    for (TraceProblem p : problems) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("line", p.line());
      o.put("field", p.field());
      o.put("message", p.message());
      list.add(o);
    }
    root.put("problems", list);
    return root;
  }

  /**
   * Timestamp statistics over rows with a valid timestamp.
   *
   * @param presentRows rows with a valid integer timestamp
   * @param min smallest timestamp (null when none)
   * @param max largest timestamp (null when none)
   * @param span max - min (null when none)
   * @param nonMonotonicRows rows whose timestamp is smaller than the previous row's (a warning)
   */
  public record TimestampSummary(
      long presentRows,
      @Nullable Long min,
      @Nullable Long max,
      @Nullable Long span,
      long nonMonotonicRows) {
    public TimestampSummary {
      if ((min == null) != (presentRows == 0)) {
        throw new IllegalArgumentException("min must be present exactly when presentRows > 0");
      }
    }

    Map<String, Object> toMap() {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("present_rows", presentRows);
      o.put("min", min);
      o.put("max", max);
      o.put("span", span);
      o.put("non_monotonic_rows", nonMonotonicRows);
      return o;
    }
  }

  /**
   * A token-length distribution; every statistic is null when {@code count} is 0. Percentiles are
   * nearest-rank (the value at 1-based rank ceil(p/100 * n) of the sorted values); the mean is
   * exact.
   */
  public record LengthSummary(
      long count,
      @Nullable Long min,
      @Nullable Long max,
      @Nullable Double mean,
      @Nullable Long p50,
      @Nullable Long p90,
      @Nullable Long p95,
      @Nullable Long p99) {
    public LengthSummary {
      if ((min == null) != (count == 0)) {
        throw new IllegalArgumentException("min must be present exactly when count > 0");
      }
    }

    Map<String, Object> toMap() {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("count", count);
      o.put("min", min);
      o.put("max", max);
      o.put("mean", mean);
      o.put("p50", p50);
      o.put("p90", p90);
      o.put("p95", p95);
      o.put("p99", p99);
      return o;
    }
  }

  /**
   * Hash-block (prefix reuse) statistics.
   *
   * @param blockSize tokens per block
   * @param rowsWithHashIds rows with a valid hash_ids list
   * @param uniqueBlocks distinct hash ids in the file
   * @param blockRuleViolations rows whose hash_ids count does not fit input_length
   * @param infiniteCacheHitRate hit tokens / all tokens of rows with hash ids, walking rows in file
   *     order with an unbounded cache (a block hits when its id appeared in an earlier row); null
   *     when no row has hash ids
   * @param hashedTokens the denominator: input tokens of rows with hash ids
   * @param hitTokens the numerator
   */
  public record HashBlockSummary(
      int blockSize,
      long rowsWithHashIds,
      long uniqueBlocks,
      long blockRuleViolations,
      @Nullable Double infiniteCacheHitRate,
      long hashedTokens,
      long hitTokens) {
    public HashBlockSummary {
      if (hitTokens > hashedTokens) {
        throw new IllegalArgumentException("hit tokens exceed hashed tokens");
      }
    }

    Map<String, Object> toMap() {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("block_size", blockSize);
      o.put("rows_with_hash_ids", rowsWithHashIds);
      o.put("unique_blocks", uniqueBlocks);
      o.put("block_rule_violations", blockRuleViolations);
      o.put("infinite_cache_hit_rate", infiniteCacheHitRate);
      o.put("hashed_tokens", hashedTokens);
      o.put("hit_tokens", hitTokens);
      return o;
    }
  }

  /**
   * Rows over the context limit (input_length + output_length > limit). Never dropped or clipped,
   * and not a problem by themselves.
   *
   * @param limit the limit in tokens, or null when none was given
   * @param rowsOverLimit rows over it
   * @param firstOverLimitLines line numbers of the first (at most 10) such rows
   */
  public record ContextSummary(
      @Nullable Long limit, long rowsOverLimit, List<Long> firstOverLimitLines) {
    /** At most this many over-limit line numbers are listed. */
    public static final int MAX_LISTED_LINES = 10;

    public ContextSummary {
      firstOverLimitLines = List.copyOf(firstOverLimitLines);
      if (firstOverLimitLines.size() > MAX_LISTED_LINES
          || firstOverLimitLines.size() > rowsOverLimit) {
        throw new IllegalArgumentException("too many over-limit lines listed");
      }
    }

    Map<String, Object> toMap() {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("limit", limit);
      o.put("rows_over_limit", rowsOverLimit);
      o.put("first_over_limit_lines", firstOverLimitLines);
      return o;
    }
  }

  /**
   * The rows a replay of an explicit window sends: those whose timestamp lies in the window
   * (inclusive bounds; null = open), with the same figures the report gives for the whole trace.
   *
   * @param startMs window start, or null
   * @param endMs window end, or null
   * @param rows rows with a valid timestamp inside the window
   * @param firstMs the smallest timestamp in the window, or null when no row is in it
   * @param lastMs the largest timestamp in the window, or null when no row is in it
   * @param inputLength input_length distribution of the window's rows
   * @param outputLength output_length distribution of the window's rows
   * @param context the window's rows over the context limit
   */
  public record WindowSummary(
      @Nullable Long startMs,
      @Nullable Long endMs,
      long rows,
      @Nullable Long firstMs,
      @Nullable Long lastMs,
      LengthSummary inputLength,
      LengthSummary outputLength,
      ContextSummary context) {
    public WindowSummary {
      Objects.requireNonNull(inputLength, "inputLength");
      Objects.requireNonNull(outputLength, "outputLength");
      Objects.requireNonNull(context, "context");
      if ((firstMs == null) != (rows == 0) || context.rowsOverLimit() > rows) {
        throw new IllegalArgumentException("window figures disagree with its " + rows + " rows");
      }
    }

    /** Milliseconds from the window's first to its last row (0 for one row), or null. */
    public @Nullable Long spanMs() {
      return firstMs == null || lastMs == null ? null : lastMs - firstMs;
    }

    /**
     * The mean arrival rate the replay sends, rows per second over the window's span; null when the
     * span is 0.
     */
    public @Nullable Double requestsPerSecond() {
      Long span = spanMs();
      return span == null || span == 0 ? null : rows * 1000.0 / span;
    }

    Map<String, Object> toMap() {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("start_ms", startMs);
      o.put("end_ms", endMs);
      o.put("rows", rows);
      o.put("first_ms", firstMs);
      o.put("last_ms", lastMs);
      o.put("span_ms", spanMs());
      o.put("requests_per_s", requestsPerSecond());
      o.put("input_length", inputLength.toMap());
      o.put("output_length", outputLength.toMap());
      o.put("context", context.toMap());
      return o;
    }
  }
}
