package dev.benchplan.validate;

import dev.benchplan.error.BenchplanException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The benchmark: the load sized to the target, the constraints sized to the load, the plan and the
 * rendered Job written before anything is created (a problem with them costs no deployment), and
 * later the run itself.
 */
final class BenchmarkPhase {
  private BenchmarkPhase() {}

  /**
   * The benchmark ready to run.
   *
   * @param request what the runner benchmarks (target, load, constraints, inputs)
   * @param planned the plan written
   * @param rendered the Job rendered
   */
  record Prepared(
      BenchmarkRunner.BenchmarkRequest request,
      BenchmarkRunner.PlannedBenchmark planned,
      BenchmarkRunner.RenderedBenchmark rendered) {
    Prepared {
      Objects.requireNonNull(request, "request");
      Objects.requireNonNull(planned, "planned");
      Objects.requireNonNull(rendered, "rendered");
    }

    BenchmarkShape shape() {
      return request.shape();
    }
  }

  /** Sizes the load and the constraints, then plans and renders. */
  static Prepared prepare(
      ValidateContext ctx, BenchmarkRunner runner, TargetChoice choice, PerformanceRequest asked) {
    ValidateVerdictBuilder doc = ctx.doc();
    FrontendTarget target = choice.target();
    GpuCount gpus = choice.gpus();
    doc.target(target);
    doc.gpus(gpus);
    ValidateInputs inputs =
        choice
            .inputs()
            .with(
                "gpus",
                new ResolvedInput(
                    gpus.gpus(),
                    gpus.known() ? "dgd" : "none",
                    gpus.known() ? gpus.source() : gpus.note()));
    if (!gpus.known()) {
      doc.warn("no output throughput per GPU: " + gpus.note());
    }
    ValidateInputs sizing = inputs;
    BenchmarkShape shape =
        ctx.steps()
            .run(
                ValidateStep.PLAN,
                null,
                "sizing the load",
                () -> shape(ctx.options(), sizing, target, gpus),
                s -> "concurrency " + s.concurrency() + " (" + s.basis() + ")");
    ValidateInputs loaded = withLoad(inputs, shape);
    TargetChoice.FloorScale floor = choice.floorScale();
    BigDecimal scale = floor == null ? null : floor.scale();
    String scaleWhy = floor == null ? null : floor.why();
    PerformanceRequest request =
        ctx.steps()
            .run(
                ValidateStep.PLAN,
                null,
                "resolving the constraints for this load",
                () -> asked.forLoad(gpus.gpus(), gpus.note(), scale, scaleWhy),
                r -> r.constraints().size() + " constraint(s)");
    doc.constraints(request);
    doc.inputs(loaded);
    doc.benchmark(shape, null, null, null);
    Path workDir = ctx.options().reportDir().resolve("runs").resolve(ctx.run().runId());
    BenchmarkRunner.BenchmarkRequest req =
        new BenchmarkRunner.BenchmarkRequest(
            ctx.run(),
            ctx.options(),
            target,
            shape,
            request,
            choice.dgdDocument(),
            choice.gpuType(),
            workDir,
            ctx.ledger(),
            loaded);
    BenchmarkRunner.PlannedBenchmark planned =
        ctx.steps()
            .run(
                ValidateStep.PLAN,
                null,
                "planning concurrency "
                    + shape.concurrency()
                    + ", "
                    + shape.requestCount()
                    + " requests, ISL/OSL "
                    + shape.isl()
                    + "/"
                    + shape.osl(),
                () -> runner.plan(req),
                pl ->
                    pl.planPath()
                        + " (sha256 "
                        + pl.planSha256()
                        + ", AIPerf "
                        + pl.aiperfVersion()
                        + ")");
    doc.benchmark(shape, planned, null, null);
    BenchmarkRunner.RenderedBenchmark rendered =
        ctx.steps()
            .run(
                ValidateStep.RENDER,
                null,
                "rendering the AIPerf Job",
                () -> runner.render(req, planned),
                r -> r.perfYaml() + " (Job " + r.jobName() + ")");
    doc.benchmark(shape, planned, rendered, null);
    return new Prepared(req, planned, rendered);
  }

