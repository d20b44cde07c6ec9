package dev.benchplan.analysis.input;

import dev.benchplan.aiperf.export.MetricUnit;
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
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * One streaming pass over AIPerf's per-request records. Never throws on bad content: a malformed
 * line, NaN, a duplicate id or a negative latency is counted and named for the audit (the raw file
 * is evidence either way); only an unreadable file is an error.
 */
public final class RecordScanner {
  /** The per-request metrics kept (durations in ms, rates in tokens/sec/user, lengths in tokens). */
  public static final List<String> TRACKED = List.of("time_to_first_token", "inter_token_latency",
      "request_latency", "time_to_second_token", "output_token_throughput_per_user", "output_sequence_length",
      "input_sequence_length");
  // NaN and Infinity are read, not rejected: the audit must see and name them
  private static final ObjectReader READER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build().readerFor(JsonNode.class);

  private RecordScanner() {}

  /** Scans a records file. */
  public static RecordScan scan(Path file) {
    MessageDigest digest = Sha256.newDigest();
    State s = new State();
    try (InputStream raw = Files.newInputStream(file);
        DigestInputStream in = new DigestInputStream(raw, digest);
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
      String line;
      long lineNo = 0;
      while ((line = reader.readLine()) != null) {
        lineNo++;
        if (!line.isBlank()) {
          s.line(line, lineNo);
        }
      }
    } catch (IOException e) {
      throw BenchplanException.invalid(file + ": cannot read per-request records: " + e.getMessage(), e);
    }
    return new RecordScan(file.toString(), Sha256.hex(digest), s.lines, s.malformed, s.firstMalformed,
        s.profiling, s.warmup, s.cancelled, s.errors, new TreeMap<>(s.errorKinds), s.duplicates, s.firstDuplicate,
        s.nonFinite, s.firstNonFinite, s.negative, s.firstNegative, s.badTimestamps, s.firstBadTimestamp,
        new TreeMap<>(s.units), List.copyOf(s.unitProblems), s.minStart, s.maxEnd, s.values);
  }

  private static final class State {
    long lines;
    long malformed;
    String firstMalformed;
    long profiling;
    long warmup;
    long cancelled;
    long errors;
    final Map<String, Long> errorKinds = new HashMap<>();
    final Set<String> ids = new HashSet<>();
    long duplicates;
    String firstDuplicate;
    long nonFinite;
    String firstNonFinite;
    long negative;
    String firstNegative;
    long badTimestamps;
    String firstBadTimestamp;
    final Map<String, String> units = new HashMap<>();
    final Map<String, Double> factors = new HashMap<>();
    final List<String> unitProblems = new ArrayList<>();
    Long minStart;
    Long maxEnd;
    final Map<String, DoubleList> values = new LinkedHashMap<>();

    State() {
      for (String m : TRACKED) {
        values.put(m, new DoubleList());
      }
    }

    void line(String text, long lineNo) {
      lines++;
      JsonNode rec;
      try {
        rec = READER.readValue(text);
      } catch (JacksonException e) {
        bad(lineNo, "not valid JSON: " + e.getOriginalMessage());
        return;
      }
      if (rec == null || !rec.isObject() || !rec.path("metadata").isObject()) {
        bad(lineNo, "expected an object with \"metadata\", \"metrics\" and \"error\"");
        return;
      }
      JsonNode meta = rec.get("metadata");
      String phase = meta.path("benchmark_phase").asString("profiling");
      if (phase.equals("warmup")) {
        warmup++;
        return;
      }
      profiling++;
      JsonNode idNode = meta.path("x_request_id");
      String id = idNode.isString() ? idNode.asString() : null;
      if (id != null && !ids.add(id)) {
        duplicates++;
        if (firstDuplicate == null) {
          firstDuplicate = "line " + lineNo + ": x_request_id " + id;
        }
      }
      boolean wasCancelled = meta.path("was_cancelled").asBoolean(false);
      JsonNode error = rec.get("error");
      boolean failed = error != null && !error.isNull();
      if (wasCancelled) {
        cancelled++;
      } else if (failed) {
        errors++;
        String kind = error.path("type").asString("") + (error.has("code") ? " " + error.path("code").asString("") : "");
        errorKinds.merge(kind.isBlank() ? "unknown error" : kind.strip(), 1L, Long::sum);
      }
      timestamps(meta, lineNo);
      JsonNode metrics = rec.path("metrics");
      boolean keep = !wasCancelled && !failed;
      for (String tag : metrics.propertyNames()) {
        JsonNode m = metrics.get(tag);
        JsonNode v = m.path("value");
        if (v.isArray()) {
          for (JsonNode e : v) {
            check(tag, e, lineNo);
          }
          continue;
        }
        check(tag, v, lineNo);
        unit(tag, m.path("unit").asString(null));
      }
      if (keep) {
        for (Map.Entry<String, DoubleList> e : values.entrySet()) {
          JsonNode v = metrics.path(e.getKey()).path("value");
          double d = v.isNumber() ? v.asDouble() : Double.NaN;
          Double f = factors.get(e.getKey());
          e.getValue().add(f == null ? d : d * f);
        }
      }
    }

    private void check(String tag, JsonNode v, long lineNo) {
      if (!v.isNumber()) {
        return;
      }
      double d = v.asDouble();
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
        unitProblems.add(tag + ": unit \"" + unit + "\" differs from \"" + seen + "\" in earlier records");
      }
    }

    private void timestamps(JsonNode meta, long lineNo) {
      JsonNode s = meta.get("request_start_ns");
      JsonNode e = meta.get("request_end_ns");
      if (s == null || e == null || !s.isIntegralNumber() || !e.isIntegralNumber()) {
        badTimestamp(lineNo, "request_start_ns/request_end_ns missing or not integers");
        return;
      }
      long start = s.asLong();
      long end = e.asLong();
      if (end < start) {
        badTimestamp(lineNo, "request_end_ns " + end + " precedes request_start_ns " + start);
        return;
      }
      minStart = minStart == null ? start : Math.min(minStart, start);
      maxEnd = maxEnd == null ? end : Math.max(maxEnd, end);
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
