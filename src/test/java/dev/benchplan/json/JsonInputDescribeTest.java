package dev.benchplan.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A value as error messages name it: in the user's words, never Jackson's node type names. */
class JsonInputDescribeTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\": 1}   | an object",
        "[1, 2]       | an array",
        "\"no\"       | the string \"no\"",
        "5000         | the number 5000",
        "-1.5         | the number -1.5",
        "true         | true",
        "null         | null"
      })
  void eachKind(String json, String said) {
    assertThat(JsonInput.describe(Json.JSON.readTree(json))).isEqualTo(said);
  }

  @Test
  void absent() {
    assertThat(JsonInput.describe(null)).isEqualTo("nothing");
    assertThat(JsonInput.describe(Json.JSON.createObjectNode().path("x"))).isEqualTo("nothing");
  }
}
