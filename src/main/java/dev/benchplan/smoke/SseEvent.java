package dev.benchplan.smoke;

import java.util.Objects;

/**
 * One dispatched server-sent event (WHATWG HTML, "event stream interpretation").
 *
 * @param type the {@code event:} field, {@code "message"} when absent
 * @param data the {@code data:} fields joined by line feeds
 * @param id the last event id seen so far ({@code ""} when none)
 * @param line the 1-based line of the stream on which the event was dispatched (its blank line)
 */
public record SseEvent(String type, String data, String id, long line) {
  public SseEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(id, "id");
    if (line < 1) {
      throw new IllegalArgumentException("line must be >= 1, got " + line);
    }
  }
}
