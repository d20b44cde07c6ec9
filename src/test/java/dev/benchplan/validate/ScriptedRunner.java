package dev.benchplan.validate;

import dev.benchplan.progress.ProgressSink;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A benchmark runner for orchestration tests: plan and render succeed on paper, run records the
 * Job's objects in the ledger (as the real one does) and returns what the test scripts.
 */
class ScriptedRunner implements BenchmarkRunner {
  final AtomicReference<BenchmarkRequest> request = new AtomicReference<>();
  final FakeValidateCluster cluster;
  final Function<BenchmarkRequest, BenchmarkOutcome> outcome;
  RuntimeException failPlan;

  ScriptedRunner(
      FakeValidateCluster cluster, Function<BenchmarkRequest, BenchmarkOutcome> outcome) {
    this.cluster = cluster;
    this.outcome = outcome;
  }

  /** Passes or fails on the measured values, with the constraints' tolerance. */
  static ScriptedRunner gate(FakeValidateCluster cluster, double throughput, double ttft) {
    return new ScriptedRunner(
        cluster, req -> GateScript.measured(req.constraints(), throughput, ttft));
  }

  @Override
  public PlannedBenchmark plan(BenchmarkRequest req) {
    request.set(req);
    if (failPlan != null) {
      throw failPlan;
    }
    return new PlannedBenchmark(
        req.workDir().resolve("plan.json"), "0".repeat(64), "validate-x", "0.4.0", "operator_pin");
  }

  @Override
  public RenderedBenchmark render(BenchmarkRequest req, PlannedBenchmark plan) {
    String ns = req.target().namespace();
    return new RenderedBenchmark(
        req.workDir().resolve("deploy"),
        Path.of("perf.yaml"),
        "1".repeat(64),
        "bp-job",
        ns,
        "r",
        List.of(
            new CreatedObject("v1", "ConfigMap", ns, "bp-cm", "benchplan.dev/run-id", "r"),
            new CreatedObject("batch/v1", "Job", ns, "bp-job", "benchplan.dev/run-id", "r")));
  }

  @Override
  public BenchmarkOutcome run(
      BenchmarkRequest req,
      PlannedBenchmark plan,
      RenderedBenchmark rendered,
      ProgressSink progress) {
    for (CreatedObject o : rendered.objects()) {
      req.ledger().record(o);
      cluster.existing.add(o.describe());
    }
    return outcome.apply(req);
  }
}
