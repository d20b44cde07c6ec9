package dev.benchplan.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class JsonYamlTest {
  @Test
  @DisplayName("YAML output keeps numeric-looking and special strings as strings")
  void numericLookingStringsStayStrings() {
    ObjectNode n = Json.JSON.createObjectNode();
    n.put("port", "8000")
        .put("ratio", "0.5")
        .put("flag", "true")
        .put("num", 42)
        .put("colon", "a: #b");
    String yaml = Json.YAML.writeValueAsString(n);
    JsonNode back = Json.YAML.readTree(yaml);
    assertThat(back.get("port").isString()).as(yaml).isTrue();
    assertThat(back.get("ratio").isString()).as(yaml).isTrue();
    assertThat(back.get("flag").isString()).as(yaml).isTrue();
    assertThat(back.get("num").isNumber()).as(yaml).isTrue();
    assertThat(back).isEqualTo(n);
  }
}
