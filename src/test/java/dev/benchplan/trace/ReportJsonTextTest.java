package dev.benchplan.trace;

import static dev.benchplan.trace.TraceFiles.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TraceReport#toJsonText()} (what {@code trace inspect --format json} prints, written
 * without Jackson) is byte for byte what Jackson's pretty printer writes for {@link
 * TraceReport#toJson()}.
 */
class ReportJsonTextTest {
  @TempDir Path dir;

  private List<TraceReport> reports() throws IOException {
    List<TraceReport> reports = new ArrayList<>();
    // a path and messages with quotes, backslashes, a tab, a control character and non-ASCII
    Path odd = dir.resolve("we\"ird \\ tr\u00e9ce\t\u0001.jsonl");
    Files.writeString(
        odd,
        row(0, 5, 5)
            + "\n{\"input_length\": \"\\u0001\\\"x\"}\n"
            + "{\"a\": \"\u00e9\", \"input_length\": 0.5}\n\u0001\n"
            + "{\"timestamp\": 9, \"input_length\": 1e400, \"hash_ids\": [1, \"\\u2028\"]}\n");
    reports.add(TraceScanner.scan(odd, TraceScanOptions.defaults().withWindow(null, 5L)));
    reports.add(TraceFiles.scan(TraceFiles.lines(dir, "")));
    reports.add(TraceFiles.scan(TraceFiles.lines(dir, row(1, 2, 3))));
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 150; i++) {
      many.append("{\"input_length\": -").append(i).append("}\n");
    }
    reports.add(TraceFiles.scan(TraceFiles.text(dir, many.toString())));
    reports.add(
        TraceScanner.scan(
            SharedData.require("mooncake/conversation_trace.jsonl"),
            TraceScanOptions.defaults().withMaxContext(20000L).withWindow(0L, 60000L)));
    reports.add(
        TraceScanner.scan(
            SharedData.require("mooncake/synthetic_trace.jsonl"), TraceScanOptions.defaults()));
    reports.add(
        TraceScanner.scan(
            SharedData.require("aiperf/production_trace.jsonl"), TraceScanOptions.defaults()));
    return reports;
  }

  @Test
  @DisplayName("toJsonText() is exactly Jackson's pretty text of toJson(), for odd and real traces")
  void sameBytesAsJackson() throws IOException {
    for (TraceReport r : reports()) {
      String jackson = Json.JSON.writeValueAsString(r.toJson());
      assertThat(r.toJsonText()).isEqualTo(jackson);
    }
  }

  @Test
  @DisplayName("the text covers every kind of value: nulls, doubles, lists, escapes, empty lists")
  void coversEveryKind() throws IOException {
    String all = String.join("\n", reports().stream().map(TraceReport::toJsonText).toList());
    assertThat(all)
        .contains(" : null", "\"mean\" : 12035.", "[ ]", "\\\"", "\\\\", "\\t", "\\u0001")
        .containsPattern("\"first_over_limit_lines\" : \\[ \\d+, \\d");
  }
}
