package dev.benchplan.verify;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.analysis.input.RunDiagnostics;
import dev.benchplan.diagnostics.AiperfLogWarnings;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.InputErrors;
import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.gate.RunVerdicts;
import dev.benchplan.gate.Verdict;
import dev.benchplan.gate.VerdictReports;
import dev.benchplan.json.Json;
import dev.benchplan.json.JsonInput;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.plan.PlanFile;
import dev.benchplan.plan.VerifiedPlan;
import dev.benchplan.rules.GateTolerance;
import dev.benchplan.runrecord.RunRecordDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * The verdict of a run directory recomputed from what the run kept: the AIPerf summary {@code run}
 * took from the pod log ({@code profile_export_aiperf.json}) and the gates of the plan {@code
 * run.json} names, evaluated by the same gate ({@link GateEvaluator}) with the same options; the
 * result must equal the stored {@code verdict.json} at every JSON pointer.
 */
final class VerdictRecomputation {
  /** The summary a run keeps at its top level (the one the verdict was computed from). */
  static final String SUMMARY = "profile_export_aiperf.json";

  /** AIPerf's kept artifact tree in a run directory. */
  static final String AIPERF_DIR = "aiperf";

  private VerdictRecomputation() {}

  /**
   * @param dir the run directory
   * @param label how findings name it
   * @param run run.json
   * @param plan the plan file run.json names (resolved), or null when it names none
   */
  static void check(
      Path dir,
      String label,
      RunRecordDocument run,
      @Nullable Path plan,
      List<Finding> findings,
      List<String> notes) {
    Path stored = dir.resolve(VerdictReports.VERDICT);
    String verdictFile = label + "/" + VerdictReports.VERDICT;
    if (!Files.isRegularFile(stored)) {
      findings.add(new Finding(verdictFile, "", "missing: a run keeps the verdict it computed"));
      return;
    }
    JsonInput.Parsed parsed;
    try {
      parsed = JsonInput.parse(Files.readAllBytes(stored));
    } catch (IOException e) {
      findings.add(new Finding(verdictFile, "", "cannot read: " + InputErrors.describe(e)));
      return;
    }
    JsonNode recorded = parsed.tree();
    if (recorded == null) {
      findings.add(
          new Finding(verdictFile, "", parsed.explain("the verdict run computed (verdict.json)")));
      return;
    }
    String status = recorded.path("verdict").asString("");
    String runVerdict = run.verdict();
    if (!runVerdict.equals(status)) {
      findings.add(
          new Finding(
              label + "/run.json",
              "/verdict",
              "records " + runVerdict + ", but verdict.json says " + status));
    }
    Path summary = dir.resolve(SUMMARY);
    RunRecordDocument.MeasuredRuns planned = run.measuredRuns();
    boolean several =
        planned != null && planned.loadPoints().size() * Math.max(1, planned.repetitions()) > 1;
    // a Job that ran AIPerf once per load point logs no single summary: run gated the kept tree
    boolean treeOnly =
        !Files.isRegularFile(summary)
            && several
            && !status.equals("error")
            && Files.isDirectory(dir.resolve(AIPERF_DIR));
    if (!Files.isRegularFile(summary) && !treeOnly) {
      if (!status.equals("error")) {
        findings.add(
            new Finding(
                verdictFile,
                "/verdict",
                "records "
                    + status
                    + ", but the run kept"
                    + " no "
                    + SUMMARY
                    + " to compute it from: only an error verdict has no summary"));
      } else {
        notes.add(
            "the verdict was not recomputed: the run measured nothing (error verdict, no "
                + SUMMARY
                + "); its reason is in pod.log");
      }
      return;
    }
    if (plan == null || !Files.isRegularFile(plan)) {
      notes.add("the verdict was not recomputed: the plan whose gates it applied is not here");
      return;
    }
    String planRecorded = run.plan().path();
    String source = recorded.path("constraints_source").asString("");
    ConstraintSet constraints;
    GateOptions options;
    try {
      if (source.equals(planRecorded) || source.startsWith(planRecorded + " (")) {
        VerifiedPlan p = PlanFile.verify(plan, run.plan().sha256(), "run.json /plan/sha256");
        List<BenchmarkPlan.Gate> gates = p.plan().objectives().gates();
        constraints = ConstraintReader.fromPlanGates(gates, planRecorded);
        options = ConstraintReader.planGateOptions(gates);
      } else if (Files.isRegularFile(Path.of(source))) {
        constraints = ConstraintReader.fromOverlay(Path.of(source));
        options = GateOptions.defaults();
        notes.add(
            "the verdict was recomputed with the constraints of "
                + source
                + " (run --constraints), as it is now");
      } else {
        notes.add(
            "the verdict was not recomputed: its constraints came from "
                + source
                + ", which is neither the plan run.json names nor a file here");
        return;
      }
    } catch (BenchplanException e) {
      notes.add(
          "the verdict was not recomputed: the plan's gates cannot be read: " + e.getMessage());
      return;
    }
    Verdict again;
    try {
      // the summary is named as the run named it, so every message quoting the path is the same
      String sourcePath = recorded.at("/source/path").asString("");
      if (treeOnly) {
        Path tree = dir.resolve(AIPERF_DIR);
        again =
            RunVerdicts.gateTree(tree, Path.of(AIPERF_DIR), constraints, options)
                .overall(AIPERF_DIR);
        again = withFindings(again, dir, tree);
        compare(recorded, again, verdictFile, findings);
        return;
      }
      AiperfExport export =
          AiperfExportReader.parse(
              Files.readAllBytes(summary), sourcePath.isEmpty() ? summary : Path.of(sourcePath));
      again = GateEvaluator.evaluate(export, constraints, options);
      Path tree = dir.resolve(AIPERF_DIR);
      if (Files.isDirectory(tree)) {
        // as run gated it: every measured run of the kept tree on its own, then the diagnostics'
        // findings from the per-request records and AIPerf's log (issues 12, 17, 18)
        Path shown =
            sourcePath.isEmpty()
                ? tree
                : sourcePath.endsWith(SUMMARY)
                    ? Path.of(sourcePath).resolveSibling(AIPERF_DIR)
                    : Path.of(sourcePath);
        RunVerdicts perRun = null;
        try {
          perRun = RunVerdicts.gateTree(tree, shown, constraints, options);
        } catch (BenchplanException e) {
          perRun = null; // no run in the tree, as run found
        }
        if (perRun != null) {
          // several measured runs planned (run.json /measured_runs): the verdict is the runs'
          // overall
          again = several ? perRun.overall(shown.toString()) : again.withRuns(perRun);
        }
        again = withFindings(again, dir, tree);
      }
    } catch (BenchplanException e) {
      findings.add(
          new Finding(
              label + "/" + SUMMARY, "", "the kept summary no longer gates: " + e.getMessage()));
      return;
    } catch (IOException e) {
      findings.add(new Finding(label + "/" + SUMMARY, "", "cannot read: " + e.getMessage()));
      return;
    }
    compare(recorded, again, verdictFile, findings);
  }

