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
   * @param results the AIPerf summary export
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
    AiperfExport export = AiperfExportReader.read(request.results());
    ConstraintSet constraints = request.overlay() != null
        ? ConstraintReader.fromOverlay(request.overlay())
        : ConstraintReader.fromFlags(request.minThroughput(), request.maxTtftP99());
    Verdict verdict = GateEvaluator.evaluate(export, constraints, request.options());
    if (request.reportDir() != null) {
      VerdictReports.write(request.reportDir(), verdict, new ReportTiming(start, clock.instant()));
    }
    return new Outcome(verdict, request.reportDir());
  }
}
