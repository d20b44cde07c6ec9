package dev.benchplan.run;

import dev.benchplan.gate.Verdict;
import dev.benchplan.json.Json;
import dev.benchplan.runrecord.RunRecordDocument;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The result of a run that got as far as applying the Job (earlier problems are thrown).
 *
 * @param runId the run-id from perf.yaml
 * @param runDir the completed run directory
 * @param verdict the gate's verdict
 * @param exitCode 0 pass/skip, 1 gate failed, 3 cluster or run error
 * @param exitReason why the run ended (completed, job-failed, deadline-exceeded, ...)
 * @param run the run record written as run.json
 * @param cleanup what was deleted (or kept) afterwards
 */
public record RunOutcome(
    String runId,
    Path runDir,
    Verdict verdict,
    int exitCode,
    String exitReason,
    RunRecordDocument run,
    List<String> cleanup) {
  public RunOutcome {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(runDir, "runDir");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(exitReason, "exitReason");
    Objects.requireNonNull(run, "run");
    cleanup = List.copyOf(cleanup);
  }

  /** The run record as JSON, exactly as run.json holds it (for printing). */
  public ObjectNode record() {
    return Json.JSON.valueToTree(run);
  }
}