  /** Every JSON pointer where the recomputed verdict differs from the stored one, as a finding. */
  /**
   * {@code v} with the diagnostics' findings from the per-request records of {@code tree} and
   * AIPerf's log ({@code pod.log} in {@code dir}, when it is there), as run gated it.
   */
  private static Verdict withFindings(Verdict v, Path dir, Path tree) throws IOException {
    Path podLog = dir.resolve("pod.log");
    AiperfLogWarnings log =
        Files.isRegularFile(podLog)
            ? AiperfLogWarnings.parse(Files.readString(podLog, StandardCharsets.UTF_8))
            : AiperfLogWarnings.absent();
    return GateEvaluator.withFindings(v, RunDiagnostics.diagnoseAll(tree, log).findings());
  }

  private static void compare(
      JsonNode recorded, Verdict again, String verdictFile, List<Finding> findings) {
    JsonNode recomputed = Json.JSON.readTree(VerdictReports.verdictBytes(again));
    // a verdict written before the older-plan tolerance note existed applied the same 10% unsaid
    if (recomputed.get("warnings") instanceof ArrayNode warnings
        && !recorded.path("warnings").toString().contains(GateTolerance.LEGACY_NOTE)) {
      for (int i = warnings.size() - 1; i >= 0; i--) {
        if (warnings.get(i).asString("").endsWith(GateTolerance.LEGACY_NOTE)) {
          warnings.remove(i);
        }
      }
    }
    for (JsonDiff.Difference d : JsonDiff.of(recorded, recomputed)) {
      findings.add(
          new Finding(
              verdictFile,
              d.pointer(),
              "recomputed from the kept "
                  + SUMMARY
                  + " and the plan's gates: recorded "
                  + d.before()
                  + ", recomputed "
                  + d.after()));
    }
  }
}
