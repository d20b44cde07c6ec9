package dev.benchplan.plan;

import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.PercentileSamples;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.workload.MetricCatalog;
import dev.benchplan.workload.Slo;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Turns the workload's SLOs into gates and AIPerf goodput thresholds, or keeps the
 * throughput/latency/error Pareto view when there are none; and states, for every gated percentile,
 * how many measured requests it rests on.
 */
final class ObjectivePlanner {
  /** The gate name of the throughput constraint (AICR: inference-throughput). */
  static final String THROUGHPUT_GATE = "inference-throughput";

  /** The gate name of the TTFT p99 constraint (AICR: inference-ttft-p99). */
  static final String TTFT_P99_GATE = "inference-ttft-p99";

  /** Fewer measured requests than this never carry a gated percentile. */
  static final int MIN_SAMPLES = PercentileSamples.MIN_SAMPLES;

  private ObjectivePlanner() {}

  static BenchmarkPlan.Objectives plan(List<Slo> slos, int gpuTotal, RuleLog log) {
    List<BenchmarkPlan.Gate> gates = new ArrayList<>();
    List<BenchmarkPlan.SloRecord> records = new ArrayList<>();
    Map<String, String> gateSources = new LinkedHashMap<>();
    TreeMap<String, BigDecimal> goodput = new TreeMap<>();
    RuleFile rule = RuleFile.USER_WORKLOAD;
    for (Slo s : slos) {
      records.add(
          new BenchmarkPlan.SloRecord(
              s.metric(), s.stat(), s.operator(), s.threshold(), s.unit(), s.pointer()));
      BenchmarkPlan.Gate gate;
      if (s.metric().equals(MetricCatalog.OUTPUT_TPUT_PER_GPU)) {
        BigDecimal total = s.threshold().multiply(BigDecimal.valueOf(gpuTotal));
        gate =
            new BenchmarkPlan.Gate(
                THROUGHPUT_GATE,
                "output_token_throughput",
                "avg",
                ">=",
                total,
                "tokens/sec",
                s.pointer(),
                s.tolerance());
        log.decide(
            rule,
            "gate "
                + THROUGHPUT_GATE
                + ": output_token_throughput avg >= "
                + total.toPlainString()
                + " tokens/sec"
                + toleranceText(s),
            s.pointer()
                + " asks "
                + s.threshold().toPlainString()
                + " tokens/sec per GPU; the deployment has "
                + gpuTotal
                + " GPUs");
      } else {
        gate =
            new BenchmarkPlan.Gate(
                gateName(s),
                s.metric(),
                s.stat(),
                s.operator(),
                s.threshold(),
                s.unit(),
                s.pointer(),
                s.tolerance());
        log.decide(
            rule,
            "gate "
                + gate.name()
                + ": "
                + s.metric()
                + " "
                + s.stat()
                + " "
                + s.operator()
                + " "
                + s.threshold().toPlainString()
                + " "
                + s.unit()
                + toleranceText(s),
            "the user's objective at "
                + s.pointer()
                + (s.tolerance().signum() == 0
                    ? ", kept exactly"
                    : ", with the workload's tolerance"));
      }
      String previous = gateSources.putIfAbsent(gate.name(), s.pointer());
      if (previous != null) {
        log.block(
            BlockerCode.OBJECTIVE_CONFLICT,
            "objectives "
                + previous
                + " and "
                + s.pointer()
                + " both constrain "
                + gate.metric()
                + " "
                + gate.stat()
                + " (gate "
                + gate.name()
                + "); keep one");
        continue;
      }
      gates.add(gate);
      if (s.isLatencyBound()) {
        BigDecimal old = goodput.get(s.metric());
        if (old == null || s.threshold().compareTo(old) < 0) {
          goodput.put(s.metric(), s.threshold());
        }
      }
    }
    boolean pareto = slos.isEmpty();
    String direction;
    if (pareto) {
      direction =
          "no SLOs: keep the Pareto view of output_token_throughput (maximize) against"
              + " time_to_first_token, inter_token_latency and request_latency (minimize) and the"
              + " error rate (minimize)";
      log.decide(
          rule,
          "objectives.pareto = true",
          "the workload states no SLOs, so no single"
              + " number is optimized and nothing is gated");
    } else {
      direction =
          goodput.isEmpty()
              ? "meet every gate"
              : "maximize goodput (requests within every latency SLO) while meeting every gate";
      if (!goodput.isEmpty()) {
        log.decide(
            rule,
            "objectives.goodput = " + goodput,
            "AIPerf counts a request as good"
                + " when it meets every per-request latency threshold; the strictest threshold per"
                + " metric is used");
      }
    }
    return new BenchmarkPlan.Objectives(
        gates, goodput.isEmpty() ? null : goodput, pareto, records, direction);
  }

