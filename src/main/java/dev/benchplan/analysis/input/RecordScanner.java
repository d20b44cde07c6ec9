package dev.benchplan.analysis.input;

import dev.benchplan.aiperf.export.MetricUnit;
import dev.benchplan.diagnostics.RequestTimeline;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.io.LineChunkReader;
import dev.benchplan.json.Sha256;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One streaming pass over AIPerf's per-request records (a token stream per line: no tree, and the
 * long inter_chunk_latency arrays are checked value by value without being kept). Never throws on
 * bad content: a malformed line, NaN, a duplicate id or a negative latency is counted and named for
 * the audit (the raw file is evidence either way); only an unreadable file is an error.
 */
public final class RecordScanner {
  /**
   * The per-request metrics kept (durations in ms, rates in tokens/sec/user, lengths in tokens).
   */
  public static final List<String> TRACKED =
      List.of(
          "time_to_first_token",
          "inter_token_latency",
          "request_latency",
          "time_to_second_token",
          "output_token_throughput_per_user",
          "output_sequence_length",
          "input_sequence_length");

  /**
   * Jackson, for what the byte-level parser does not take; built on first use (building a mapper
   * costs tens of ms at start-up, on the scan's own thread, and a clean file never needs it).
   */
  private static final class Lenient {
    // NaN and Infinity are read, not rejected: the audit must see and name them
    static final JsonMapper MAPPER =
        JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();
  }

  /** Index of time_to_first_token in {@link #TRACKED}. */
  static final int TTFT = 0;

  static final String NOT_INTEGERS = "request_start_ns/request_end_ns missing or not integers";

  private RecordScanner() {}

  /**
   * Scans a records file: one byte-stream parser over the whole file (fast), and when anything in
   * it is not one JSON object per line, a second pass line by line that names each bad line.
   */
  public static RecordScan scan(Path file) {
    RecordScan fast = bytes(file, CHUNK);
    if (fast == null) {
      fast = streamed(file);
    }
    return fast != null ? fast : lineByLine(file);
  }

  /** Chunk size of the fast pass (the reader keeps at most {@link #CHUNKS} of them). */
  static final int CHUNK = 4 << 20;

  static final int CHUNKS = 3;

