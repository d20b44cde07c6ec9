package dev.benchplan.analysis.audit;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.rules.ExpectedErrors;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The error-rate rule (benchmarking/expected-errors.md), one implementation for the gate command,
 * the run command, the audit and the compare command: failed / (successful + failed) requests of an
 * AIPerf export against the limit, the plan's {@code error_rate} gate when it has one (a raised,
 * justified limit), else the default 1%; above the limit (the boundary passes) the run fails.
 *
 * @param total successful plus failed requests, or null when the export does not say
 * @param errors failed requests
 * @param rate errors / total, or null when the total is unknown or zero
 * @param limit the largest acceptable rate
 */
public record ErrorRate(
    @Nullable BigDecimal total, BigDecimal errors, @Nullable BigDecimal rate, BigDecimal limit) {
  /** The derived metric a plan's gate uses for the workload's {@code error_rate_max}. */
  public static final String METRIC = "error_rate";

  /** The request accounting of {@code export} against {@code limit}. */
  public static ErrorRate of(AiperfExport export, BigDecimal limit) {
    BigDecimal errors = export.errorRequestCount();
    Optional<BigDecimal> ok = export.requestCount();
    BigDecimal total = ok.map(n -> n.add(errors)).orElse(errors.signum() > 0 ? errors : null);
    BigDecimal rate =
        total == null || total.signum() == 0 ? null : errors.divide(total, MathContext.DECIMAL64);
    return new ErrorRate(total, errors, rate, limit);
  }

  /** Whether a known rate is over the limit (the limit itself passes). */
  public static boolean exceeds(BigDecimal rate, BigDecimal limit) {
    return rate.compareTo(limit) > 0;
  }

  /** Whether this run's rate is known and over the limit. */
  public boolean over() {
    return rate != null && exceeds(rate, limit);
  }

  /** The limit a plan's gates set: its {@code error_rate <=} gate, else the default 1%. */
  public static BigDecimal limit(@Nullable List<BenchmarkPlan.Gate> gates) {
    if (gates != null) {
      for (BenchmarkPlan.Gate g : gates) {
        if (METRIC.equals(g.metric()) && "<=".equals(g.operator())) {
          return g.threshold();
        }
      }
    }
    return ExpectedErrors.DEFAULT_LIMIT;
  }

  /** A request count as messages write it ({@code 12.0} -> {@code 12}). */
  public static String count(@Nullable BigDecimal n) {
    return n == null ? "?" : n.stripTrailingZeros().toPlainString();
  }

  /** A fraction as a percentage with at most 6 significant digits ({@code 0.03} -> {@code 3%}). */
  public static String percent(@Nullable BigDecimal fraction) {
    if (fraction == null) {
      return "n/a";
    }
    BigDecimal p = fraction.movePointRight(2);
    BigDecimal r =
        p.abs().compareTo(new BigDecimal("1000000")) >= 0
            ? p.setScale(0, RoundingMode.HALF_EVEN)
            : p.round(new MathContext(6));
    return r.stripTrailingZeros().toPlainString() + "%";
  }
}
