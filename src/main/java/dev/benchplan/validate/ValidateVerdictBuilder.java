package dev.benchplan.validate;

import dev.benchplan.gate.Constraint;
import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Collects the parts of one validate run's {@link ValidateVerdict}, step by step: the one place a
 * {@link ValidateVerdict} is built.
 */
final class ValidateVerdictBuilder {
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
  private @Nullable PerformanceRequest request;
  private @Nullable Verdict gate;
  private @Nullable List<dev.benchplan.diagnostics.FindingLine> findings;
  private ValidateVerdict.@Nullable Repeats repeats;
  private @Nullable ValidateInputs inputs;
  private final List<String> extraWarnings = new ArrayList<>();
  private ValidateVerdict.@Nullable Gpus gpus;
  private ValidateVerdict.@Nullable FloorScaling floorScaling;
  private List<ValidateVerdict.SkippedCheck> isolationSkipped = List.of();
  private ValidateVerdict.@Nullable Reports reports;

  ValidateVerdictBuilder(ValidateRun run, Instant startedAt) {
    this.run = run;
    this.startedAt = startedAt;
  }

  /** The isolation checks skipped for want of permission (issue 19). */
  void isolationSkipped(List<ValidateVerdict.SkippedCheck> skipped) {
    isolationSkipped = List.copyOf(skipped);
  }

  /** The verdict as it stands. */
  ValidateVerdict build() {
    return new ValidateVerdict(
        ValidateVerdict.SCHEMA_VERSION,
        ValidateReports.TEST_NAME,
        verdict,
        exitCode,
        reason,
        failedStep,
        run.runId(),
        startedAt.toString(),
        finishedAt == null ? null : finishedAt.toString(),
        steps,
        cluster,
        constraintsSource,
        constraints,
        measured,
        discovery,
        deployment,
        target,
        benchmark,
        cleanup,
        findings,
        repeats,
        inputs == null ? null : inputs.values(),
        warnings(),
        gpus,
        floorScaling,
        reports,
        isolationSkipped);
  }

  /** The report files, once their place is known ({@link ValidateReports#write}). */
  void reports(ValidateVerdict.Reports written) {
    reports = written;
  }

  private @Nullable List<String> warnings() {
    List<String> w = new ArrayList<>(inputs == null ? List.of() : inputs.warnings());
    w.addAll(extraWarnings);
    return w.isEmpty() ? null : w;
  }

  /** The resolved inputs (replaced as more are resolved) and their warnings. */
  void inputs(ValidateInputs resolved) {
    inputs = resolved;
  }

  /** A warning found outside the inputs. */
  void warn(String warning) {
    extraWarnings.add(warning);
  }

  /** The GPUs behind the target. */
  void gpus(GpuCount count) {
    gpus = new ValidateVerdict.Gpus(count.gpus(), count.source(), count.note());
  }

  /** AICR's floor scaling on a partly occupied node. */
  void floorScaling(ValidateVerdict.FloorScaling scaling) {
    floorScaling = scaling;
  }

  /** The gate's verdict on the benchmark, once it ran; null before. */
  @Nullable Verdict gate() {
    return gate;
  }

  /** The constraints the reports describe: the last requested, else the defaults. */
  ConstraintSet constraintSet() {
    return (request == null ? PerformanceRequest.defaults() : request).set();
  }

  Instant startedAt() {
    return startedAt;
  }

  void step(
      ValidateStep s,
      String status,
      Duration elapsed,
      @Nullable Duration bound,
      @Nullable String detail) {
    steps.add(
        new ValidateVerdict.Step(
            s.id(),
            status,
            elapsed.toMillis() / 1000.0,
            bound == null ? null : bound.toSeconds(),
            detail));
  }

  void cluster(String description) {
    cluster = description;
  }

  /** The requested constraints, not yet run. */
  void constraints(PerformanceRequest req) {
    request = req;
    constraintsSource = new ValidateVerdict.ConstraintsSource(req.source(), req.checks());
    BigDecimal tolerance = PerformanceRequest.GATE_OPTIONS.tolerance();
    constraints =
        req.constraints().stream()
            .map(
                c ->
                    new ValidateVerdict.ConstraintLine(
                        c.name(),
                        c.metric(),
                        c.stat(),
                        c.operator().symbol(),
                        c.threshold(),
                        tolerance,
                        c.effectiveThreshold(tolerance),
                        null,
                        unit(c),
                        "not_run",
                        null))
            .toList();
  }

