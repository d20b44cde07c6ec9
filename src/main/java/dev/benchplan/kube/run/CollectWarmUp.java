package dev.benchplan.kube.run;

import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.gate.ReportTiming;
import dev.benchplan.gate.VerdictReports;
import dev.benchplan.gate.VerdictSource;
import dev.benchplan.json.SchemaValidator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Loads what collection needs (schema validator, XML and JSON writers, the export reader) on a
 * background thread while AIPerf runs, so the verdict lands on disk soon after the pod completes
 * instead of after a fresh JVM's class loading.
 */
final class CollectWarmUp {
  private CollectWarmUp() {}

  /**
   * Starts the warm-up on a daemon thread; failures are ignored (collection loads lazily anyway).
   */
  @SuppressWarnings(
      "ThreadPriorityCheck") // a hint that the warm-up yields to the run; nothing relies on it
  static void start() {
    Thread t = new Thread(CollectWarmUp::warm, "benchplan-collect-warm-up");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  private static void warm() {
    try {
      SchemaValidator.bundled("run-record.schema.json");
      AiperfExportReader.parse(
          "{\"x\": {\"unit\": \"ms\", \"avg\": 1.0}}".getBytes(StandardCharsets.UTF_8),
          Path.of("warm-up"));
      Instant now = Instant.now();
      VerdictReports.render(
          GateEvaluator.runFailed(
              "warm-up",
              ConstraintSet.none("warm-up"),
              GateOptions.defaults(),
              VerdictSource.withoutExport("warm-up", null)),
          new ReportTiming(now, now));
    } catch (RuntimeException ignored) {
      // best effort
    }
  }
}