  /**
   * The fast pass: a byte-level parser per line ({@link RecordLineParser}), with the file read and
   * hashed on a second thread; a line the parser does not take is read by Jackson, as {@link
   * #streamed} reads it. Null when a line is not one record, or Jackson would count lines
   * differently (a lone carriage return): then {@link #streamed} decides, as before.
   */
  static @Nullable RecordScan bytes(Path file, int chunkSize) {
    State s = new State();
    RecordLineParser parser = new RecordLineParser();
    long lineNo = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        LineChunkReader<Void> reader =
            new LineChunkReader<>(
                channel,
                chunkSize,
                CHUNKS,
                RecordLineParser.PADDING,
                Integer.MAX_VALUE,
                null,
                LineChunkReader.Split.CALLER_ONLY,
                "benchplan-records-reader")) {
      long fileSize = channel.size();
      boolean first = true;
      LineChunkReader.Chunk<Void> c;
      while ((c = reader.next()) != null) {
        byte[] b = c.data();
        int end = c.end();
        int pos = 0;
        while (pos < end) {
          int nl = parser.parse(b, pos);
          lineNo++;
          if (nl >= 0) {
            if (!parser.blank()) {
              parser.commit(s, lineNo);
            }
          } else {
            nl = indexOf(b, pos, end, (byte) '\n');
            if (!s.jacksonLine(b, pos, nl, lineNo)) {
              return null;
            }
          }
          pos = nl + 1;
        }
        if (first && end > 0 && end < fileSize) {
          // the first chunk's lines per byte tell about how many records the file holds; a quarter
          // more, so that the columns do not grow near the end after all (a growth the compiled
          // scan has never seen sends it back to the interpreter and to the compiler again)
          s.expect((long) (1.25 * lineNo * fileSize / end) + 1024);
        }
        first = false;
        reader.release(c);
      }
      return s.result(file, reader.sha256());
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": cannot read per-request records: " + e.getMessage(),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": reading per-request records was interrupted", e);
    }
  }

  private static int indexOf(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  static @Nullable RecordScan streamed(Path file) {
    MessageDigest digest = Sha256.newDigest();
    State s = new State();
    try (InputStream raw = Files.newInputStream(file);
        DigestInputStream in =
            new DigestInputStream(new java.io.BufferedInputStream(raw, 1 << 16), digest);
        JsonParser p = Lenient.MAPPER.createParser(in)) {
      long lastLine = 0;
      JsonToken t;
      // the parser reads to the end of the file (the digest sees every byte) before nextToken is
      // null
      while ((t = p.nextToken()) != null) {
        long lineNo = p.currentTokenLocation().getLineNr();
        if (t != JsonToken.START_OBJECT || lineNo <= lastLine) {
          return null; // not one object per line: the line-by-line pass reports it
        }
        if (!s.record(p, lineNo)) {
          return null;
        }
        lastLine = p.currentTokenLocation().getLineNr();
      }
    } catch (JacksonException e) {
      return null;
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": cannot read per-request records: " + e.getMessage(),
          e);
    }
    return s.result(file, digest);
  }

  static RecordScan lineByLine(Path file) {
    MessageDigest digest = Sha256.newDigest();
    State s = new State();
    try (InputStream raw = Files.newInputStream(file);
        DigestInputStream in = new DigestInputStream(raw, digest);
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
      String line;
      long lineNo = 0;
      while ((line = reader.readLine()) != null) {
        lineNo++;
        if (!line.isBlank()) {
          s.line(line, lineNo);
        }
      }
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": cannot read per-request records: " + e.getMessage(),
          e);
    }
    return s.result(file, digest);
  }

  static final class State {
    long lines;
    long malformed;
    @Nullable String firstMalformed;
    long profiling;
    long warmup;
    long cancelled;
    long errors;
    final Map<String, Long> errorKinds = new HashMap<>();
    final IdSet ids = new IdSet();
    long duplicates;
    @Nullable String firstDuplicate;
    long nonFinite;
    @Nullable String firstNonFinite;
    long negative;
    @Nullable String firstNegative;
    long badTimestamps;
    @Nullable String firstBadTimestamp;
    final Map<String, String> units = new HashMap<>();
    final Map<String, Double> factors = new HashMap<>();
    // factors by TRACKED index (NaN: none), rebuilt after a factor is added: no map look-up per
    // value
    private double @Nullable [] factorByIndex;
    final List<String> unitProblems = new ArrayList<>();
    // the earliest start and latest end, once `timed` (primitives: no Long per record)
    boolean timed;
    long minStart;
    long maxEnd;
    final Map<String, DoubleList> values = new LinkedHashMap<>();
    // every measured request with usable timestamps, for the diagnostics (stall, client bound)
    final RequestTimeline.Builder timeline = new RequestTimeline.Builder();

    // the lists of `values`, in TRACKED order
    private final DoubleList[] lists = new DoubleList[TRACKED.size()];

    State() {
      for (int i = 0; i < lists.length; i++) {
        lists[i] = new DoubleList();
        values.put(TRACKED.get(i), lists[i]);
      }
    }

    /** The most records {@link #expect} makes room for (beyond, the columns grow as they fill). */
    static final int EXPECT_AT_MOST = 1 << 20;

    /**
     * Makes room for about {@code records} records in the columns, the timeline and the set of ids
     * (at most {@link #EXPECT_AT_MOST}): they are then not copied at each doubling.
     */
    void expect(long records) {
      int n = (int) Math.min(records, EXPECT_AT_MOST);
      if (n <= 0) {
        return;
      }
      for (DoubleList l : lists) {
        l.ensureCapacity(n);
      }
      timeline.ensureCapacity(n);
      ids.expect(n);
    }

    RecordScan result(Path file, MessageDigest digest) {
      return result(file, Sha256.hex(digest));
    }

    RecordScan result(Path file, String sha256) {
      return new RecordScan(
          file.toString(),
          sha256,
          lines,
          malformed,
          firstMalformed,
          profiling,
          warmup,
          cancelled,
          errors,
          new TreeMap<>(errorKinds),
          duplicates,
          firstDuplicate,
          nonFinite,
          firstNonFinite,
          negative,
          firstNegative,
          badTimestamps,
          firstBadTimestamp,
          new TreeMap<>(units),
          List.copyOf(unitProblems),
          timed ? Long.valueOf(minStart) : null,
          timed ? Long.valueOf(maxEnd) : null,
          values,
          // every measured request in the timeline: its successful TTFTs are exactly the TTFT
          // values kept (same records, same unit factor), so one sort serves both
          timeline.build(badTimestamps == 0 ? lists[TTFT]::sortedFinite : null));
    }

    /**
     * A line the byte-level parser did not take, read by Jackson as {@link #streamed} would read
     * it; false when it is not exactly one record, or has a byte that would make Jackson count
     * lines differently (a carriage return not ending the line) or that is never JSON (another
     * control character).
     */
    boolean jacksonLine(byte[] b, int from, int nl, long lineNo) {
      int to = nl > from && b[nl - 1] == '\r' ? nl - 1 : nl;
      int first = -1;
      for (int i = from; i < to; i++) {
        byte c = b[i];
        if (c >= 0 && c < 0x20 && c != '\t') {
          return false;
        }
        if (first < 0 && c != ' ' && c != '\t') {
          first = i;
        }
      }
      if (first < 0 || b[first] != '{') {
        return false;
      }
      try (JsonParser p = Lenient.MAPPER.createParser(b, from, to - from)) {
        return p.nextToken() == JsonToken.START_OBJECT
            && record(p, lineNo)
            && p.nextToken() == null;
      } catch (JacksonException e) {
        return false;
      }
    }

    void line(String text, long lineNo) {
      try (JsonParser p = Lenient.MAPPER.createParser(text)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          lines++;
          bad(lineNo, "expected an object with \"metadata\", \"metrics\" and \"error\"");
          return;
        }
        if (record(p, lineNo) && p.nextToken() != null) {
          bad(lineNo, "more than one JSON value on the line");
        }
      } catch (JacksonException e) {
        bad(lineNo, "not valid JSON: " + InputErrors.describe(e));
      }
    }

    // per line, reused: metric tag -> value of the current record (NaN when absent)
    private final Map<String, Double> current = new HashMap<>();

    /** One record, the parser just past its START_OBJECT; false when it is not a record. */
    boolean record(JsonParser p, long lineNo) {
      lines++;
      current.clear();
      String id = null;
      String phase = "profiling";
      boolean wasCancelled = false;
      boolean failed = false;
      String errorKind = null;
      boolean sawMetadata = false;
      JsonNode start = null;
      JsonNode end = null;
      {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String field = p.currentName();
          JsonToken t = p.nextToken();
          switch (field) {
            case "metadata" -> {
              if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
              }
              sawMetadata = true;
              while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String m = p.currentName();
                JsonToken v = p.nextToken();
                switch (m) {
                  case "x_request_id" -> id = v == JsonToken.VALUE_STRING ? p.getString() : null;
                  case "benchmark_phase" ->
                      phase = v == JsonToken.VALUE_STRING ? p.getString() : phase;
                  case "was_cancelled" -> wasCancelled = v == JsonToken.VALUE_TRUE;
                  case "request_start_ns" -> start = p.readValueAsTree();
                  case "request_end_ns" -> end = p.readValueAsTree();
                  default -> p.skipChildren();
                }
              }
            }
            case "metrics" -> {
              if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
              }
              while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String tag = p.currentName();
                if (p.nextToken() != JsonToken.START_OBJECT) {
                  p.skipChildren();
                  continue;
                }
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                  String k = p.currentName();
                  JsonToken v = p.nextToken();
                  if (k.equals("value")) {
                    if (v == JsonToken.START_ARRAY) {
                      while ((v = p.nextToken()) != JsonToken.END_ARRAY) {
                        if (v.isNumeric()) {
                          // the first character tells negative, NaN or Infinity: no conversion of
                          // millions of inter-chunk values that are never kept
                          char c = p.getStringCharacters()[p.getStringOffset()];
                          if (c == '-' || c == 'N' || c == 'I' || c == '+') {
                            check(tag, p.getDoubleValue(), lineNo);
                          }
                        } else {
                          p.skipChildren();
                        }
                      }
                    } else if (v.isNumeric()) {
                      double d = p.getDoubleValue();
                      check(tag, d, lineNo);
                      current.put(tag, d);
                    } else {
                      p.skipChildren();
                    }
                  } else if (k.equals("unit") && v == JsonToken.VALUE_STRING) {
                    unit(tag, p.getString());
                  } else {
                    p.skipChildren();
                  }
                }
              }
            }
            case "error" -> {
              if (t == JsonToken.START_OBJECT) {
                failed = true;
                JsonNode error = p.readValueAsTree();
                String kind =
                    error.path("type").asString("")
                        + (error.has("code") ? " " + error.path("code").asString("") : "");
                errorKind = kind.isBlank() ? "unknown error" : kind.strip();
              } else if (t != JsonToken.VALUE_NULL) {
                failed = true;
                errorKind = "unknown error";
                p.skipChildren();
              }
            }
            default -> p.skipChildren();
          }
        }
      }
      if (!sawMetadata) {
        bad(lineNo, "expected an object with \"metadata\", \"metrics\" and \"error\"");
        return false;
      }
      double[] tracked = new double[TRACKED.size()];
      for (int i = 0; i < tracked.length; i++) {
        Double d = current.get(TRACKED.get(i));
        tracked[i] = d == null ? Double.NaN : d;
      }
      if (!outcome(phase.equals("warmup"), id, wasCancelled, failed, errorKind, lineNo)) {
        return true;
      }
      if (timestamps(start, end, lineNo)) {
        // timestamps(...) returned true: both are integral numbers
        timeline(
            Objects.requireNonNull(start).asLong(),
            Objects.requireNonNull(end).asLong(),
            tracked,
            !wasCancelled && !failed);
      }
      values(tracked, !wasCancelled && !failed);
      return true;
    }

    /**
     * Counts a record by phase and outcome (warmup, duplicate id, cancelled, failed).
     *
     * @return false for a warmup record (nothing more to count)
     */
    boolean outcome(
        boolean warmupPhase,
        @Nullable String id,
        boolean wasCancelled,
        boolean failed,
        @Nullable String errorKind,
        long lineNo) {
      if (!phase(warmupPhase)) {
        return false;
      }
      if (id != null && !ids.add(id)) {
        duplicate(lineNo, id);
      }
      outcome(wasCancelled, failed, errorKind);
      return true;
    }

    /** Counts a record's phase; false for a warmup record (nothing more to count). */
    boolean phase(boolean warmupPhase) {
      if (warmupPhase) {
        warmup++;
        return false;
      }
      profiling++;
      return true;
    }

    /** Counts a duplicate request id. */
    void duplicate(long lineNo, String id) {
      duplicates++;
      if (firstDuplicate == null) {
        firstDuplicate = "line " + lineNo + ": x_request_id " + id;
      }
    }

    /** Counts a profiling record's outcome (cancelled, failed). */
    void outcome(boolean wasCancelled, boolean failed, @Nullable String errorKind) {
      if (wasCancelled) {
        cancelled++;
      } else if (failed) {
        errors++;
        errorKinds.merge(Objects.requireNonNull(errorKind), 1L, Long::sum);
      }
    }

    /** Adds a request with usable timestamps to the timeline (TTFT converted to ms). */
    void timeline(long start, long end, double[] tracked, boolean succeeded) {
      double f = factorByIndex()[TTFT];
      double ttft = tracked[TTFT];
      double ms = Double.isNaN(f) ? ttft : ttft * f;
      timeline.add(start, end, ms, succeeded);
    }

    /** Keeps a successful request's tracked values (canonical units; NaN where absent). */
    void values(double[] tracked, boolean succeeded) {
      if (!succeeded) {
        return;
      }
      double[] fs = factorByIndex();
      for (int i = 0; i < tracked.length; i++) {
        double f = fs[i];
        double v = tracked[i];
        lists[i].add(Double.isNaN(f) ? v : v * f);
      }
    }

    private double[] factorByIndex() {
      double[] fs = factorByIndex;
      if (fs == null) {
        fs = new double[TRACKED.size()];
        for (int i = 0; i < fs.length; i++) {
          Double f = factors.get(TRACKED.get(i));
          fs[i] = f == null ? Double.NaN : f;
        }
        factorByIndex = fs;
      }
      return fs;
    }

    void check(String tag, double d, long lineNo) {
      if (!Double.isFinite(d)) {
        nonFinite++;
        if (firstNonFinite == null) {
          firstNonFinite = "line " + lineNo + ": /metrics/" + tag + "/value is " + d;
        }
      } else if (d < 0) {
        negative++;
        if (firstNegative == null) {
          firstNegative = "line " + lineNo + ": /metrics/" + tag + "/value = " + d;
        }
      }
    }

    /**
     * Records {@code tag}'s unit; true when a later call with the same pair changes nothing (the
     * pair is the tag's first-seen unit), so a caller may skip it.
     */
    boolean unit(String tag, @Nullable String unit) {
      if (unit == null) {
        return true;
      }
      String seen = units.putIfAbsent(tag, unit);
      if (seen == null) {
        var parsed = MetricUnit.parse(unit);
        if (parsed.isEmpty()) {
          if (TRACKED.contains(tag)) {
            unitProblems.add(tag + ": unit \"" + unit + "\" is not one benchplan knows");
          }
        } else if (TRACKED.contains(tag)) {
          MetricUnit u = parsed.get();
          BigDecimal one = u.convert(BigDecimal.ONE, MetricUnit.canonical(u.dimension()));
          if (one.compareTo(BigDecimal.ONE) != 0) {
            factors.put(tag, one.doubleValue());
            factorByIndex = null;
          }
        }
        return true;
      }
      if (seen.equals(unit)) {
        return true;
      }
      if (unitProblems.size() < 20) {
        unitProblems.add(
            tag + ": unit \"" + unit + "\" differs from \"" + seen + "\" in earlier records");
      }
      return false;
    }

    /** Checks and counts a record's timestamps; true when they are usable. */
    private boolean timestamps(@Nullable JsonNode s, @Nullable JsonNode e, long lineNo) {
      if (s == null || e == null || !s.isIntegralNumber() || !e.isIntegralNumber()) {
        badTimestamp(lineNo, NOT_INTEGERS);
        return false;
      }
      return timestamps(s.asLong(), e.asLong(), lineNo);
    }

    /** Checks and counts a record's integral timestamps; true when they are usable. */
    boolean timestamps(long start, long end, long lineNo) {
      if (end < start) {
        badTimestamp(lineNo, "request_end_ns " + end + " precedes request_start_ns " + start);
        return false;
      }
      if (timed) {
        minStart = start < minStart ? start : minStart;
        maxEnd = end > maxEnd ? end : maxEnd;
      } else {
        timed = true;
        minStart = start;
        maxEnd = end;
      }
      return true;
    }

    void badTimestamp(long lineNo, String why) {
      badTimestamps++;
      if (firstBadTimestamp == null) {
        firstBadTimestamp = "line " + lineNo + ": " + why;
      }
    }

    void bad(long lineNo, String why) {
      malformed++;
      if (firstMalformed == null) {
        firstMalformed = "line " + lineNo + ": " + why;
      }
    }
  }
}
