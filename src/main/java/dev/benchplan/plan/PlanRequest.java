package dev.benchplan.plan;

import dev.benchplan.aiperf.version.IndexFetcher;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.TraceInspector;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One planning request. The deployment comes either from a ledger document (the CLI: its smoke
 * artifact is always checked) or from a {@link DeploymentRecord} built in code (e.g. by {@code
 * validate}, which may declare in-cluster readiness instead of a smoke artifact).
 *
 * @param workload the user workload document (a file, or {@link InputDocument#of} for one built in
 *     code)
 * @param ledger the deployment ledger document, or null when {@code deployment} is given
 * @param deployment the deployment record, or null when {@code ledger} is given
 * @param question the performance question
 * @param options everything else
 * @param clock the clock for created_at, the default series ID date and the resolution date
 * @param indexFetcher how the package index is queried
 * @param traceInspector how traces are inspected
 */
public record PlanRequest(
    @Nullable InputDocument workload,
    @Nullable InputDocument ledger,
    @Nullable DeploymentRecord deployment,
    Question question,
    PlanOptions options,
    Clock clock,
    IndexFetcher indexFetcher,
    TraceInspector traceInspector) {
  /**
   * A request built in code with the production index fetcher and trace scanner, e.g. by {@code
   * validate}: a workload tree ({@link InputDocument#of}) and a deployment record ({@link
   * DeploymentRecord#inMemory}, which may declare in-cluster readiness).
   */
  public static PlanRequest of(
      InputDocument workload,
      DeploymentRecord deployment,
      Question question,
      PlanOptions options,
      Clock clock) {
    return new PlanRequest(
        workload,
        null,
        deployment,
        question,
        options,
        clock,
        new dev.benchplan.aiperf.version.HttpIndexFetcher(),
        new dev.benchplan.workload.ScannerTraceInspector());
  }

  /**
   * This request on a clock stopped at its clock's current whole second: the instant the plan's
   * created_at records, and so the one {@code verify} re-derives the plan at. Every time-dependent
   * part of a plan (the smoke artifact's age, the series date, the resolution date) comes from it.
   */
  public PlanRequest atWholeSecond() {
    Clock fixed = Clock.fixed(clock.instant().truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
    return new PlanRequest(
        workload, ledger, deployment, question, options, fixed, indexFetcher, traceInspector);
  }

  public PlanRequest {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(indexFetcher, "indexFetcher");
    Objects.requireNonNull(traceInspector, "traceInspector");
    if ((ledger == null) == (deployment == null)) {
      throw new IllegalArgumentException(
          "give exactly one of a ledger document or a deployment record");
    }
  }
}
