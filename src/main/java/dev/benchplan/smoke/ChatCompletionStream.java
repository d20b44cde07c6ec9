package dev.benchplan.smoke;

import dev.benchplan.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Folds the server-sent events of one streaming {@code /v1/chat/completions} response into a {@link
 * StreamSummary}: content deltas, the finish reason, the final usage chunk and {@code [DONE]}, and
 * the time of the first token. A data field that is not a JSON object, or an error the server sends
 * inside the stream, ends the smoke test.
 */
final class ChatCompletionStream {
  private final long sentNanos;
  private final StringBuilder preview = new StringBuilder();
  private final List<String> warnings = new ArrayList<>();
  private int contentChars;
  private int reasoningChars;
  private int chunks;
  private int events;
  private boolean doneSeen;
  private @Nullable String finishReason;
  private @Nullable JsonNode usage;
  private @Nullable String responseModel;
  private @Nullable Long firstTokenNanos;

  /** A stream whose request was sent at sentNanos ({@link System#nanoTime()}). */
  ChatCompletionStream(long sentNanos) {
    this.sentNanos = sentNanos;
  }

  /**
   * Takes one event that arrived at nowNanos.
   *
   * @throws SmokeFailure malformed data or an error reported by the server
   */
  void accept(SseEvent event, long nowNanos) throws SmokeFailure {
    events++;
    String data = event.data();
    if (doneSeen) {
      warnings.add("event after [DONE] ignored (line " + event.line() + ")");
      return;
    }
    if (data.strip().equals("[DONE]")) {
      doneSeen = true;
      return;
    }
    JsonNode chunk;
    try {
      chunk = Json.JSON.readTree(data);
    } catch (JacksonException e) {
      throw new SmokeFailure(
          "malformed SSE: event "
              + events
              + " (line "
              + event.line()
              + "): data is not JSON: "
              + ServerMessage.excerpt(data));
    }
    if (chunk.has("error") || event.type().equals("error")) {
      throw new SmokeFailure(
          "the server reported an error in the stream: "
              + ServerMessage.fromJson(chunk).orElse(ServerMessage.excerpt(data)));
    }
    if (!chunk.isObject()) {
      throw new SmokeFailure(
          "malformed SSE: event "
              + events
              + " (line "
              + event.line()
              + "): expected a chat.completion.chunk object, got "
              + ServerMessage.excerpt(data));
    }
    chunks++;
    if (chunk.path("model").isString()) {
      responseModel = chunk.get("model").asString();
    }
    JsonNode u = chunk.get("usage");
    if (u != null && u.isObject()) {
      usage = u;
    }
    JsonNode choices = chunk.get("choices");
    if (choices != null && !choices.isNull() && !choices.isArray()) {
      throw new SmokeFailure(
          "malformed SSE: event "
              + events
              + " (line "
              + event.line()
              + "): /choices is not an array");
    }
    if (choices == null) {
      return;
    }
    for (JsonNode choice : choices) {
      JsonNode delta = choice.path("delta");
      String content = text(delta.get("content"));
      // reasoning models stream their thinking first; it is generated output all the same
      String reasoning =
          text(
              delta.has("reasoning_content")
                  ? delta.get("reasoning_content")
                  : delta.get("reasoning"));
      if (!content.isEmpty()) {
        contentChars += content.length();
        int room = StreamSummary.PREVIEW_CHARS - preview.length();
        if (room > 0) {
          preview.append(content, 0, Math.min(room, content.length()));
        }
      }
      reasoningChars += reasoning.length();
      if (firstTokenNanos == null && (!content.isEmpty() || !reasoning.isEmpty())) {
        firstTokenNanos = Math.max(0, nowNanos - sentNanos);
      }
      JsonNode finish = choice.get("finish_reason");
      if (finish != null && finish.isString()) {
        finishReason = finish.asString();
      }
    }
  }

  private static String text(JsonNode node) {
    return node != null && node.isString() ? node.asString() : "";
  }

  /** True once {@code data: [DONE]} arrived: nothing more is expected. */
  boolean doneSeen() {
    return doneSeen;
  }

  /** Warnings collected so far (events after [DONE]). */
  List<String> warnings() {
    return List.copyOf(warnings);
  }

  StreamSummary summary() {
    String p = preview.toString();
    // never cut a surrogate pair in half
    if (!p.isEmpty() && Character.isHighSurrogate(p.charAt(p.length() - 1))) {
      p = p.substring(0, p.length() - 1);
    }
    return new StreamSummary(
        p,
        contentChars,
        reasoningChars,
        finishReason,
        usage,
        responseModel,
        chunks,
        doneSeen,
        firstTokenNanos);
  }
}