  /** ", tolerance T (effective E)" as the decision and the printed gate say it. */
  private static String toleranceText(Slo s) {
    return ", tolerance " + s.tolerance().stripTrailingZeros().toPlainString();
  }

  private static String gateName(Slo s) {
    if (s.metric().equals("output_token_throughput")
        && s.stat().equals("avg")
        && s.operator().equals(">=")) {
      return THROUGHPUT_GATE;
    }
    if (s.metric().equals("time_to_first_token")
        && s.stat().equals("p99")
        && s.operator().equals("<=")) {
      return TTFT_P99_GATE;
    }
    return s.metric() + "-" + s.stat();
  }

  /** A gate as the samples' blockers name it: {@code gate NAME (METRIC STAT)}. */
  private static String described(BenchmarkPlan.Gate g) {
    return "gate " + g.name() + " (" + g.metric() + " " + g.stat() + ")";
  }

  /** The sample basis of every gated percentile; blocks when one rests on too few requests. */
  static List<BenchmarkPlan.SampleBasis> samples(
      List<BenchmarkPlan.Gate> gates, @Nullable Long measuredRequests, String basis, RuleLog log) {
    List<BenchmarkPlan.SampleBasis> out = new ArrayList<>();
    RuleFile rule = RuleFile.CONCURRENCY_GRID;
    for (BenchmarkPlan.Gate g : gates) {
      if (PercentileSamples.percentile(g.stat()).isEmpty()) {
        continue;
      }
      if (measuredRequests == null) {
        log.block(
            BlockerCode.SAMPLES_UNKNOWN,
            described(g)
                + ": "
                + basis
                + ", so the number of measured requests the percentile rests on is"
                + " unknown; give traffic.request_count");
        continue;
      }
      PercentileSamples.Assessment a =
          PercentileSamples.assess(g.stat(), measuredRequests).orElseThrow();
      BigDecimal p = a.percentile();
      BigDecimal beyond = a.beyond();
      if (a.level() == PercentileSamples.Level.TOO_FEW) {
        log.block(
            BlockerCode.SAMPLES_TOO_FEW,
            described(g)
                + " would rest on "
                + measuredRequests
                + " measured requests per run; a gated"
                + " percentile needs at least "
                + MIN_SAMPLES
                + " (raise traffic.request_count or the"
                + " duration)");
        continue;
      }
      if (a.level() == PercentileSamples.Level.FEW_BEYOND) {
        log.warn(rule, a.warning("gate " + g.name()));
        // gated, but below the estimability rule analyze and compare apply to percentiles
        log.warn(
            RuleFile.COMPARISON_UNCERTAINTY,
            "gate "
                + g.name()
                + " ("
                + g.stat()
                + ") can be gated on "
                + measuredRequests
                + " measured requests per run but not compared: compare and analyze call a "
                + g.stat()
                + " resting on fewer than "
                + BigDecimal.valueOf(PercentileSamples.WARN_BEYOND * 100L)
                    .divide(
                        p.min(BigDecimal.valueOf(100).subtract(p)),
                        0,
                        java.math.RoundingMode.CEILING)
                    .toPlainString()
                + " measured requests per run inconclusive (not_estimable;"
                + " n x min(p, 1-p) >= "
                + PercentileSamples.WARN_BEYOND
                + ")");
      }
      log.decide(
          rule,
          "samples: " + g.name() + " rests on " + measuredRequests + " measured" + " requests",
          basis
              + "; "
              + beyond.stripTrailingZeros().toPlainString()
              + " of them beyond the "
              + g.stat());
      out.add(
          new BenchmarkPlan.SampleBasis(
              g.name(), g.metric(), g.stat(), p, measuredRequests, beyond));
    }
    return out;
  }
}
