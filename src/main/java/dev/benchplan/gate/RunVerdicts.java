package dev.benchplan.gate;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ErrorCount;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The gate on every measured run of a plan or an AIPerf artifact tree: one verdict per load point
 * and repetition, the overall verdict (error outranks fail outranks pass: exit 1 when any gated run
 * fails, 3 when any could not be decided), and for a grid the capacity under the gates, the highest
 * load point at which every gate holds in every repetition.
 *
 * @param runs one entry per measured run, in load-point order then repetition
 * @param capacity the capacity under the gates; null unless the runs cover more than one load point
 */
public record RunVerdicts(List<Entry> runs, @Nullable Capacity capacity) {
  /**
   * One measured run's verdict.
   *
   * @param loadPoint the load point's value ({@code 16}), or null when the tree has one point
   * @param parameter the swept parameter ({@code concurrency}, {@code request_rate}), or null
   * @param repetition 1-based repetition, or null for a point measured once
   * @param directory AIPerf's folder for the run, relative to the tree ("" for the tree itself)
   * @param verdict the gate on this run alone
   * @param startTime the export's {@code start_time} as written, or null
   * @param endTime the export's {@code end_time} as written, or null
   */
  public record Entry(
      @Nullable String loadPoint,
      @Nullable String parameter,
      @Nullable Integer repetition,
      String directory,
      Verdict verdict,
      @Nullable String startTime,
      @Nullable String endTime) {
    public Entry {
      Objects.requireNonNull(directory, "directory");
      Objects.requireNonNull(verdict, "verdict");
    }

    /** E.g. {@code concurrency 16 #2}, or the directory when there is no load point. */
    public String label() {
      String point =
          loadPoint == null
              ? (directory.isEmpty() ? "the run" : directory)
              : (parameter == null ? "load point" : parameter.replace('_', ' ')) + " " + loadPoint;
      return repetition == null ? point : point + " #" + repetition;
    }
  }

  /**
   * The capacity under the gates.
   *
   * @param loadPoint the highest load point at which every run passes, or null when none does
   * @param parameter the swept parameter, or null
   * @param pointsTried every load point, in order
   * @param message one line saying so
   */
  public record Capacity(
      @Nullable String loadPoint,
      @Nullable String parameter,
      List<String> pointsTried,
      String message) {
    public Capacity {
      pointsTried = List.copyOf(pointsTried);
      Objects.requireNonNull(message, "message");
    }
  }

