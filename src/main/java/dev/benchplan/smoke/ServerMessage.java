package dev.benchplan.smoke;

import dev.benchplan.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The human-readable message in an error response. Servers put it in different places: OpenAI and
 * vLLM {@code {"error": {"message": ...}}}, others {@code {"error": "..."}}, {@code {"message":
 * ...}} or FastAPI's {@code {"detail": ...}}; anything else is shown as an excerpt of the body.
 */
final class ServerMessage {
  private static final int EXCERPT_CHARS = 300;

  private ServerMessage() {}

  /** The message of an error body, or an excerpt of the body, or "(empty body)". */
  static String fromBody(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    if (text.isBlank()) {
      return "(empty body)";
    }
    try {
      return fromJson(Json.JSON.readTree(text)).orElse(excerpt(text));
    } catch (JacksonException e) {
      return excerpt(text);
    }
  }

  /** The message in a parsed error document, if it has one where servers put it. */
  static Optional<String> fromJson(JsonNode doc) {
    JsonNode error = doc.get("error");
    if (error != null && error.isObject()) {
      JsonNode message = error.get("message");
      if (message != null && message.isString()) {
        String type =
            error.path("type").isString() ? " (" + error.get("type").asString() + ")" : "";
        return Optional.of(excerpt(message.asString()) + type);
      }
      return Optional.of(excerpt(error.toString()));
    }
    for (String field : new String[] {"error", "message", "detail"}) {
      JsonNode node = doc.get(field);
      if (node != null && node.isString()) {
        return Optional.of(excerpt(node.asString()));
      }
      if (node != null && !node.isNull() && !node.isMissingNode()) {
        return Optional.of(excerpt(node.toString()));
      }
    }
    return Optional.empty();
  }

  /** One line of at most {@value #EXCERPT_CHARS} characters. */
  static String excerpt(String text) {
    String oneLine = text.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= EXCERPT_CHARS
        ? oneLine
        : oneLine.substring(0, EXCERPT_CHARS) + "...";
  }
}
