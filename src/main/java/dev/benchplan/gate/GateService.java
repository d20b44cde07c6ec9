package dev.benchplan.gate;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.error.BenchplanException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/** {@code benchplan gate}: read an export and constraints, evaluate, write the reports. */
public final class GateService {
  private GateService() {}

  /**
   * One gate request.
   *
   * @param results the AIPerf summary export, or an AIPerf artifact directory (every run in it)
   * @param overlay an AICR-style overlay with the constraints, or null
   * @param minThroughput {@code --min-throughput} (tokens/sec), or null
   * @param maxTtftP99 {@code --max-ttft-p99} (ms), or null
   * @param options tolerance and maximum error rate
   * @param reportDir where to write verdict.json, ctrf-report.json and junit.xml, or null
   */
  public record Request(
      Path results, Path overlay, BigDecimal minThroughput, BigDecimal maxTtftP99, GateOptions options,
      Path reportDir) {
    public Request {
      Objects.requireNonNull(results, "results");
      Objects.requireNonNull(options, "options");
      if (overlay != null && (minThroughput != null || maxTtftP99 != null)) {
        throw BenchplanException.invalid(
            "--constraints and --min-throughput/--max-ttft-p99 both give constraints: use one source");
      }
    }
  }

  /** The verdict and where its reports went (null when none were written). */
  public record Outcome(Verdict verdict, Path reportDir) {}

  /** Runs the gate; invalid input throws (exit 2) before anything is written. */
  public static Outcome gate(Request request, Clock clock) {
    Instant start = clock.instant();
    ConstraintSet constraints = request.overlay() != null
        ? ConstraintReader.fromOverlay(request.overlay())
        : ConstraintReader.fromFlags(request.minThroughput(), request.maxTtftP99());
    Verdict verdict;
    if (java.nio.file.Files.isDirectory(request.results())) {
      // an AIPerf artifact directory in any layout: every run it holds is gated
      Path tree = request.results().toAbsolutePath().normalize();
      verdict = RunVerdicts.gateTree(tree, constraints, request.options()).overall(tree.toString());
    } else {
      AiperfExport export = AiperfExportReader.read(request.results());
      verdict = GateEvaluator.evaluate(export, constraints, request.options());
    }
    if (request.reportDir() != null) {
      VerdictReports.write(request.reportDir(), verdict, new ReportTiming(start, clock.instant()));
    }
    return new Outcome(verdict, request.reportDir());
  }
}
