package dev.benchplan.aiperf.export;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import dev.benchplan.json.Sha256;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;

/**
 * Parses {@code profile_export_aiperf.json} in every layout AIPerf has written. Numbers are read as
 * exact decimals so that gate boundaries compare the digits AIPerf wrote, not a binary
 * approximation. Malformed input is invalid (exit 2) with the file and JSON pointer named.
 */
public final class AiperfExportReader {
  // exact decimals: 4500.0 must compare equal to 0.9 x 5000, not to 4499.999...
  private static final ObjectReader READER =
      Json.JSON
          .readerFor(JsonNode.class)
          .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          // AIPerf is Python: json.dumps writes NaN/Infinity; read them so the message can name the
          // pointer
          .with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);

  private AiperfExportReader() {}

  /** Reads and parses an export file. */
  public static AiperfExport read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": AIPerf export not found", e);
    } catch (IOException e) {
      throw InputErrors.unreadable("AIPerf export", file, e);
    }
    return parse(bytes, file);
  }

  /** Parses export bytes; {@code source} names them in messages (a file or e.g. a pod log). */
  public static AiperfExport parse(byte[] bytes, Path source) {
    JsonNode root =
        JsonInput.parse(READER, bytes)
            .orThrow("AIPerf export", source, "AIPerf's profile_export_aiperf.json object");
    return new Parse(source, root).export(Sha256.hex(bytes));
  }

  /** The state of one parse: the source for messages and the root node. */
  private record Parse(Path source, JsonNode root, Map<String, String> notMetrics) {
    Parse(Path source, JsonNode root) {
      this(source, root, new LinkedHashMap<>());
    }

    AiperfExport export(String sha256) {
      ExportLayout layout;
      Map<String, MetricSummary> metrics;
      JsonNode records = root.get("records");
      if (records != null && (records.isObject() || records.isArray())) {
        layout = ExportLayout.RECORDS;
        metrics = recordsMetrics(records);
      } else {
        layout = root.has("schema_version") ? ExportLayout.VERSIONED : ExportLayout.TOP_LEVEL;
        metrics = new LinkedHashMap<>();
        for (String name : root.propertyNames()) {
          JsonNode block = root.get(name);
          if (isMetricBlock(block)) {
            metrics.put(name, metric(name, block, "/" + escape(name)));
          } else if (block != null && block.isValueNode() && !block.isNull()) {
            notMetrics.put(name, "/" + escape(name) + " is " + JsonInput.describe(block));
          }
        }
      }
      if (metrics.isEmpty()) {
        throw invalid(
            "/",
            "no AIPerf metrics found: expected metric blocks {\"unit\": ..., \"avg\": ...} as top-level"
                + " keys (AIPerf 0.2+) or under \"records\" (AIPerf 0.1.x)");
      }
      return new AiperfExport(
          source,
          sha256,
          layout,
          text("schema_version"),
          text("aiperf_version"),
          wasCancelled(),
          errorSummary(),
          metrics,
          text("start_time"),
          text("end_time"),
          notMetrics);
    }

    private Map<String, MetricSummary> recordsMetrics(JsonNode records) {
      Map<String, MetricSummary> metrics = new LinkedHashMap<>();
      if (records.isObject()) {
        for (String name : records.propertyNames()) {
          JsonNode block = records.get(name);
          if (block == null || block.isNull()) {
            continue;
          }
          String pointer = "/records/" + escape(name);
          if (!block.isObject()) {
            throw invalid(
                pointer,
                "expected a metric object {\"unit\": ..., \"avg\": ...}, found "
                    + JsonInput.describe(block));
          }
          metrics.put(name, metric(name, block, pointer));
        }
      } else {
        for (int i = 0; i < records.size(); i++) {
          JsonNode block = records.get(i);
          String pointer = "/records/" + i;
          JsonNode tag = block.get("tag");
          if (!block.isObject() || tag == null || !tag.isString()) {
            throw invalid(pointer, "expected a metric object with a string \"tag\"");
          }
          metrics.put(tag.asString(), metric(tag.asString(), block, pointer));
        }
      }
      return metrics;
    }

    /** How a number that no double can hold is shown, or null when it is finite. */
    private static @Nullable String nonFinite(JsonNode v) {
      if (v.isBigDecimal()) {
        return Double.isFinite(v.decimalValue().doubleValue())
            ? null
            : v.decimalValue() + " (beyond the range of a double)";
      }
      if (v.isBigInteger()) {
        return Double.isFinite(v.bigIntegerValue().doubleValue())
            ? null
            : v.bigIntegerValue() + " (beyond the range of a double)";
      }
      if (v.isDouble() || v.isFloat()) {
        double d = v.asDouble();
        return Double.isFinite(d) ? null : Double.toString(d);
      }
      return null;
    }

    private static boolean isMetricBlock(JsonNode node) {
      return node != null && node.isObject() && node.has("unit");
    }

    private MetricSummary metric(String tag, JsonNode block, String pointer) {
      JsonNode unit = block.get("unit");
      if (unit == null || !unit.isString()) {
        throw invalid(
            pointer + "/unit",
            "expected the metric's unit as a string, found " + JsonInput.describe(unit));
      }
      Map<String, BigDecimal> stats = new LinkedHashMap<>();
      for (String stat : MetricSummary.STATS) {
        JsonNode v = block.get(stat);
        if (v == null || v.isNull()) {
          continue; // not computed: absent, never zero
        }
        if (!v.isNumber()) {
          throw invalid(
              pointer + "/" + stat, "expected a number or null, found " + JsonInput.describe(v));
        }
        String nonFinite = nonFinite(v);
        if (nonFinite != null) {
          // NaN, Infinity, or a decimal such as 1e400 beyond any double: not a measurement
          throw invalid(pointer + "/" + stat, "expected a finite number, found " + nonFinite);
        }
        stats.put(stat, v.decimalValue());
      }
      return new MetricSummary(tag, unit.asString(), stats, pointer);
    }

    private @Nullable String text(String field) {
      JsonNode v = root.get(field);
      if (v == null || v.isNull()) {
        return null;
      }
      if (v.isString() || v.isNumber()) {
        return v.asString();
      }
      throw invalid("/" + field, "expected a string, found " + JsonInput.describe(v));
    }

    private boolean wasCancelled() {
      JsonNode v = root.get("was_cancelled");
      if (v == null || v.isNull()) {
        return false;
      }
      if (!v.isBoolean()) {
        throw invalid("/was_cancelled", "expected true or false, found " + JsonInput.describe(v));
      }
      return v.asBoolean();
    }

    private List<ErrorCount> errorSummary() {
      JsonNode v = root.get("error_summary");
      List<ErrorCount> out = new ArrayList<>();
      if (v == null || v.isNull()) {
        return out;
      }
      if (!v.isArray()) {
        throw invalid(
            "/error_summary",
            "expected an array of {error_details, count}, found " + JsonInput.describe(v));
      }
      for (int i = 0; i < v.size(); i++) {
        String p = "/error_summary/" + i;
        JsonNode entry = v.get(i);
        JsonNode count = entry.get("count");
        if (!entry.isObject()
            || count == null
            || (!count.isIntegralNumber() && !isWholeDecimal(count))
            || count.decimalValue().signum() < 0) {
          throw invalid(p + "/count", "expected a non-negative integer count of failed requests");
        }
        JsonNode details = entry.path("error_details");
        JsonNode code = details.get("code");
        Integer codeValue = null;
        if (code != null && !code.isNull()) {
          if (!code.isIntegralNumber()) {
            throw invalid(
                p + "/error_details/code",
                "expected an integer or null, found " + JsonInput.describe(code));
          }
          codeValue = code.asInt();
        }
        out.add(
            new ErrorCount(
                codeValue,
                optionalText(details.get("type")),
                optionalText(details.get("message")),
                count.decimalValue().longValueExact()));
      }
      return out;
    }

    private static boolean isWholeDecimal(JsonNode n) {
      return n.isNumber() && n.decimalValue().stripTrailingZeros().scale() <= 0;
    }

    private static @Nullable String optionalText(JsonNode n) {
      return n == null || n.isNull() ? null : n.asString();
    }

    private BenchplanException invalid(String pointer, String message) {
      return BenchplanException.invalid(
          ErrorLocation.pointer(source, pointer), source + ": " + pointer + ": " + message);
    }

    private static String escape(String name) {
      return name.replace("~", "~0").replace("/", "~1");
    }
  }
}
