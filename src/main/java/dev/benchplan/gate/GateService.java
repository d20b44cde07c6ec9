package dev.benchplan.gate;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** {@code benchplan gate}: read an export and constraints, evaluate, write the reports. */
public final class GateService {
  private GateService() {}

  /**
   * One gate request.
   *
   * @param results the AIPerf summary export, or a run directory or AIPerf artifact directory
   *     (every run in it is gated)
   * @param overlay an AICR-style overlay with the constraints, or null
   * @param minThroughput {@code --min-throughput} (tokens/sec), or null
   * @param maxTtftP99 {@code --max-ttft-p99} (ms), or null
   * @param options tolerance and maximum error rate
   * @param reportDir where to write verdict.json, ctrf-report.json and junit.xml, or null
   * @param allowUnknownConstraints list an overlay's unknown {@code inference-*} names as ignored
   *     instead of refusing them
   */
  public record Request(
      Path results,
      Path overlay,
      BigDecimal minThroughput,
      BigDecimal maxTtftP99,
      GateOptions options,
      Path reportDir,
      boolean allowUnknownConstraints) {
    /** A request that refuses an overlay's unknown {@code inference-*} names. */
    public Request(
        Path results,
        Path overlay,
        BigDecimal minThroughput,
        BigDecimal maxTtftP99,
        GateOptions options,
        Path reportDir) {
      this(results, overlay, minThroughput, maxTtftP99, options, reportDir, false);
    }

    public Request {
      Objects.requireNonNull(results, "results");
      Objects.requireNonNull(options, "options");
      if (overlay != null && (minThroughput != null || maxTtftP99 != null)) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--constraints"),
            "--constraints and --min-throughput/--max-ttft-p99 both give constraints: use one source");
      }
    }
  }

  /** The verdict and where its reports went (null when none were written). */
  public record Outcome(Verdict verdict, Path reportDir) {}

  /**
   * The one run a summary file names: its directory's per-request records and log, when present,
   * feed the diagnostics (a directory is gated as a tree of runs by {@link #gate}).
   */
  static RunSource locate(Path results) {
    if (!Files.isRegularFile(results)) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--results", results), results + ": AIPerf export not found");
    }
    Path dir = Objects.requireNonNull(results.toAbsolutePath().getParent()); // a file has a parent
    // any file name: the summary is what was given, the records and log are looked for beside it
    return new RunSource(
        dir.getFileName() == null ? "." : dir.getFileName().toString(),
        dir,
        results,
        dir.resolve(RunLocator.RECORDS),
        null,
        null,
        null);
  }

  /**
   * How the verdict names {@code results}: relative to the report directory that will hold
   * verdict.json (its anchor, as a run directory is for run's verdict), with '/'; as given when no
   * report is written. A checkout's absolute location never reaches the verdict files.
   */
  static Path shown(Path results, @Nullable Path reportDir) {
    if (reportDir == null) {
      return results;
    }
    Path rel =
        reportDir.toAbsolutePath().normalize().relativize(results.toAbsolutePath().normalize());
    return rel.toString().isEmpty() ? Path.of(".") : Path.of(rel.toString().replace('\\', '/'));
  }

  /** Runs the gate; invalid input throws (exit 2) before anything is written. */
  public static Outcome gate(Request request, Clock clock) {
    Instant start = clock.instant();
    ConstraintSet constraints =
        request.overlay() != null
            ? ConstraintReader.fromOverlay(request.overlay(), request.allowUnknownConstraints())
            : ConstraintReader.fromFlags(request.minThroughput(), request.maxTtftP99());
    Verdict verdict;
    if (Files.isDirectory(request.results())) {
      // a run directory or an AIPerf artifact directory in any layout: every run it holds is gated,
      // and the diagnostics read every run's records and log (findings name their run)
      Path tree = request.results().toAbsolutePath().normalize();
      Path shown = shown(request.results(), request.reportDir());
      verdict =
          GateEvaluator.withFindings(
              RunVerdicts.gateTree(tree, shown, constraints, request.options())
                  .overall(shown.toString()),
              RunDiagnostics.diagnoseAll(tree).findings());
    } else {
      RunSource run = locate(request.results());
      AiperfExport export = AiperfExportReader.read(run.summaryFile());
      Path shown = shown(run.summaryFile(), request.reportDir());
      Verdict evaluated = GateEvaluator.evaluate(export, constraints, request.options());
      if (!shown.equals(run.summaryFile())) {
        // evaluated once under the name the user gave (bad input names the file as given), then
        // again under the name verdict.json records: a pure computation on the parsed export
        evaluated = GateEvaluator.evaluate(export.named(shown), constraints, request.options());
      }
      verdict = GateEvaluator.withFindings(evaluated, RunDiagnostics.diagnose(run).findings());
    }
    if (request.reportDir() != null) {
      VerdictReports.write(request.reportDir(), verdict, new ReportTiming(start, clock.instant()));
    }
    return new Outcome(verdict, request.reportDir());
  }
}
