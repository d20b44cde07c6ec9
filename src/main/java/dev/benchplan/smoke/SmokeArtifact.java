package dev.benchplan.smoke;

import dev.benchplan.json.Json;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The smoke-test artifact (schemas/smoke-artifact.schema.json, {@code schema_version} "1"): the
 * evidence that an endpoint served a model, which the deployment ledger and {@code plan} reference
 * by path and SHA-256. It records what was sent and received, never an API key.
 *
 * @param url the endpoint's base URL
 * @param model the model that had to be served
 * @param timestamp when the smoke test started (UTC)
 * @param success whether the endpoint passed
 * @param reason why it failed, {@code null} on success
 * @param timeout the bound on the whole test
 * @param apiKeyEnv the variable the API key came from, or {@code null}; the key itself is never
 *     kept
 * @param modelsStatus the HTTP status of {@code GET /v1/models}, {@code null} when no response
 * @param servedModels the model ids it listed, {@code null} when not read
 * @param chatUrl the URL of the chat completion request
 * @param requestBody the exact JSON body of the chat completion request
 * @param chatStatus the HTTP status of the chat completion, {@code null} when not sent or no
 *     response
 * @param contentType the chat completion's Content-Type, or {@code null}
 * @param stream what the stream delivered, {@code null} when no stream was read
 * @param sseComments comment lines (keep-alives) in the stream
 * @param modelsNanos the duration of {@code GET /v1/models}, or {@code null}
 * @param totalNanos from sending the chat completion to its end (or to the failure), or {@code
 *     null}
 * @param warnings things that did not fail the test but a reader should know
 */
public record SmokeArtifact(
    EndpointUrl url,
    String model,
    Instant timestamp,
    boolean success,
    @Nullable String reason,
    Duration timeout,
    @Nullable String apiKeyEnv,
    @Nullable Integer modelsStatus,
    @Nullable List<String> servedModels,
    URI chatUrl,
    JsonNode requestBody,
    @Nullable Integer chatStatus,
    @Nullable String contentType,
    @Nullable StreamSummary stream,
    long sseComments,
    @Nullable Long modelsNanos,
    @Nullable Long totalNanos,
    List<String> warnings) {
  /** The version of the artifact's layout. */
  public static final String SCHEMA_VERSION = "1";

  public SmokeArtifact {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(chatUrl, "chatUrl");
    Objects.requireNonNull(requestBody, "requestBody");
    servedModels = servedModels == null ? null : List.copyOf(servedModels);
    warnings = List.copyOf(warnings);
    if (success) {
      if (reason != null) {
        throw new IllegalArgumentException("a successful smoke test has no reason");
      }
      if (stream == null
          || stream.firstTokenNanos() == null
          || totalNanos == null
          || !is2xx(modelsStatus)
          || !is2xx(chatStatus)) {
        throw new IllegalArgumentException(
            "a successful smoke test has both 2xx calls, a stream and timings");
      }
    } else if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("a failed smoke test needs a reason");
    }
  }

  private static boolean is2xx(@Nullable Integer status) {
    return status != null && status / 100 == 2;
  }

  /** Time to first token in milliseconds, or {@code null}. */
  public @Nullable BigDecimal ttftMs() {
    return stream == null ? null : millis(stream.firstTokenNanos());
  }

  /** Total latency of the chat completion in milliseconds, or {@code null}. */
  public @Nullable BigDecimal totalMs() {
    return millis(totalNanos);
  }

  /** Nanoseconds as milliseconds with microsecond precision. */
  static @Nullable BigDecimal millis(@Nullable Long nanos) {
    return nanos == null ? null : BigDecimal.valueOf(nanos / 1000, 3);
  }

  /** The artifact as JSON (schemas/smoke-artifact.schema.json). */
  public ObjectNode toJson() {
    ObjectNode root = Json.JSON.createObjectNode();
    root.put("schema_version", SCHEMA_VERSION);
    root.put("success", success);
    root.put("reason", reason);
    root.put("url", url.toString());
    root.put("model", model);
    root.put("timestamp", timestamp.toString());
    root.put("timeout_ms", timeout.toMillis());
    root.put("api_key_env", apiKeyEnv);

    ObjectNode status = root.putObject("http_status");
    status.put("models", modelsStatus);
    status.put("chat_completions", chatStatus);

    ObjectNode models = root.putObject("models");
    models.put("url", url.resolve("/v1/models").toString());
    if (servedModels == null) {
      models.putNull("served");
    } else {
      ArrayNode served = models.putArray("served");
      servedModels.forEach(served::add);
    }

    ObjectNode request = root.putObject("request");
    request.put("sent", chatStatus != null || stream != null);
    request.put("method", "POST");
    request.put("url", chatUrl.toString());
    request.set("body", requestBody.deepCopy());

    if (stream == null) {
      root.putNull("response");
    } else {
      ObjectNode response = root.putObject("response");
      response.put("content_type", contentType);
      response.put("content_preview", stream.contentPreview());
      response.put("content_chars", stream.contentChars());
      response.put("reasoning_chars", stream.reasoningChars());
      response.put("finish_reason", stream.finishReason());
      response.set("usage", stream.usage() == null ? null : stream.usage().deepCopy());
      response.put("model", stream.responseModel());
      response.put("chunks", stream.chunks());
      response.put("done_seen", stream.doneSeen());
      response.put("sse_comments", sseComments);
    }

    ObjectNode timings = root.putObject("timings");
    timings.put("models_ms", millis(modelsNanos));
    timings.put("ttft_ms", ttftMs());
    timings.put("total_ms", totalMs());

    ArrayNode w = root.putArray("warnings");
    warnings.forEach(w::add);
    return root;
  }
}
