package dev.benchplan.analysis.compare;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.plan.BenchmarkPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service-level objective on a summary statistic, e.g. {@code time_to_first_token.p99<=500}.
 *
 * @param metric AIPerf metric tag
 * @param stat statistic (avg, p50, p99, ...)
 * @param operator {@code <=} or {@code >=}
 * @param threshold the threshold, in the metric's unit
 * @param source where it came from (a plan pointer or {@code --slo})
 */
public record Slo(String metric, String stat, String operator, double threshold, String source) {
  private static final Pattern FLAG =
      Pattern.compile("([a-z_]+)\\.([a-z0-9]+)\\s*(<=|>=)\\s*([0-9.eE+-]+)");

  /** True when {@code value} meets the objective. */
  public boolean met(double value) {
    return operator.equals("<=") ? value <= threshold : value >= threshold;
  }

  /** {@code metric.stat}. */
  public String key() {
    return metric + "." + stat;
  }

  /** Parses {@code --slo} values. */
  public static List<Slo> parseFlags(List<String> flags) {
    List<Slo> out = new ArrayList<>();
    for (String f : flags) {
      Matcher m = FLAG.matcher(f.strip());
      if (!m.matches()) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--slo"),
            "--slo "
                + f
                + ": expected METRIC.STAT<=VALUE or METRIC.STAT>=VALUE,"
                + " e.g. time_to_first_token.p99<=500");
      }
      double t;
      try {
        t = new BigDecimal(m.group(4)).doubleValue();
      } catch (NumberFormatException e) {
        throw BenchplanException.invalid(
            ErrorLocation.option("--slo"),
            "--slo " + f + ": threshold " + m.group(4) + " is not a number");
      }
      out.add(new Slo(m.group(1), m.group(2), m.group(3), t, "--slo"));
    }
    return out;
  }

  /** The plan's SLOs ({@code /objectives/slos}, else {@code /objectives/gates}). */
  public static List<Slo> fromPlan(BenchmarkPlan plan) {
    List<Slo> out = new ArrayList<>();
    List<BenchmarkPlan.SloRecord> slos = plan.objectives().slos();
    if (!slos.isEmpty()) {
      for (int i = 0; i < slos.size(); i++) {
        BenchmarkPlan.SloRecord s = slos.get(i);
        out.add(
            new Slo(
                s.metric(),
                s.stat(),
                s.operator(),
                s.threshold().doubleValue(),
                "plan /objectives/slos/" + i));
      }
      return out;
    }
    List<BenchmarkPlan.Gate> gates = plan.objectives().gates();
    for (int i = 0; i < gates.size(); i++) {
      BenchmarkPlan.Gate g = gates.get(i);
      out.add(
          new Slo(
              g.metric(),
              g.stat(),
              g.operator(),
              g.threshold().doubleValue(),
              "plan /objectives/gates/" + i));
    }
    return out;
  }
}
