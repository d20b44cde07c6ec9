package dev.benchplan.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SseParserTest {
  private final List<SseEvent> events = new ArrayList<>();
  private final SseParser parser = new SseParser(events::add);

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private List<String> data() {
    return events.stream().map(SseEvent::data).toList();
  }

  @Test
  @DisplayName("a stream fed one byte at a time gives the same events as fed whole")
  void byteAtATime() {
    String stream =
        "data: {\"a\":1}\n\ndata: {\"b\":\"h\u00e9llo \u4e16\u754c \ud83d\ude00\"}\n\ndata: [DONE]\n\n";
    for (byte b : utf8(stream)) {
      parser.feed(new byte[] {b});
    }
    assertThat(data())
        .containsExactly("{\"a\":1}", "{\"b\":\"h\u00e9llo \u4e16\u754c \ud83d\ude00\"}", "[DONE]");
    assertThat(parser.finish()).isNull();
  }

  @Test
  @DisplayName("every split point of a stream (two reads) gives the same events")
  void everySplitPoint() {
    byte[] stream = utf8(": keep-alive\r\ndata: x\u00e9\r\n\r\nevent: e\rdata: y\r\rdata:z\n\n");
    for (int cut = 0; cut <= stream.length; cut++) {
      List<SseEvent> got = new ArrayList<>();
      SseParser p = new SseParser(got::add);
      p.feed(Arrays.copyOfRange(stream, 0, cut));
      p.feed(Arrays.copyOfRange(stream, cut, stream.length));
      assertThat(got)
          .as("cut at %d", cut)
          .extracting(SseEvent::data)
          .containsExactly("x\u00e9", "y", "z");
      assertThat(got)
          .as("cut at %d", cut)
          .extracting(SseEvent::type)
          .containsExactly("message", "e", "message");
      assertThat(p.comments()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("a CRLF split across two reads ends one line, not two (no phantom blank line)")
  void crlfSplit() {
    parser.feed(utf8("data: a\r"));
    parser.feed(utf8("\ndata: b\r"));
    parser.feed(utf8("\n\r"));
    parser.feed(utf8("\n"));
    assertThat(data()).containsExactly("a\nb");
  }

  @Test
  @DisplayName("comments and extra blank lines are skipped; multi-line data is joined with LF")
  void commentsBlankLinesMultiLineData() {
    parser.feed(utf8(": ping\n\n\n:\n\ndata: line one\ndata:line two\ndata\ndata:  indented\n\n"));
    assertThat(data()).containsExactly("line one\nline two\n\n indented");
    assertThat(parser.comments()).isEqualTo(2);
  }

  @Test
  @DisplayName(
      "event, id and unknown fields: the type and last id are kept, unknown fields ignored")
  void fields() {
    parser.feed(utf8("id: 7\nevent: error\nretry: 10\nfoo: bar\ndata: {}\n\ndata: x\n\n"));
    assertThat(events).hasSize(2);
    assertThat(events.get(0)).isEqualTo(new SseEvent("error", "{}", "7", 6));
    assertThat(events.get(1).type()).isEqualTo("message");
    assertThat(events.get(1).id()).isEqualTo("7");
  }

  @Test
  @DisplayName("an event without data is not dispatched; an empty data field is")
  void emptyEvents() {
    parser.feed(utf8("event: nothing\n\ndata:\n\n"));
    assertThat(events).extracting(SseEvent::data).containsExactly("");
    assertThat(events.get(0).type()).isEqualTo("message");
  }

  @Test
  @DisplayName("a leading byte-order mark is ignored")
  void bom() {
    parser.feed(new byte[] {(byte) 0xEF, (byte) 0xBB});
    parser.feed(concat(new byte[] {(byte) 0xBF}, utf8("data: a\n\n")));
    assertThat(data()).containsExactly("a");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  @Test
  @DisplayName("an event cut off by the end of the stream is discarded and reported by finish()")
  void truncated() {
    parser.feed(utf8("data: whole\n\ndata: {\"half\":"));
    assertThat(data()).containsExactly("whole");
    assertThat(parser.finish()).isEqualTo("{\"half\":");
    assertThat(data()).containsExactly("whole");
  }

  @Test
  @DisplayName("a line longer than the limit is rejected instead of buffered without end")
  void endlessLine() {
    byte[] junk = new byte[SseParser.MAX_LINE_BYTES + 1];
    Arrays.fill(junk, (byte) 'x');
    assertThatThrownBy(() -> parser.feed(junk))
        .isInstanceOf(SseFormatException.class)
        .hasMessage("line 1 is longer than " + SseParser.MAX_LINE_BYTES + " bytes");
  }
}
