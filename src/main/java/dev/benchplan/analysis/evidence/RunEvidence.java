package dev.benchplan.analysis.evidence;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.analysis.audit.RunAudit;
import dev.benchplan.analysis.input.GpuCount;
import dev.benchplan.analysis.input.PlanInfo;
import dev.benchplan.analysis.input.RecordScan;
import dev.benchplan.analysis.input.RunSource;
import dev.benchplan.diagnostics.Finding;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Everything analyze and compare know about one run: its files, the parsed summary (AIPerf's, or
 * rebuilt from complete records when the audit says {@code valid_with_recovery}), the record scan,
 * the plan, its identity and its audit.
 *
 * @param source where it is
 * @param export the summary, or null when there is none to use
 * @param summarySha256 SHA-256 of the summary file as on disk, or null when absent
 * @param summaryProblem why AIPerf's summary could not be used, or null
 * @param inputConfig AIPerf's {@code input_config}, or null
 * @param scan the per-request records scan, or null without records
 * @param plan the plan named by run.json, or null for a plain AIPerf directory
 * @param identity the comparison identity (field to value; "not recorded" when unknown)
 * @param seriesId the series the run belongs to
 * @param loadPoint e.g. {@code concurrency=4}
 * @param gpus the GPU count and its source
 * @param audit the audit
 * @param candidate what the run measured ({@link Candidate}): never pooled with another
 * @param findings what the diagnostics found in the run's records and AIPerf's log (a suspected
 *     stalled worker, the client load), kept so the verdict rows can name it
 */
public record RunEvidence(
    RunSource source,
    @Nullable AiperfExport export,
    @Nullable String summarySha256,
    @Nullable String summaryProblem,
    @Nullable JsonNode inputConfig,
    @Nullable RecordScan scan,
    @Nullable PlanInfo plan,
    Map<String, String> identity,
    String seriesId,
    String loadPoint,
    GpuCount gpus,
    RunAudit audit,
    Candidate candidate,
    List<Finding> findings) {
  public RunEvidence {
    findings = List.copyOf(findings);
  }

  /** The plan of the first run whose plan was read, or null when no run's plan was. */
  public static @Nullable PlanInfo firstReadPlan(List<RunEvidence> runs) {
    for (RunEvidence r : runs) {
      PlanInfo p = r.plan();
      if (p != null && p.plan() != null) {
        return p;
      }
    }
    return null;
  }

  /** This run with one more audit check. */
  public RunEvidence withCheck(dev.benchplan.analysis.audit.AuditCheck check) {
    return new RunEvidence(
        source,
        export,
        summarySha256,
        summaryProblem,
        inputConfig,
        scan,
        plan,
        identity,
        seriesId,
        loadPoint,
        gpus,
        audit.with(check),
        candidate,
        findings);
  }

  /** This run as measuring {@code c} (the RUN argument, {@code --label} or a compare side). */
  public RunEvidence withCandidate(Candidate c) {
    return new RunEvidence(
        source,
        export,
        summarySha256,
        summaryProblem,
        inputConfig,
        scan,
        plan,
        identity,
        seriesId,
        loadPoint,
        gpus,
        audit,
        c,
        findings);
  }

  /** A statistic of a summary metric as a double, when present. */
  public Optional<Double> stat(String metric, String stat) {
    if (export == null) {
      return Optional.empty();
    }
    return export.metric(metric).flatMap(m -> m.stat(stat)).map(java.math.BigDecimal::doubleValue);
  }

  /** True when the audit allows the run as evidence. */
  public boolean valid() {
    return audit.usable();
  }
}