  public RunVerdicts {
    runs = List.copyOf(runs);
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("at least one measured run");
    }
  }

  /**
   * The per-run verdicts of {@code runs}, with the capacity when they cover several load points.
   */
  public static RunVerdicts of(List<Entry> runs) {
    Map<String, List<Entry>> byPoint = new LinkedHashMap<>();
    String parameter = null;
    for (Entry e : runs) {
      if (e.loadPoint() != null) {
        byPoint.computeIfAbsent(e.loadPoint(), k -> new ArrayList<>()).add(e);
        parameter = parameter == null ? e.parameter() : parameter;
      }
    }
    Capacity capacity = null;
    if (byPoint.size() > 1) {
      String best = null;
      for (Map.Entry<String, List<Entry>> p : byPoint.entrySet()) {
        if (p.getValue().stream().allMatch(e -> e.verdict().verdict() == Status.PASS)) {
          best = p.getKey();
        }
      }
      String what = parameter == null ? "load point" : parameter.replace('_', ' ');
      String tried = String.join(", ", byPoint.keySet());
      capacity =
          new Capacity(
              best,
              parameter,
              List.copyOf(byPoint.keySet()),
              best == null
                  ? "capacity under the gates: none of "
                      + what
                      + " "
                      + tried
                      + " meets every gate in every repetition"
                  : "capacity under the gates: "
                      + what
                      + " "
                      + best
                      + " (the highest of "
                      + tried
                      + " at which every gate holds in every repetition)");
    }
    return new RunVerdicts(runs, capacity);
  }

  /**
   * Gates every run AIPerf wrote under {@code tree} (any layout {@link RunLocator} knows); a run
   * without a summary export is gated on its records file, or is an error verdict.
   */
  public static RunVerdicts gateTree(Path tree, ConstraintSet constraints, GateOptions options) {
    return gateTree(tree, tree, constraints, options);
  }

  /**
   * As {@link #gateTree(Path, ConstraintSet, GateOptions)}, reading the tree at {@code tree} and
   * naming its files below {@code shownAs} (e.g. where a staged tree will be published).
   */
  public static RunVerdicts gateTree(
      Path tree, Path shownAs, ConstraintSet constraints, GateOptions options) {
    List<Entry> out = new ArrayList<>();
    Path base = tree.toAbsolutePath().normalize();
    for (RunSource run : RunLocator.locate(base)) {
      Path dir = run.dir().toAbsolutePath().normalize();
      String[] point = RunLocator.sweepPoint(base, dir);
      Integer repetition = RunLocator.repetition(base, dir);
      Verdict v;
      String startTime = null;
      String endTime = null;
      Path file = Files.isRegularFile(run.summaryFile()) ? run.summaryFile() : run.recordsFile();
      Path shown = shownAs.resolve(base.relativize(file.toAbsolutePath().normalize()).toString());
      try {
        byte[] bytes;
        try {
          bytes = Files.readAllBytes(file);
        } catch (java.io.IOException e) {
          throw BenchplanException.invalid(
              ErrorLocation.file(shown), shown + ": cannot read: " + e.getMessage(), e);
        }
        AiperfExport export = AiperfExportReader.parse(bytes, shown);
        v = GateEvaluator.evaluate(export, constraints, options);
        startTime = export.startTime();
        endTime = export.endTime();
      } catch (BenchplanException e) {
        if (e.exitCode() != dev.benchplan.error.ExitCode.INVALID) {
          throw e;
        }
        v =
            GateEvaluator.runFailed(
                "the AIPerf export of this run is unusable: " + e.getMessage(),
                constraints,
                options,
                VerdictSource.withoutExport(shown.toString(), null));
      }
      out.add(
          new Entry(
              point == null ? null : point[1],
              point == null ? null : point[0],
              repetition,
              base.relativize(dir).toString(),
              v,
              startTime,
              endTime));
    }
    return of(out);
  }

  /** Worst first: error, fail, pass, skip. */
  private static int rank(Status s) {
    return switch (s) {
      case ERROR -> 3;
      case FAIL -> 2;
      case PASS -> 1;
      case SKIP -> 0;
    };
  }

  /**
   * The overall verdict over every run: the worst status; its constraints are those of the first
   * run with that status (for a pass, the last run's, all met); requests are summed.
   *
   * @param sourcePath where the runs were read (the artifact tree)
   */
  public Verdict overall(String sourcePath) {
    Entry worst = runs.get(runs.size() - 1);
    for (Entry e : runs) {
      if (rank(e.verdict().verdict()) > rank(worst.verdict().verdict())) {
        worst = e;
      }
    }
    Status status = worst.verdict().verdict();
    long bad = runs.stream().filter(e -> e.verdict().verdict() == status).count();
    StringBuilder message = new StringBuilder(status.json()).append(": ");
    if (status == Status.PASS) {
      message.append("every gate holds in all ").append(runs.size()).append(" measured runs");
    } else if (status == Status.SKIP) {
      message
          .append("no constraints to gate on (")
          .append(worst.verdict().constraintsSource())
          .append(")");
    } else {
      message
          .append(bad)
          .append(" of ")
          .append(runs.size())
          .append(" measured runs ")
          .append(status == Status.FAIL ? "failed" : "could not be decided")
          .append("; first, ")
          .append(worst.label())
          .append(": ")
          .append(worst.verdict().message().replaceFirst("^(fail|error): ", ""));
    }
    if (capacity != null) {
      message.append("; ").append(capacity.message());
    }
    BigDecimal total = BigDecimal.ZERO;
    BigDecimal errors = BigDecimal.ZERO;
    boolean totalKnown = true;
    Status requestStatus = Status.SKIP;
    List<ErrorCount> kinds = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    boolean cancelled = false;
    for (Entry e : runs) {
      RequestSummary r = e.verdict().requests();
      if (r.total() == null) {
        totalKnown = false;
      } else {
        total = total.add(r.total());
      }
      errors = errors.add(r.errors());
      if (rank(r.status()) > rank(requestStatus)) {
        requestStatus = r.status();
      }
      kinds.addAll(r.errorSummary());
      e.verdict().warnings().forEach(w -> Judgement.addWarning(warnings, e.label(), w));
      cancelled |= e.verdict().source().wasCancelled();
    }
    BigDecimal rate =
        !totalKnown || total.signum() == 0 ? null : errors.divide(total, MathContext.DECIMAL64);
    RequestSummary requests =
        new RequestSummary(
            totalKnown ? total : null,
            errors,
            rate,
            worst.verdict().requests().maxErrorRate(),
            requestStatus,
            kinds);
    Verdict first = runs.get(0).verdict();
    VerdictSource source =
        new VerdictSource(
            sourcePath,
            null,
            first.source().aiperfVersion(),
            null,
            first.source().schemaVersion(),
            cancelled);
    return new Verdict(
            status,
            message.toString(),
            worst.verdict().constraints(),
            first.ignored(),
            first.constraintsSource(),
            requests,
            source,
            warnings)
        .withRuns(this);
  }
}
