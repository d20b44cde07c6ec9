package dev.benchplan.validate;

import dev.benchplan.gate.Constraint;
import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.Verdict;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Collects the parts of one validate run's {@link ValidateVerdict}, step by step. */
final class VerdictDocument {
  private final ValidateRun run;
  private final Instant startedAt;
  private final List<ValidateVerdict.Step> steps = new ArrayList<>();
  private @Nullable String verdict;
  private @Nullable Integer exitCode;
  private @Nullable String reason;
  private @Nullable String failedStep;
  private @Nullable Instant finishedAt;
  private @Nullable String cluster;
  private ValidateVerdict.@Nullable ConstraintsSource constraintsSource;
  private List<ValidateVerdict.ConstraintLine> constraints = List.of();
  private ValidateVerdict.@Nullable Measured measured;
  private ValidateVerdict.@Nullable Discovery discovery;
  private ValidateVerdict.@Nullable Deployment deployment;
  private ValidateVerdict.@Nullable Target target;
  private ValidateVerdict.@Nullable Benchmark benchmark;
  private ValidateVerdict.@Nullable Cleanup cleanup;
  private @Nullable List<ValidateVerdict.Candidate> candidates;
  private @Nullable Verdict gate;

  VerdictDocument(ValidateRun run, Instant startedAt) {
    this.run = run;
    this.startedAt = startedAt;
  }

  /** The verdict as it stands. */
  ValidateVerdict build() {
    return new ValidateVerdict(ValidateVerdict.SCHEMA_VERSION, ValidateReports.TEST_NAME, verdict, exitCode, reason,
        failedStep, run.runId(), startedAt.toString(), finishedAt == null ? null : finishedAt.toString(), steps,
        cluster, constraintsSource, constraints, measured, discovery, deployment, target, benchmark, cleanup,
        candidates, null);
  }

  /** The gate's verdict on the benchmark, once it ran; null before. */
  @Nullable Verdict gate() {
    return gate;
  }

  Instant startedAt() {
    return startedAt;
  }

  void step(ValidateStep s, String status, Duration elapsed, @Nullable Duration bound, @Nullable String detail) {
    steps.add(new ValidateVerdict.Step(s.id(), status, elapsed.toMillis() / 1000.0,
        bound == null ? null : bound.toSeconds(), detail));
  }

  void cluster(String description) {
    cluster = description;
  }

  /** The requested constraints, not yet run. */
  void constraints(PerformanceRequest req) {
    constraintsSource = new ValidateVerdict.ConstraintsSource(req.source(), req.checks());
    BigDecimal tolerance = PerformanceRequest.GATE_OPTIONS.tolerance();
    constraints = req.constraints().stream().map(c -> new ValidateVerdict.ConstraintLine(c.name(), c.metric(),
        c.stat(), c.operator().symbol(), c.threshold(), tolerance, c.effectiveThreshold(tolerance), null,
        unit(c), "not_run", null)).toList();
  }

  /** The gate's verdict on the benchmark: every constraint it judged and the two measurements. */
  void gated(BenchmarkOutcome outcome) {
    gate = outcome.gate();
    List<ValidateVerdict.ConstraintLine> lines = new ArrayList<>();
    for (ConstraintResult r : gate.constraints()) {
      lines.add(new ValidateVerdict.ConstraintLine(r.name(), r.metric(), r.stat(), r.operator().symbol(),
          r.threshold(), r.tolerance(), r.effectiveThreshold(), r.measured(), r.unit(), r.status().json(),
          r.message()));
    }
    if (!lines.isEmpty()) {
      constraints = lines;
    }
    measured = new ValidateVerdict.Measured(outcome.throughput(), "tokens/sec", outcome.ttftP99(), "ms");
  }

  void discovery(String scope, List<DgdCandidate> seen, String decision, String why) {
    List<ValidateVerdict.Seen> out = new ArrayList<>();
    for (DgdCandidate c : seen) {
      out.add(new ValidateVerdict.Seen(c.dgd().namespace(), c.dgd().name(), c.dgd().state(),
          c.frontend() == null ? null : c.frontend().service().name(),
          c.frontend() == null ? null : c.frontend().port(), List.copyOf(c.dgd().servedModels()), c.usable(),
          List.copyOf(c.problems())));
    }
    discovery = new ValidateVerdict.Discovery(scope, decision, why, out);
  }

  void deployment(GpuNodeChoice choice, DefaultDeployment d) {
    deployment = new ValidateVerdict.Deployment(choice.node().name(), choice.workers(), d.workers(), d.namespace(),
        d.name(), d.apiVersion(), d.model(), d.image(), List.copyOf(choice.considered()),
        d.taints().stream().map(t -> t.key() + (t.value() == null ? "" : "=" + t.value())
            + (t.effect() == null ? "" : ":" + t.effect())).toList());
  }

  void target(FrontendTarget t) {
    target = new ValidateVerdict.Target(t.origin(), t.namespace(), t.dgdName(), t.dgdUid(), t.apiVersion(),
        t.service(), t.port(), t.matchedBy(), t.endpointUrl(), t.model(), t.modelSource(), t.workers(), t.node());
  }

  void benchmark(BenchmarkShape s, BenchmarkRunner.@Nullable PlannedBenchmark plan,
      BenchmarkRunner.@Nullable RenderedBenchmark rendered, @Nullable String runDir) {
    benchmark = new ValidateVerdict.Benchmark(s.workers(), s.concurrencyPerWorker(), s.concurrency(),
        s.requestCount(), s.warmupRequests(), s.isl(), s.osl(), 0, 0, true, true, "chat",
        BenchmarkShape.MEASUREMENT_LIMIT_S,
        plan == null ? null : plan.aiperfVersion(),
        plan == null ? null : plan.aiperfResolution(),
        plan == null ? null : plan.seriesId(),
        plan == null ? null : plan.planPath().toAbsolutePath().toString(),
        plan == null ? null : plan.planSha256(),
        rendered == null ? null : rendered.deployRoot().toAbsolutePath().toString(),
        rendered == null ? null : rendered.perfYaml().toAbsolutePath().toString(),
        rendered == null ? null : rendered.perfYamlSha256(),
        rendered == null ? null : rendered.namespace() + "/" + rendered.jobName(),
        rendered == null ? null : rendered.runId(),
        runDir);
  }

  void cleanup(boolean kept, List<CreatedObject> created, @Nullable CleanupReport report) {
    List<String> c = created.stream().map(CreatedObject::describe).toList();
    cleanup = report == null
        ? new ValidateVerdict.Cleanup(kept, c, null, null, null, null)
        : new ValidateVerdict.Cleanup(kept, c, List.copyOf(report.deleted()), List.copyOf(report.alreadyGone()),
            List.copyOf(report.skipped()), List.copyOf(report.problems()));
  }

  void candidates(List<DgdCandidate> ambiguous) {
    candidates = ambiguous.stream().map(c -> new ValidateVerdict.Candidate(c.dgd().namespace(), c.dgd().name(),
        c.frontend() == null ? null : c.frontend().service().name(), String.join(",", c.dgd().servedModels()),
        c.dgd().state())).toList();
  }

  void finish(String verdict, int exitCode, @Nullable String reason, @Nullable ValidateStep failedStep, Instant finishedAt) {
    this.verdict = verdict;
    this.exitCode = exitCode;
    this.reason = reason;
    this.failedStep = failedStep == null ? null : failedStep.id();
    this.finishedAt = finishedAt;
  }

  private static String unit(Constraint c) {
    return c.unit() == null ? "(unit of " + c.metric() + ")" : c.unit().text();
  }
}
