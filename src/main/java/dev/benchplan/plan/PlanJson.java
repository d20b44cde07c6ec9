package dev.benchplan.plan;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Plan serialization: snake_case names, canonical bytes, exact decimals when read back. */
public final class PlanJson {
  private static final JsonMapper MAPPER =
      JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
  // the schema allows keys beyond the required ones: a reader ignores those it does not know
  private static final ObjectReader READER =
      MAPPER
          .reader()
          .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private PlanJson() {}

  /** The plan as a JSON tree. */
  public static ObjectNode tree(BenchmarkPlan plan) {
    return MAPPER.valueToTree(plan);
  }

  /** A section of a plan (a record or a list of them) as the JSON tree the plan writes. */
  public static JsonNode sectionTree(Object section) {
    return MAPPER.valueToTree(section);
  }

  /** The plan's canonical bytes (what is written and hashed). */
  public static byte[] canonical(BenchmarkPlan plan) {
    return CanonicalJson.bytes(tree(plan));
  }

  /** What a plan file must hold, for messages. */
  public static final String EXPECTED = "a plan written by `benchplan plan`";

  /**
   * Parses plan bytes as {@link #parse} does, saying in the user's terms what is wrong when they
   * hold no JSON object ({@link JsonInput}).
   */
  public static JsonInput.Parsed parseObject(byte[] bytes) {
    return JsonInput.parse(
        Json.JSON.readerFor(JsonNode.class).with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS),
        bytes);
  }

  /** Parses plan bytes, keeping decimals exact so trees compare canonically. */
  public static JsonNode parse(byte[] bytes) {
    return Json.JSON
        .readerFor(JsonNode.class)
        .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .readValue(bytes);
  }

  /**
   * A plan tree (or one of its sections) as its typed record.
   *
   * @throws tools.jackson.databind.DatabindException when the tree does not fit the record
   */
  public static <T> T read(JsonNode tree, Class<T> type) {
    return READER.forType(type).readValue(tree);
  }
}
