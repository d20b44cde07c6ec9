package dev.benchplan.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.rules.GateTolerance;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One plan gate as {@code plan} and {@code render} print it: threshold, tolerance and the effective
 * threshold the run will judge against ({@code note} says when an older plan recorded none).
 */
record GateOutput(
    @JsonProperty("name") String name,
    @JsonProperty("metric") String metric,
    @JsonProperty("stat") String stat,
    @JsonProperty("operator") String operator,
    @JsonProperty("threshold") BigDecimal threshold,
    @JsonProperty("unit") String unit,
    @JsonProperty("tolerance") BigDecimal tolerance,
    @JsonProperty("effective_threshold") BigDecimal effectiveThreshold,
    @JsonProperty("note") @Nullable String note) {

  static List<GateOutput> of(List<BenchmarkPlan.Gate> gates) {
    return gates.stream()
        .map(
            g ->
                new GateOutput(
                    g.name(),
                    g.metric(),
                    g.stat(),
                    g.operator(),
                    g.threshold().stripTrailingZeros(),
                    g.unit(),
                    g.appliedTolerance().stripTrailingZeros(),
                    g.effectiveThreshold().stripTrailingZeros(),
                    g.tolerance() == null && g.appliedTolerance().signum() > 0
                        ? GateTolerance.LEGACY_NOTE
                        : null))
        .toList();
  }

  /** One line per gate: {@code gate NAME: METRIC STAT OP T UNIT, tolerance X (effective E)}. */
  static void printText(PrintWriter out, List<GateOutput> gates) {
    for (GateOutput g : gates) {
      out.println(
          "gate "
              + g.name()
              + ": "
              + g.metric()
              + " "
              + g.stat()
              + " "
              + g.operator()
              + " "
              + g.threshold().toPlainString()
              + " "
              + g.unit()
              + ", tolerance "
              + g.tolerance().toPlainString()
              + " (effective "
              + g.effectiveThreshold().toPlainString()
              + ")"
              + (g.note() == null ? "" : "; " + g.note()));
    }
  }
}
