package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.lines;
import static dev.benchplan.trace.TraceFiles.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Jackson-free JSON text of a report is the same document as {@code toJson()}. */
class ReportJsonTest {
  @TempDir Path dir;

  private List<TraceReport> reports() {
    Path weird = dir.resolve("we\"ird \\ tr\u00e9ce\t.jsonl");
    TraceFiles.text(dir, ""); // the temp dir exists
    try {
      java.nio.file.Files.writeString(weird, row(0, 5, 5) + "\n{\"input_length\": \"\\u0001\\\"x\"}\n"
          + "{\"a\": \"\u00e9\", \"input_length\": 0.5}\n\u0001\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return List.of(
        TraceScanner.scan(SharedData.require("mooncake/conversation_trace.jsonl"),
            TraceScanOptions.defaults().withMaxContext(20000L).withWindow(0L, 60000L)),
        TraceScanner.scan(SharedData.require("aiperf/production_trace.jsonl"),
            TraceScanOptions.defaults()),
        TraceScanner.scan(weird, TraceScanOptions.defaults().withWindow(null, 5L)),
        TraceFiles.scan(lines(dir, "")));
  }

  @Test
  @DisplayName("toJsonText() parses to exactly toJson(), and is laid out as Jackson prints it")
  void sameDocument() {
    for (TraceReport r : reports()) {
      String text = r.toJsonText();
      String jackson = Json.JSON.writeValueAsString(r.toJson());
      assertThat(text).isEqualTo(jackson);
      assertThat(Json.JSON.readTree(text)).isEqualTo(Json.JSON.readTree(jackson));
    }
  }
}
