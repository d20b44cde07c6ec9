package dev.benchplan.validate;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.ExportLayout;
import dev.benchplan.aiperf.export.MetricSummary;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.VerdictSource;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Scripted benchmark outcomes judged by the real gate, for validate's orchestration tests. */
public final class GateScript {
  private GateScript() {}

  /**
   * The gate's verdict on an export measuring {@code throughput} tokens/sec and TTFT p99 {@code
   * ttft} ms.
   */
  public static BenchmarkOutcome measured(PerformanceRequest req, double throughput, double ttft) {
    Map<String, MetricSummary> metrics =
        Map.of(
            "output_token_throughput",
                new MetricSummary(
                    "output_token_throughput",
                    "tokens/sec",
                    Map.of("avg", BigDecimal.valueOf(throughput)),
                    "/output_token_throughput"),
            "time_to_first_token",
                new MetricSummary(
                    "time_to_first_token",
                    "ms",
                    Map.of("p99", BigDecimal.valueOf(ttft)),
                    "/time_to_first_token"),
            "request_count",
                new MetricSummary(
                    "request_count",
                    "requests",
                    Map.of("avg", new BigDecimal("64")),
                    "/request_count"));
    AiperfExport export =
        new AiperfExport(
            Path.of("runs/x/profile_export_aiperf.json"),
            "0".repeat(64),
            ExportLayout.TOP_LEVEL,
            null,
            null,
            false,
            List.of(),
            metrics,
            null,
            null,
            Map.of());
    var verdict = GateEvaluator.evaluate(export, req.set(), PerformanceRequest.GATE_OPTIONS);
    return new BenchmarkOutcome(verdict, verdict.message(), null, "runs/x");
  }

  /** The gate's error verdict on a run that failed with {@code reason}. */
  public static BenchmarkOutcome runFailed(PerformanceRequest req, String reason) {
    var verdict =
        GateEvaluator.runFailed(
            reason,
            req.set(),
            PerformanceRequest.GATE_OPTIONS,
            VerdictSource.withoutExport("pod log", null));
    return new BenchmarkOutcome(verdict, reason, ValidateStep.RUN, null);
  }
}
