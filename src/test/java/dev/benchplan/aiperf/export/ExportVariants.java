package dev.benchplan.aiperf.export;

import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.DecimalNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one fixture for AIPerf's export files. Where a test wants real data: the real export in
 * ../shared/data/aiperf, rewritten into each layout AIPerf has used, with other units, or with
 * chosen values (derived files are written by the tests into their temp folders; the real file is
 * never copied into the project). Where a test wants values it knows by construction: {@link
 * #summary()} builds a {@code profile_export_aiperf.json} and {@link #record} one line of {@code
 * profile_export.jsonl}, both in AIPerf's shape.
 */
public final class ExportVariants {
  /** The real export's path under the shared data folder. */
  public static final String REAL = "aiperf/profile_export_aiperf.json";

  private ExportVariants() {}

  /** The real export (skips the test when the shared data is absent). */
  public static Path real() {
    return SharedData.require(REAL);
  }

  /** The real export as an editable tree with exact decimals. */
  public static ObjectNode realTree() {
    try {
      return (ObjectNode)
          Json.JSON
              .readerFor(JsonNode.class)
              .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
              .readValue(Files.readAllBytes(real()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** AIPerf 0.1.1's layout: every metric block under {@code records.<tag>} with tag and header. */
  public static ObjectNode asRecordsLayout(ObjectNode topLevel) {
    ObjectNode out = Json.JSON.createObjectNode();
    ObjectNode records = out.putObject("records");
    for (String name : new ArrayList<>(topLevel.propertyNames())) {
      JsonNode v = topLevel.get(name);
      if (v.isObject() && v.has("unit")) {
        ObjectNode block = Json.JSON.createObjectNode();
        block.put("tag", name);
        block.put("header", name.replace('_', ' '));
        block.setAll((ObjectNode) v);
        records.set(name, block);
      } else if (v.isNull() && !name.equals("error_summary")) {
        records.putNull(name);
      } else if (!v.isObject() || name.equals("input_config")) {
        out.set(name, v);
      }
    }
    return out;
  }

  /**
   * The newer, versioned layout: schema_version, aiperf_version, count and sum on every metric,
   * null metrics dropped (exclude_none), telemetry kept.
   */
  public static ObjectNode asVersionedLayout(ObjectNode topLevel, String aiperfVersion) {
    ObjectNode out = Json.JSON.createObjectNode();
    out.put("schema_version", "1.3");
    out.put("aiperf_version", aiperfVersion);
    out.put("benchmark_id", "derived-from-real-export");
    BigDecimal count = topLevel.path("request_count").path("avg").decimalValue();
    for (String name : new ArrayList<>(topLevel.propertyNames())) {
      JsonNode v = topLevel.get(name);
      if (v.isNull()) {
        continue;
      }
      if (v.isObject() && v.has("unit") && v.has("p50")) {
        ObjectNode block = ((ObjectNode) v).deepCopy();
        block.put("count", count.intValueExact());
        block.set("sum", new DecimalNode(block.get("avg").decimalValue().multiply(count)));
        out.set(name, block);
      } else {
        out.set(name, v);
      }
    }
    return out;
  }

  /**
   * Rewrites a metric into another unit: every stat of {@code tag} multiplied by {@code factor}
   * (exactly) and its unit set to {@code unit}.
   */
  public static ObjectNode withUnit(ObjectNode root, String tag, String unit, BigDecimal factor) {
    ObjectNode block = (ObjectNode) block(root, tag);
    for (String stat : MetricSummary.STATS) {
      JsonNode v = block.get(stat);
      if (v != null && v.isNumber() && !stat.equals("count")) {
        block.set(stat, new DecimalNode(v.decimalValue().multiply(factor)));
      }
    }
    block.put("unit", unit);
    return root;
  }

  /** Sets one statistic of a metric to an exact value. */
  public static ObjectNode withStat(ObjectNode root, String tag, String stat, String value) {
    ((ObjectNode) block(root, tag)).set(stat, new DecimalNode(new BigDecimal(value)));
    return root;
  }

  private static JsonNode block(ObjectNode root, String tag) {
    JsonNode b = root.has("records") ? root.get("records").get(tag) : root.get(tag);
    if (b == null || !b.isObject()) {
      throw new IllegalArgumentException("no metric block " + tag);
    }
    return b;
  }

  /** Writes a tree as JSON into {@code dir/name}. */
  public static Path write(Path dir, String name, JsonNode tree) {
    try {
      Path p = dir.resolve(name);
      Files.write(p, Json.JSON.writeValueAsString(tree).getBytes(StandardCharsets.UTF_8));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Tags of all metric blocks in the real export (the non-null ones). */
  public static List<String> realMetricTags() {
    List<String> tags = new ArrayList<>();
    ObjectNode t = realTree();
    for (String name : t.propertyNames()) {
      if (t.get(name).isObject() && t.get(name).has("unit")) {
        tags.add(name);
      }
    }
    return tags;
  }

  /** A summary export with values of the test's choosing (AIPerf's top-level layout). */
  public static Summary summary() {
    return new Summary();
  }

  /** One per-request record of {@code profile_export.jsonl}, as AIPerf writes it. */
  public static Record record(String requestId, long startNs, long endNs) {
    return new Record(requestId, startNs, endNs);
  }

  /** Builds a {@code profile_export_aiperf.json}: metric blocks {unit, avg, stats...}. */
  public static final class Summary {
    private final ObjectNode root = JsonNodeFactory.instance.objectNode();

    private Summary() {}

    /** {@code aiperf_version} and {@code schema_version} 1.0, as AIPerf 0.13 writes them. */
    public Summary version(String aiperfVersion) {
      root.put("aiperf_version", aiperfVersion);
      root.put("schema_version", "1.0");
      return this;
    }

    /** A metric block holding its unit and average only. */
    public Summary metric(String tag, String unit, double avg) {
      return metric(tag, unit, JsonNodeFactory.instance.numberNode(avg));
    }

    /** As above, for a count. */
    public Summary metric(String tag, String unit, long avg) {
      return metric(tag, unit, JsonNodeFactory.instance.numberNode(avg));
    }

    /** As above, with an average of exactly {@code avg} (a decimal string). */
    public Summary metric(String tag, String unit, String avg) {
      return metric(tag, unit, new DecimalNode(new BigDecimal(avg)));
    }

    private Summary metric(String tag, String unit, JsonNode avg) {
      root.putObject(tag).put("unit", unit).set("avg", avg);
      return this;
    }

    /**
     * A metric block with p50, p99, min and max taken from {@code values} (nearest rank), as AIPerf
     * summarises its per-request records.
     */
    public Summary metric(String tag, String unit, double avg, double[] values) {
      double[] v = values.clone();
      Arrays.sort(v);
      root.putObject(tag)
          .put("unit", unit)
          .put("avg", avg)
          .put("p50", v[(int) (0.5 * (v.length - 1))])
          .put("p99", v[(int) Math.round(0.99 * (v.length - 1))])
          .put("min", v[0])
          .put("max", v[v.length - 1]);
      return this;
    }

    /** Sets one statistic of a metric block added before. */
    public Summary stat(String tag, String stat, double value) {
      ((ObjectNode) block(root, tag)).put(stat, value);
      return this;
    }

    /** As above, exactly {@code value} (a decimal string). */
    public Summary stat(String tag, String stat, String value) {
      withStat(root, tag, stat, value);
      return this;
    }

    /** {@code input_config.loadgen}: the concurrency and request count AIPerf was given. */
    public Summary loadgen(int concurrency, int requestCount) {
      root.withObject("/input_config")
          .putObject("loadgen")
          .put("concurrency", concurrency)
          .put("request_count", requestCount);
      return this;
    }

    /**
     * The tree, to add what the builder does not name ({@code input_config}, flags, a bad value).
     */
    public ObjectNode tree() {
      return root;
    }

    /** The export's bytes as a file holds them. */
    public byte[] bytes() {
      return Json.JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
    }

    /** Writes {@code dir/profile_export_aiperf.json}. */
    public Path write(Path dir) {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return ExportVariants.write(dir, "profile_export_aiperf.json", root);
    }
  }

  /** Builds one line of {@code profile_export.jsonl}: metadata, metrics, error. */
  public static final class Record {
    private final ObjectNode root = JsonNodeFactory.instance.objectNode();
    private final ObjectNode metrics;

    private Record(String requestId, long startNs, long endNs) {
      root.putObject("metadata")
          .put("x_request_id", requestId)
          .put("request_start_ns", startNs)
          .put("request_end_ns", endNs)
          .put("benchmark_phase", "profiling")
          .put("was_cancelled", false);
      metrics = root.putObject("metrics");
      root.putNull("error");
    }

    /** One per-request metric: {@code {"value": value, "unit": unit}}. */
    public Record metric(String tag, double value, String unit) {
      return metric(tag, JsonNodeFactory.instance.numberNode(value), unit);
    }

    /** As above, for a count (tokens). */
    public Record metric(String tag, long value, String unit) {
      return metric(tag, JsonNodeFactory.instance.numberNode(value), unit);
    }

    private Record metric(String tag, JsonNode value, String unit) {
      ObjectNode m = metrics.putObject(tag);
      m.set("value", value);
      m.put("unit", unit);
      return this;
    }

    /** A failed request: no metrics, AIPerf's error object. */
    public Record error(String type, int code) {
      root.putObject("error").put("type", type).put("code", code);
      return this;
    }

    /** The record as one line, newline included. */
    public String line() {
      return root.toString() + "\n"; // compact JSON, one line
    }
  }
}
