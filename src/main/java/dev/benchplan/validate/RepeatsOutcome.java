package dev.benchplan.validate;

import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.analysis.input.RunLocator;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.diagnostics.Finding;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.MedianGate;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.run.RunOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code validate --repeats N}: N Jobs of the same plan, one measured run each, gated on their
 * medians ({@link MedianGate}). One Job per repeat keeps each run's tree within the pod-log channel
 * at AICR's load (a multi-run Job of 3 or more runs of 1000 requests is past it). The findings each
 * run attached (a stalled worker, a client-bound repeat) stay on the verdict, and a client-bound
 * repeat makes it an error.
 */
final class RepeatsOutcome {
  /** How the repeats were measured, as the verdict records it. */
  static final String MECHANISM =
      "one AIPerf Job per repeat (one measured run each), median of each gated metric";

  private RepeatsOutcome() {}

  /** The label of repeat {@code k} (1-based): also the folder its deploy root is rendered into. */
  static String label(int k) {
    return "repeat_" + k;
  }

  /**
   * The outcome of repeat {@code k} of {@code n} when it ended the series: the run itself failed
   * (no verdict to take a median of), or it had no summary to gate; null when it can join the
   * median.
   */
  static @org.jspecify.annotations.Nullable BenchmarkOutcome stop(RunOutcome o, int k, int n) {
    BenchmarkOutcome single = AiperfBenchmarkRunner.outcome(o);
    if (!"completed".equals(o.exitReason()) || summary(o) == null) {
      return new BenchmarkOutcome(
          single.gate(),
          label(k) + " of " + n + ": " + single.message(),
          single.failedStep() == null ? ValidateStep.RUN : single.failedStep(),
          single.runDir());
    }
    return null;
  }

  /** The median gate over the completed repeats, in order. */
  static BenchmarkOutcome of(List<RunOutcome> runs, PerformanceRequest constraints, Path allRuns) {
    List<MedianGate.Repeat> repeats = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      RunOutcome o = runs.get(i);
      Path summary = summary(o);
      if (summary == null) {
        throw new IllegalStateException(label(i + 1) + ": no summary (checked by stop())");
      }
      repeats.add(new MedianGate.Repeat(label(i + 1), AiperfExportReader.read(summary)));
      findings.addAll(o.verdict().findings());
    }
    MedianGate.Result r =
        MedianGate.evaluate(repeats, constraints.set(), PerformanceRequest.GATE_OPTIONS);
    Verdict v = GateEvaluator.withFindings(r.median(), findings);
    if (v.verdict() == Status.SKIP) {
      return AiperfBenchmarkRunner.outcome(runs.get(0));
    }
    return new BenchmarkOutcome(
        v,
        v.message(),
        v.verdict() == Status.ERROR ? ValidateStep.GATE : null,
        allRuns.toString(),
        r);
  }

  /** The one run's summary export, or null when the run directory has none. */
  private static @org.jspecify.annotations.Nullable Path summary(RunOutcome o) {
    if (o.runDir() == null || !Files.isDirectory(o.runDir())) {
      return null;
    }
    for (RunSource s : RunLocator.locate(o.runDir())) {
      if (Files.isRegularFile(s.summaryFile())) {
        return s.summaryFile();
      }
    }
    return null;
  }
}
