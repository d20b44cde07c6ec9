package dev.benchplan.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The artifact record and schemas/smoke-artifact.schema.json agree, and the schema has teeth. */
class SmokeArtifactSchemaTest {
  private static final SchemaValidator SCHEMA =
      SchemaValidator.bundled("smoke-artifact.schema.json");
  private static final EndpointUrl URL = EndpointUrl.parse("http://127.0.0.1:8000");

  private static SmokeArtifact passed() {
    ObjectNode usage =
        Json.JSON
            .createObjectNode()
            .put("prompt_tokens", 9)
            .put("completion_tokens", 16)
            .put("total_tokens", 25);
    StreamSummary stream =
        new StreamSummary("Hello", 5, 0, "length", usage, "m", 18, true, 4_500_000L);
    return new SmokeArtifact(
        URL,
        "m",
        Instant.parse("2026-01-02T03:04:05.678Z"),
        true,
        null,
        Duration.ofSeconds(60),
        null,
        200,
        List.of("m"),
        URL.resolve("/v1/chat/completions"),
        SmokeTest.requestBody("m"),
        200,
        "text/event-stream",
        stream,
        0,
        1_000_000L,
        9_876_543L,
        List.of());
  }

  @Test
  @DisplayName(
      "a passed artifact is valid; its timings are milliseconds with microsecond precision")
  void passedIsValid() {
    ObjectNode json = passed().toJson();
    assertThat(SCHEMA.validate(json)).isEmpty();
    assertThat(json.at("/timings/ttft_ms").decimalValue()).isEqualByComparingTo("4.5");
    assertThat(json.at("/timings/total_ms").decimalValue()).isEqualByComparingTo("9.876");
    assertThat(json.get("timestamp").asString()).isEqualTo("2026-01-02T03:04:05.678Z");
  }

  @Test
  @DisplayName("canonical bytes are stable: the same artifact always hashes the same")
  void canonical() {
    assertThat(CanonicalJson.bytes(passed().toJson()))
        .isEqualTo(CanonicalJson.bytes(passed().toJson()));
  }

  @Test
  @DisplayName("the schema rejects success with a reason, a non-2xx status, or a missing model")
  void schemaHasTeeth() {
    ObjectNode withReason = passed().toJson();
    withReason.put("reason", "but it failed");
    assertThat(SCHEMA.validate(withReason))
        .extracting(SchemaValidator.Problem::pointer)
        .contains("/reason");

    ObjectNode badStatus = passed().toJson();
    ((ObjectNode) badStatus.get("http_status")).put("chat_completions", 500);
    assertThat(SCHEMA.validate(badStatus))
        .extracting(SchemaValidator.Problem::pointer)
        .contains("/http_status/chat_completions");

    ObjectNode noModel = passed().toJson();
    noModel.remove("model");
    assertThat(SCHEMA.validate(noModel)).isNotEmpty();

    ObjectNode failedWithoutReason = passed().toJson();
    failedWithoutReason.put("success", false);
    assertThat(SCHEMA.validate(failedWithoutReason))
        .extracting(SchemaValidator.Problem::pointer)
        .contains("/reason");

    JsonNode wrongVersion = passed().toJson().put("schema_version", "2");
    assertThat(SCHEMA.validate(wrongVersion))
        .extracting(SchemaValidator.Problem::pointer)
        .contains("/schema_version");
  }

  @Test
  @DisplayName("the record refuses inconsistent states: success with a reason, failure without one")
  void recordValidates() {
    SmokeArtifact ok = passed();
    assertThatThrownBy(
            () ->
                new SmokeArtifact(
                    URL,
                    "m",
                    ok.timestamp(),
                    true,
                    "x",
                    ok.timeout(),
                    null,
                    200,
                    List.of("m"),
                    ok.chatUrl(),
                    ok.requestBody(),
                    200,
                    null,
                    ok.stream(),
                    0,
                    1L,
                    1L,
                    List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new SmokeArtifact(
                    URL,
                    "m",
                    ok.timestamp(),
                    false,
                    " ",
                    ok.timeout(),
                    null,
                    null,
                    null,
                    ok.chatUrl(),
                    ok.requestBody(),
                    null,
                    null,
                    null,
                    0,
                    null,
                    null,
                    List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new SmokeArtifact(
                    URL,
                    "m",
                    ok.timestamp(),
                    true,
                    null,
                    ok.timeout(),
                    null,
                    200,
                    List.of("m"),
                    ok.chatUrl(),
                    ok.requestBody(),
                    503,
                    null,
                    ok.stream(),
                    0,
                    1L,
                    1L,
                    List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
