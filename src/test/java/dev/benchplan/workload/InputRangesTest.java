package dev.benchplan.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The ranges the readers check are the ranges the schemas state: one set of bounds. */
class InputRangesTest {
  private static JsonNode schema(String name) throws IOException {
    return Json.JSON.readTree(Files.readAllBytes(Path.of("schemas", name)));
  }

  /** The schema node of an instance pointer: properties for names, items for {@code *}. */
  private static JsonNode node(JsonNode schema, String pointer) {
    JsonNode n = schema;
    for (String part : pointer.substring(1).split("/")) {
      n = part.equals("*") ? n.get("items") : n.get("properties").get(part);
      assertThat(n).as("schema node for " + pointer).isNotNull();
    }
    return n;
  }

  private static void agree(String schemaName, List<InputRanges.Field> fields) throws IOException {
    JsonNode s = schema(schemaName);
    for (InputRanges.Field f : fields) {
      JsonNode n = node(s, f.pointer());
      String what = schemaName + " " + f.pointer();
      assertThat(n.get("maximum")).as(what + " maximum").isNotNull();
      assertThat(n.get("maximum").decimalValue())
          .as(what + " maximum")
          .isEqualByComparingTo(f.max());
      String minKey = f.minExclusive() ? "exclusiveMinimum" : "minimum";
      assertThat(n.get(minKey)).as(what + " " + minKey).isNotNull();
      assertThat(n.get(minKey).decimalValue())
          .as(what + " " + minKey)
          .isEqualByComparingTo(f.min());
    }
  }

  @Test
  @DisplayName("every workload and ledger number range equals its schema's minimum and maximum")
  void schemasAgree() throws IOException {
    agree("user-workload.schema.json", InputRanges.WORKLOAD);
    agree("deployment-ledger.schema.json", InputRanges.LEDGER);
  }

  @Test
  @DisplayName(
      "every integer or number in the two input schemas has a maximum (no unbounded number)")
  void everyNumberBounded() throws IOException {
    for (String name : List.of("user-workload.schema.json", "deployment-ledger.schema.json")) {
      List<String> unbounded = new java.util.ArrayList<>();
      walk(schema(name), "", unbounded);
      assertThat(unbounded).as(name + ": numeric fields without a maximum").isEmpty();
    }
  }

  private static void walk(JsonNode n, String at, List<String> out) {
    if (n.isObject()) {
      JsonNode type = n.get("type");
      boolean numeric =
          type != null
              && (type.toString().contains("integer") || type.toString().contains("number"));
      if (numeric && !n.has("maximum") && !n.has("exclusiveMaximum") && !n.has("const")) {
        out.add(at);
      }
      for (String k : n.propertyNames()) {
        walk(n.get(k), at + "/" + k, out);
      }
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        walk(n.get(i), at + "/" + i, out);
      }
    }
  }

  @Test
  @DisplayName(
      "ranges accept their edges and refuse one step past them; whole decimals are integers")
  void edges() {
    InputRanges.Field tokens = InputRanges.integer("/x", 1, InputRanges.MAX_TOKENS);
    assertThat(tokens.accepts(BigDecimal.ONE)).isTrue();
    assertThat(tokens.accepts(BigDecimal.valueOf(InputRanges.MAX_TOKENS))).isTrue();
    assertThat(tokens.accepts(BigDecimal.valueOf(InputRanges.MAX_TOKENS + 1))).isFalse();
    assertThat(tokens.accepts(BigDecimal.ZERO)).isFalse();
    assertThat(tokens.accepts(new BigDecimal("60.0"))).isTrue();
    assertThat(tokens.accepts(new BigDecimal("60.5"))).isFalse();
    assertThat(tokens.accepts(new BigDecimal("1e300"))).isFalse();
    assertThat(tokens.describe()).isEqualTo("an integer 1..10000000");
  }
}
