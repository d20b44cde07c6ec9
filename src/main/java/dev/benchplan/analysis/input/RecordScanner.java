package dev.benchplan.analysis.input;

import dev.benchplan.aiperf.export.MetricUnit;
import dev.benchplan.diagnostics.RequestTimeline;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Sha256;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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

  // NaN and Infinity are read, not rejected: the audit must see and name them
  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private RecordScanner() {}

  /**
   * Scans a records file: one byte-stream parser over the whole file (fast), and when anything in
   * it is not one JSON object per line, a second pass line by line that names each bad line.
   */
  public static RecordScan scan(Path file) {
    RecordScan fast = streamed(file);
    return fast != null ? fast : lineByLine(file);
  }

  private static @Nullable RecordScan streamed(Path file) {
    MessageDigest digest = Sha256.newDigest();
    State s = new State();
    try (InputStream raw = Files.newInputStream(file);
        DigestInputStream in =
            new DigestInputStream(new java.io.BufferedInputStream(raw, 1 << 16), digest);
        JsonParser p = MAPPER.createParser(in)) {
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
          file + ": cannot read per-request records: " + e.getMessage(), e);
    }
    return s.result(file, digest);
  }

  private static RecordScan lineByLine(Path file) {
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
          file + ": cannot read per-request records: " + e.getMessage(), e);
    }
    return s.result(file, digest);
  }

  private static final class State {
    long lines;
    long malformed;
    @Nullable String firstMalformed;
    long profiling;
    long warmup;
    long cancelled;
    long errors;
    final Map<String, Long> errorKinds = new HashMap<>();
    final Set<String> ids = new HashSet<>();
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
    final List<String> unitProblems = new ArrayList<>();
    @Nullable Long minStart;
    @Nullable Long maxEnd;
    final Map<String, DoubleList> values = new LinkedHashMap<>();
    // every measured request with usable timestamps, for the diagnostics (stall, client bound)
    final RequestTimeline.Builder timeline = new RequestTimeline.Builder();

    State() {
      for (String m : TRACKED) {
        values.put(m, new DoubleList());
      }
    }

    RecordScan result(Path file, MessageDigest digest) {
      return new RecordScan(
          file.toString(),
          Sha256.hex(digest),
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
          minStart,
          maxEnd,
          values,
          timeline.build());
    }

    void line(String text, long lineNo) {
      try (JsonParser p = MAPPER.createParser(text)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          lines++;
          bad(lineNo, "expected an object with \"metadata\", \"metrics\" and \"error\"");
          return;
        }
        if (record(p, lineNo) && p.nextToken() != null) {
          bad(lineNo, "more than one JSON value on the line");
        }
      } catch (JacksonException e) {
        bad(lineNo, "not valid JSON: " + e.getOriginalMessage());
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
      if (phase.equals("warmup")) {
        warmup++;
        return true;
      }
      profiling++;
      if (id != null && !ids.add(id)) {
        duplicates++;
        if (firstDuplicate == null) {
          firstDuplicate = "line " + lineNo + ": x_request_id " + id;
        }
      }
      if (wasCancelled) {
        cancelled++;
      } else if (failed) {
        errors++;
        errorKinds.merge(errorKind, 1L, Long::sum);
      }
      if (timestamps(start, end, lineNo)) {
        Double ttft = current.get("time_to_first_token");
        Double f = factors.get("time_to_first_token");
        double ms = ttft == null ? Double.NaN : f == null ? ttft : ttft * f;
        // timestamps(...) returned true: both are integral numbers
        timeline.add(
            Objects.requireNonNull(start).asLong(),
            Objects.requireNonNull(end).asLong(),
            ms,
            !wasCancelled && !failed);
      }
      if (!wasCancelled && !failed) {
        for (Map.Entry<String, DoubleList> e : values.entrySet()) {
          Double d = current.get(e.getKey());
          Double f = factors.get(e.getKey());
          double v = d == null ? Double.NaN : d;
          e.getValue().add(f == null ? v : v * f);
        }
      }
      return true;
    }

    private void check(String tag, double d, long lineNo) {
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

    private void unit(String tag, String unit) {
      if (unit == null) {
        return;
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
          }
        }
      } else if (!seen.equals(unit) && unitProblems.size() < 20) {
        unitProblems.add(
            tag + ": unit \"" + unit + "\" differs from \"" + seen + "\" in earlier records");
      }
    }

    /** Checks and counts a record's timestamps; true when they are usable. */
    private boolean timestamps(@Nullable JsonNode s, @Nullable JsonNode e, long lineNo) {
      if (s == null || e == null || !s.isIntegralNumber() || !e.isIntegralNumber()) {
        badTimestamp(lineNo, "request_start_ns/request_end_ns missing or not integers");
        return false;
      }
      long start = s.asLong();
      long end = e.asLong();
      if (end < start) {
        badTimestamp(lineNo, "request_end_ns " + end + " precedes request_start_ns " + start);
        return false;
      }
      minStart = minStart == null ? start : Math.min(minStart, start);
      maxEnd = maxEnd == null ? end : Math.max(maxEnd, end);
      return true;
    }

    private void badTimestamp(long lineNo, String why) {
      badTimestamps++;
      if (firstBadTimestamp == null) {
        firstBadTimestamp = "line " + lineNo + ": " + why;
      }
    }

    private void bad(long lineNo, String why) {
      malformed++;
      if (firstMalformed == null) {
        firstMalformed = "line " + lineNo + ": " + why;
      }
    }
  }
}
