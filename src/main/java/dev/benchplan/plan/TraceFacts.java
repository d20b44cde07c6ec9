package dev.benchplan.plan;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The facts planning needs from a trace report ({@code trace inspect --format json} keys).
 *
 * @param path the trace path as reported
 * @param rows data rows
 * @param timestampRows rows that carry a timestamp
 * @param minMs smallest timestamp, or null
 * @param maxMs largest timestamp, or null
 * @param windowRows rows inside the explicit window, or null without a window
 * @param rowsOverContext rows whose input + output exceed the served context, or null when unknown
 * @param firstOverContextLines line numbers of the first such rows
 * @param problemsTotal invalid-row problems
 * @param firstProblems the first few problems, as "line N field: message"
 */
public record TraceFacts(String path, long rows, long timestampRows, Long minMs, Long maxMs,
    Long windowRows, Long rowsOverContext, List<Long> firstOverContextLines, long problemsTotal,
    List<String> firstProblems) {
  public TraceFacts {
    firstOverContextLines = List.copyOf(firstOverContextLines);
    firstProblems = List.copyOf(firstProblems);
  }

  /** Reads the facts from a report. */
  public static TraceFacts of(ObjectNode report) {
    List<Long> over = new ArrayList<>();
    report.at("/context/first_over_limit_lines").forEach(n -> over.add(n.asLong()));
    List<String> problems = new ArrayList<>();
    for (JsonNode p : report.path("problems")) {
      if (problems.size() == 3) {
        break;
      }
      problems.add("line " + p.path("line").asString("?") + " " + p.path("field").asString("")
          + ": " + p.path("message").asString(""));
    }
    JsonNode window = report.path("window");
    return new TraceFacts(report.path("path").asString(""), report.path("rows").asLong(),
        report.at("/timestamp_ms/present_rows").asLong(),
        number(report.at("/timestamp_ms/min")), number(report.at("/timestamp_ms/max")),
        window.isObject() ? window.path("rows").asLong() : null,
        number(report.at("/context/rows_over_limit")), over,
        report.path("problems_total").asLong(), problems);
  }

  private static Long number(JsonNode n) {
    return n.isNumber() ? n.asLong() : null;
  }

  /** The timestamp span in ms of the whole trace, or null without timestamps. */
  public Long spanMs() {
    return minMs == null || maxMs == null ? null : maxMs - minMs;
  }
}
