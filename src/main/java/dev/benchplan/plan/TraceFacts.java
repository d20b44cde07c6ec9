package dev.benchplan.plan;

import java.util.ArrayList;
import java.util.List;

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

  /** Reads the facts from a trace report. */
  public static TraceFacts of(BenchmarkPlan.Trace report) {
    List<String> problems = new ArrayList<>();
    for (BenchmarkPlan.TraceProblem p : report.problems()) {
      if (problems.size() == 3) {
        break;
      }
      problems.add("line " + p.line() + " " + (p.field() == null ? "" : p.field()) + ": "
          + (p.message() == null ? "" : p.message()));
    }
    BenchmarkPlan.TimestampStats ts = report.timestampMs();
    BenchmarkPlan.ContextStats context = report.context();
    return new TraceFacts(report.path() == null ? "" : report.path(), report.rows(),
        ts.presentRows(), ts.min(), ts.max(),
        report.window() == null ? null : report.window().rows(),
        context.rowsOverLimit(), context.firstOverLimitLines(), report.problemsTotal(), problems);
  }

  /** The timestamp span in ms of the whole trace, or null without timestamps. */
  public Long spanMs() {
    return minMs == null || maxMs == null ? null : maxMs - minMs;
  }
}
