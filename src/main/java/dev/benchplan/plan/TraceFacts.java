package dev.benchplan.plan;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The facts planning needs from a trace report ({@code trace inspect --format json} keys): the
 * whole trace's, and those of the rows a replay sends ({@link #replayed(TraceWindow)}: the window's
 * rows when there is a window, else the whole trace's). Every replay check (context, error rate,
 * samples) reads {@link #replayed(TraceWindow)}; the whole-trace figures stay beside them for the
 * record.
 *
 * @param path the trace path as reported
 * @param rows data rows
 * @param timestampRows rows that carry a timestamp
 * @param minMs smallest timestamp, or null
 * @param maxMs largest timestamp, or null
 * @param rowsOverContext rows of the whole trace whose input + output exceed the served context, or
 *     null when unknown
 * @param firstOverContextLines line numbers of the first such rows
 * @param problemsTotal invalid-row problems
 * @param firstProblems the first few problems, as "line N field: message"
 * @param nonMonotonicRows rows whose timestamp is smaller than the previous row's
 * @param window the window's own figures, or null without a window
 */
public record TraceFacts(
    String path,
    long rows,
    long timestampRows,
    Long minMs,
    Long maxMs,
    Long rowsOverContext,
    List<Long> firstOverContextLines,
    long problemsTotal,
    List<String> firstProblems,
    long nonMonotonicRows,
    @Nullable Window window) {
  public TraceFacts {
    firstOverContextLines = List.copyOf(firstOverContextLines);
    firstProblems = List.copyOf(firstProblems);
  }

  /**
   * The rows of an explicit replay window ({@code window} in the report).
   *
   * @param rows rows with a timestamp in the window
   * @param firstMs smallest timestamp in the window, or null when it is empty
   * @param lastMs largest timestamp in the window, or null
   * @param rowsOverContext the window's rows over the served context, or null when unknown
   * @param firstOverContextLines line numbers of the first such rows
   */
  public record Window(
      long rows,
      Long firstMs,
      Long lastMs,
      @Nullable Long rowsOverContext,
      List<Long> firstOverContextLines) {
    public Window {
      firstOverContextLines = List.copyOf(firstOverContextLines);
    }
  }

  /**
   * What a replay sends, from one scan: the window's rows, or the whole trace.
   *
   * @param rows rows replayed
   * @param rowsOverContext rows replayed over the served context (known to fail), or null when the
   *     context is unknown
   * @param firstOverContextLines line numbers of the first such rows
   * @param label "the window START:END" or "the trace", for messages
   */
  public record Replay(
      long rows, @Nullable Long rowsOverContext, List<Long> firstOverContextLines, String label) {}

  /** Reads the facts from a trace report (the plan's typed copy of it). */
  public static TraceFacts of(BenchmarkPlan.Trace report) {
    List<String> problems = new ArrayList<>();
    for (BenchmarkPlan.TraceProblem p : report.problems()) {
      if (problems.size() == 3) {
        break;
      }
      problems.add(
          "line "
              + p.line()
              + " "
              + (p.field() == null ? "" : p.field())
              + ": "
              + (p.message() == null ? "" : p.message()));
    }
    BenchmarkPlan.TimestampStats ts = report.timestampMs();
    BenchmarkPlan.ContextStats context = report.context();
    BenchmarkPlan.TraceWindowRows w = report.window();
    Window window =
        w == null
            ? null
            : new Window(
                w.rows(),
                w.firstMs(),
                w.lastMs(),
                w.context() == null ? null : w.context().rowsOverLimit(),
                w.context() == null ? List.of() : w.context().firstOverLimitLines());
    return new TraceFacts(
        report.path() == null ? "" : report.path(),
        report.rows(),
        ts.presentRows(),
        ts.min(),
        ts.max(),
        context.rowsOverLimit(),
        context.firstOverLimitLines(),
        report.problemsTotal(),
        problems,
        ts.nonMonotonicRows(),
        window);
  }

  /** Rows inside the explicit window, or null without a window. */
  public @Nullable Long windowRows() {
    return window == null ? null : window.rows();
  }

  /** The rows a replay sends: the window's when there is one, else the whole trace's. */
  public Replay replayed(@Nullable TraceWindow w) {
    return window == null
        ? new Replay(rows, rowsOverContext, firstOverContextLines, "the trace")
        : new Replay(
            window.rows(),
            window.rowsOverContext(),
            window.firstOverContextLines(),
            "the window " + w);
  }

  /** The timestamp span in ms of the whole trace, or null without timestamps. */
  public @Nullable Long spanMs() {
    return minMs == null || maxMs == null ? null : maxMs - minMs;
  }
}
