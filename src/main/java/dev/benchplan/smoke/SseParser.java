package dev.benchplan.smoke;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An incremental server-sent-events parser following the WHATWG event-stream rules: bytes arrive in
 * arbitrary pieces (a line, a field or a UTF-8 character may be split across network reads); lines
 * end with LF, CR or CRLF (a CRLF split across two reads counts once); lines starting with a colon
 * are comments; a field without a colon has an empty value; one space after the colon is dropped;
 * several {@code data:} lines of one event are joined with LF; a blank line dispatches the event;
 * an event without data is not dispatched; a leading byte-order mark is ignored.
 *
 * <p>Lines are cut on bytes (CR and LF never occur inside a multi-byte UTF-8 sequence) and decoded
 * whole, so split characters need no special care. Not thread-safe: one parser per stream.
 */
public final class SseParser {
  /** Longest line accepted; a longer one means the peer is not speaking SSE. */
  public static final int MAX_LINE_BYTES = 1 << 20;

  private final Consumer<SseEvent> listener;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
  private final StringBuilder data = new StringBuilder();
  private boolean previousWasCr;
  private boolean firstLine = true;
  private boolean dataSeen;
  private String eventType = "";
  private String lastEventId = "";
  private long lineNumber;
  private long comments;
  private long bytes;

  /** A parser that hands every dispatched event to listener. */
  public SseParser(Consumer<SseEvent> listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Feeds the next piece of the stream; listener is called for each event it completes. */
  public void feed(byte[] buffer, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, buffer.length);
    bytes += length;
    for (int i = offset; i < offset + length; i++) {
      byte b = buffer[i];
      if (b == '\n') {
        if (previousWasCr) {
          previousWasCr = false; // the LF of a CRLF: the line already ended at the CR
        } else {
          endLine();
        }
      } else if (b == '\r') {
        endLine();
        previousWasCr = true;
      } else {
        previousWasCr = false;
        if (line.size() >= MAX_LINE_BYTES) {
          throw new SseFormatException(
              "line " + (lineNumber + 1) + " is longer than " + MAX_LINE_BYTES + " bytes");
        }
        line.write(b);
      }
    }
  }

  /** Feeds a whole array. */
  public void feed(byte[] buffer) {
    feed(buffer, 0, buffer.length);
  }

  /**
   * Ends the stream. An event still being built (no blank line after it) is discarded, as the
   * standard says; its data is returned so the caller can report a truncated stream.
   *
   * @return the data of the discarded event, or {@code null} when the stream ended cleanly
   */
  public @Nullable String finish() {
    String pending = null;
    if (line.size() > 0) {
      endLine(); // an unterminated last line still belongs to the (discarded) event
    }
    if (dataSeen) {
      pending = withoutTrailingLf(data);
    }
    data.setLength(0);
    dataSeen = false;
    eventType = "";
    return pending;
  }

  /** Lines read so far. */
  public long lines() {
    return lineNumber;
  }

  /** Comment lines (starting with a colon) read so far; servers send them as keep-alives. */
  public long comments() {
    return comments;
  }

  /** Bytes fed so far. */
  public long bytes() {
    return bytes;
  }

  private void endLine() {
    lineNumber++;
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (firstLine) {
      firstLine = false;
      if (text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
    }
    if (text.isEmpty()) {
      dispatch();
      return;
    }
    if (text.charAt(0) == ':') {
      comments++;
      return;
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    switch (field) {
      case "data" -> {
        data.append(value).append('\n');
        dataSeen = true;
      }
      case "event" -> eventType = value;
      case "id" -> {
        if (value.indexOf('\0') < 0) {
          lastEventId = value;
        }
      }
      default -> {
        // "retry" and unknown fields carry nothing a one-shot client needs
      }
    }
  }

  private void dispatch() {
    if (!dataSeen) {
      eventType = "";
      return;
    }
    String type = eventType.isEmpty() ? "message" : eventType;
    String payload = withoutTrailingLf(data);
    data.setLength(0);
    dataSeen = false;
    eventType = "";
    listener.accept(new SseEvent(type, payload, lastEventId, lineNumber));
  }

  private static String withoutTrailingLf(StringBuilder sb) {
    int n = sb.length();
    return n > 0 && sb.charAt(n - 1) == '\n' ? sb.substring(0, n - 1) : sb.toString();
  }
}