  /** Runs the rendered Job (one per repeat, each with its own bounds) and gates it. */
  static BenchmarkOutcome run(ValidateContext ctx, BenchmarkRunner runner, Prepared p) {
    ValidateTimeouts t = ctx.options().timeouts();
    int repeats = ctx.options().repeats();
    Duration runBound =
        t.podScheduling().plus(t.endpointReady()).plus(t.job()).multipliedBy(repeats);
    BenchmarkRunner.RenderedBenchmark rendered = p.rendered();
    return ctx.steps()
        .run(
            ValidateStep.RUN,
            runBound,
            repeats > 1
                ? "running "
                    + repeats
                    + " Jobs in "
                    + rendered.namespace()
                    + ", one per repeat, and gating their medians"
                : "running Job " + rendered.namespace() + "/" + rendered.jobName() + " and gating",
            () -> runner.run(p.request(), p.planned(), rendered, ctx.steps().sink()),
            BenchmarkOutcome::message);
  }

  /** C = per GPU x GPUs, or per worker x workers; a per-GPU load without a GPU count is invalid. */
  private static BenchmarkShape shape(
      ValidateOptions options, ValidateInputs inputs, FrontendTarget target, GpuCount gpus) {
    Integer perGpu = inputs.concurrencyPerGpu();
    if (perGpu != null) {
      if (!gpus.known()) {
        throw BenchplanException.invalid(
            inputs.location(ValidateInputs.CONCURRENCY_PER_GPU),
            Objects.requireNonNull(inputs.load()).origin()
                + ": a per-GPU concurrency ("
                + perGpu
                + ") needs a GPU count, but "
                + target.namespace()
                + "/"
                + target.dgdName()
                + ": "
                + gpus.note()
                + "; give --concurrency-per-worker instead");
      }
      // known: the count is there
      return BenchmarkShape.perGpu(
          target.workers(),
          Objects.requireNonNull(gpus.gpus()),
          perGpu,
          options.isl(),
          options.osl());
    }
    // no per-GPU load: the per-worker one is resolved (a default at least)
    return new BenchmarkShape(
        target.workers(),
        Objects.requireNonNull(inputs.concurrencyPerWorker()),
        options.isl(),
        options.osl());
  }

  /** AICR's load figures, each with where it comes from. */
  private static ValidateInputs withLoad(ValidateInputs inputs, BenchmarkShape s) {
    ResolvedInput load = Objects.requireNonNull(inputs.load()); // the load shape() sized
    return inputs
        .with("concurrency", new ResolvedInput(s.concurrency(), load.source(), s.basis()))
        .with(
            "request_count",
            new ResolvedInput(
                s.requestCount(),
                "aicr",
                "max("
                    + BenchmarkShape.MIN_REQUESTS
                    + ", "
                    + BenchmarkShape.REQUESTS_PER_SLOT
                    + " x "
                    + s.concurrency()
                    + ")"))
        .with(
            "warmup_requests",
            new ResolvedInput(
                s.warmupRequests(),
                "aicr",
                BenchmarkShape.WARMUP_PER_SLOT + " per concurrency slot"))
        .with("isl_stddev", new ResolvedInput(0, "aicr", "zero spread"))
        .with("osl_stddev", new ResolvedInput(0, "aicr", "zero spread"))
        .with("ignore_eos", new ResolvedInput(true, "aicr", "fixed output length"))
        .with(
            "dataset_entries",
            new ResolvedInput(
                BenchmarkShape.DATASET_ENTRIES, "aicr", "AICR's synthetic dataset size"))
        .with("seed", new ResolvedInput(BenchmarkShape.SEED, "aicr", "AICR's random seed"))
        .with(
            "temperature",
            new ResolvedInput(BenchmarkShape.TEMPERATURE, "aicr", "AICR's sampling temperature"));
  }
}
