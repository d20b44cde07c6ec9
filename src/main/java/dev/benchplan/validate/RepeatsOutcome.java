package dev.benchplan.validate;

import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.MedianGate;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.run.RunOutcome;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code validate --repeats N}: the run's N measured runs (AIPerf's multi-run, {@code
 * profile_runs/run_NNNN/} in the run directory) gated on their medians ({@link MedianGate}); the
 * findings the run attached (a stalled worker, a client-bound repeat) stay on the verdict, and a
 * client-bound repeat makes it an error.
 */
final class RepeatsOutcome {
  private RepeatsOutcome() {}

  static BenchmarkOutcome of(RunOutcome o, PerformanceRequest constraints) {
    BenchmarkOutcome single = AiperfBenchmarkRunner.outcome(o);
    if (!"completed".equals(o.exitReason())
        || o.runDir() == null
        || !Files.isDirectory(o.runDir())) {
      return single; // the run itself failed: there are no repeats to take a median of
    }
    List<MedianGate.Repeat> repeats = new ArrayList<>();
    for (RunSource s : RunLocator.locate(o.runDir())) {
      if (Files.isRegularFile(s.summaryFile())) {
        String label =
            s.trial() == null
                ? s.label()
                : String.format(java.util.Locale.ROOT, "run_%04d", s.trial());
        repeats.add(new MedianGate.Repeat(label, AiperfExportReader.read(s.summaryFile())));
      }
    }
    if (repeats.isEmpty()) {
      return single;
    }
    MedianGate.Result r =
        MedianGate.evaluate(repeats, constraints.set(), PerformanceRequest.GATE_OPTIONS);
    Verdict v = GateEvaluator.withFindings(r.median(), o.verdict().findings());
    if (v.verdict() == Status.SKIP) {
      return single;
    }
    String message = v.message();
    return new BenchmarkOutcome(
        v,
        message,
        v.verdict() == Status.ERROR ? ValidateStep.GATE : null,
        o.runDir().toString(),
        r);
  }
}
