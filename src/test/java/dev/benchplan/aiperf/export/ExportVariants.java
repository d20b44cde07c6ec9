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
import java.util.List;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.DecimalNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Test inputs derived from the real AIPerf export in ../shared/data/aiperf: the same run rewritten
 * into each layout AIPerf has used, with other units, or with chosen values. Derived files are
 * written by the tests into their temp folders; the real file is never copied into the project.
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
}