  /** The gate's verdict on the benchmark: every constraint it judged and the two measurements. */
  void gated(BenchmarkOutcome outcome) {
    gate = outcome.gate();
    findings = gate.findings().stream().map(dev.benchplan.diagnostics.FindingLine::of).toList();
    if (outcome.repeats() != null) {
      List<ValidateVerdict.Repeat> runs = new ArrayList<>();
      for (dev.benchplan.gate.MedianGate.Labeled l : outcome.repeats().repeats()) {
        runs.add(
            new ValidateVerdict.Repeat(
                l.label(),
                l.verdict().verdict().json(),
                l.verdict().message(),
                l.verdict().constraints().stream().map(ValidateVerdictBuilder::line).toList()));
      }
      repeats =
          new ValidateVerdict.Repeats(
              runs.size(),
              RepeatsOutcome.MECHANISM,
              outcome.repeats().unstable(),
              outcome.repeats().disagreements(),
              runs);
    }
    List<ValidateVerdict.ConstraintLine> lines =
        gate.constraints().stream().map(ValidateVerdictBuilder::line).toList();
    if (!lines.isEmpty()) {
      constraints = lines;
    }
    Integer count = gpus == null ? null : gpus.count();
    BigDecimal perGpu =
        outcome.throughput() == null || count == null || count < 1
            ? null
            : outcome
                .throughput()
                .divide(BigDecimal.valueOf(count), 2, java.math.RoundingMode.HALF_UP);
    measured =
        new ValidateVerdict.Measured(
            outcome.throughput(),
            "tokens/sec",
            outcome.ttftP99(),
            "ms",
            perGpu,
            count,
            gpus == null ? "unknown" : gpus.source());
  }

  private static ValidateVerdict.ConstraintLine line(ConstraintResult r) {
    return new ValidateVerdict.ConstraintLine(
        r.name(),
        r.metric(),
        r.stat(),
        r.operator().symbol(),
        r.threshold(),
        r.tolerance(),
        r.effectiveThreshold(),
        r.measured(),
        r.unit(),
        r.status().json(),
        r.message());
  }

  void discovery(String scope, List<DgdCandidate> seen, String decision, String why) {
    List<ValidateVerdict.Seen> out = new ArrayList<>();
    for (DgdCandidate c : seen) {
      out.add(
          new ValidateVerdict.Seen(
              c.dgd().namespace(),
              c.dgd().name(),
              c.dgd().state(),
              c.frontend() == null ? null : c.frontend().service().name(),
              c.frontend() == null ? null : c.frontend().port(),
              List.copyOf(c.dgd().servedModels()),
              c.usable(),
              List.copyOf(c.problems())));
    }
    discovery = new ValidateVerdict.Discovery(scope, decision, why, out);
  }

  void deployment(GpuNodeChoice choice, DefaultDeployment d) {
    deployment =
        new ValidateVerdict.Deployment(
            choice.node().name(),
            choice.workers(),
            d.workers(),
            d.namespace(),
            d.name(),
            d.apiVersion(),
            d.model(),
            d.image(),
            List.copyOf(choice.considered()),
            d.taints().stream()
                .map(
                    t ->
                        t.key()
                            + (t.value() == null ? "" : "=" + t.value())
                            + (t.effect() == null ? "" : ":" + t.effect()))
                .toList(),
            DefaultDeployment.ROUTER_MODE,
            d.modelCache() == null
                ? null
                : new ValidateVerdict.ModelCacheLine(
                    ModelCache.CLAIM,
                    d.modelCache().storageClass(),
                    d.modelCache().storageClassSource(),
                    d.modelCache().size(),
                    ModelCache.MOUNT_PATH,
                    true,
                    true));
  }

  void target(FrontendTarget t) {
    target =
        new ValidateVerdict.Target(
            t.origin(),
            t.namespace(),
            t.dgdName(),
            t.dgdUid(),
            t.apiVersion(),
            t.service(),
            t.port(),
            t.matchedBy(),
            t.endpointUrl(),
            t.model(),
            t.modelSource(),
            t.workers(),
            t.node());
  }

  void benchmark(
      BenchmarkShape s,
      BenchmarkRunner.@Nullable PlannedBenchmark plan,
      BenchmarkRunner.@Nullable RenderedBenchmark rendered,
      @Nullable String runDir) {
    benchmark =
        new ValidateVerdict.Benchmark(
            s.workers(),
            s.perWorker(),
            s.perGpu(),
            s.gpus(),
            s.basis(),
            s.concurrency(),
            s.requestCount(),
            s.warmupRequests(),
            s.isl(),
            s.osl(),
            0,
            0,
            true,
            true,
            "chat",
            BenchmarkShape.DATASET_ENTRIES,
            BenchmarkShape.SEED,
            BenchmarkShape.TEMPERATURE,
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
    cleanup =
        report == null
            ? new ValidateVerdict.Cleanup(kept, c, null, null, null, null)
            : new ValidateVerdict.Cleanup(
                kept,
                c,
                List.copyOf(report.deleted()),
                List.copyOf(report.alreadyGone()),
                List.copyOf(report.skipped()),
                List.copyOf(report.problems()));
  }

  void finish(
      Status verdict,
      int exitCode,
      @Nullable String reason,
      @Nullable ValidateStep failedStep,
      Instant finishedAt) {
    this.verdict = verdict.json();
    this.exitCode = exitCode;
    this.reason = reason;
    this.failedStep = failedStep == null ? null : failedStep.id();
    this.finishedAt = finishedAt;
  }

  private static String unit(Constraint c) {
    return c.unit() == null ? "(unit of " + c.metric() + ")" : c.unit().text();
  }
}
