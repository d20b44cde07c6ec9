package dev.benchplan.smoke;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a streamed chat completion delivered.
 *
 * @param contentPreview the first {@value #PREVIEW_CHARS} characters of the content
 * @param contentChars the length of the whole content
 * @param reasoningChars the length of reasoning text ({@code reasoning_content} deltas of reasoning
 *     models), 0 when none
 * @param finishReason the last non-null {@code finish_reason}, or {@code null}
 * @param usage the {@code usage} object of the final chunk, or {@code null} when none came
 * @param responseModel the {@code model} the chunks named, or {@code null}
 * @param chunks the number of JSON chunks (data events other than {@code [DONE]})
 * @param doneSeen whether {@code data: [DONE]} arrived
 * @param firstTokenNanos nanoseconds from sending the request to the first non-empty content (or
 *     reasoning) delta, or {@code null} when none came
 */
public record StreamSummary(
    String contentPreview,
    int contentChars,
    int reasoningChars,
    @Nullable String finishReason,
    @Nullable JsonNode usage,
    @Nullable String responseModel,
    int chunks,
    boolean doneSeen,
    @Nullable Long firstTokenNanos) {
  /** How much of the content the artifact keeps. */
  public static final int PREVIEW_CHARS = 200;

  public StreamSummary {
    Objects.requireNonNull(contentPreview, "contentPreview");
    if (contentPreview.length() > PREVIEW_CHARS
        || contentChars < contentPreview.length()
        || reasoningChars < 0
        || chunks < 0) {
      throw new IllegalArgumentException("inconsistent stream summary");
    }
    if (firstTokenNanos != null && firstTokenNanos < 0) {
      throw new IllegalArgumentException("firstTokenNanos must be >= 0");
    }
  }
}
