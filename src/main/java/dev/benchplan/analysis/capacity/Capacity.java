package dev.benchplan.analysis.capacity;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.statistics.distribution.TDistribution;
import org.jspecify.annotations.Nullable;

/**
 * The capacity answer of a load grid (docs/readme/analyze.md, "Capacity").
 *
 * <p>The knee: with the load points in numeric order and T, D the mean throughput and latency over
 * each point's runs, a step from point i to i+1 has latency outpacing throughput when D(i+1)/D(i)
 * &gt; T(i+1)/T(i) — each further percent of throughput costs more than a percent of latency. The
 * knee is the lower point of the first such step; a sweep without one did not saturate.
 */
public final class Capacity {
  /** The throughput scaled. */
  public static final String THROUGHPUT = "output_token_throughput.avg";

  /** The latency set against it: the gate's latency metric. */
  public static final String LATENCY = "time_to_first_token.p99";

  /** How far past the highest load a sweep without a knee should go: two more doublings. */
  static final int EXTEND_FACTOR = 4;

  static final String KNEE_RULE =
      "load points in numeric order; a step from point i to i+1 has latency outpacing throughput"
          + " when "
          + LATENCY
          + "(i+1)/"
          + LATENCY
          + "(i) > "
          + THROUGHPUT
          + "(i+1)/"
          + THROUGHPUT
          + "(i) (means over runs); the knee is the lower point of the first such step";

  private static final MathContext DIGITS = new MathContext(10);

  private Capacity() {}

  /**
   * An SLO as the capacity answer needs it.
   *
   * @param key {@code metric.stat}, a key of {@link Point#values()}
   * @param operator {@code <=} or {@code >=}
   * @param threshold the limit
   */
  public record Slo(String key, String operator, double threshold) {
    /** Validates the operator. */
    public Slo {
      if (!operator.equals("<=") && !operator.equals(">=")) {
        throw new IllegalArgumentException("SLO operator must be <= or >=, got " + operator);
      }
    }

    boolean met(double v) {
      return operator.equals("<=") ? v <= threshold : v >= threshold;
    }

    String label() {
      return key + " " + operator + " " + threshold;
    }
  }

  /**
   * One load point: its name and each metric's value per run.
   *
   * @param loadPoint {@code parameter=value}, e.g. {@code concurrency=4}
   * @param values per metric key ({@link #THROUGHPUT}, {@link #LATENCY}, each SLO's key), the run
   *     values (non-finite ones are ignored)
   */
  public record Point(String loadPoint, Map<String, double[]> values) {
    /** Copies the map. */
    public Point {
      values = Map.copyOf(values);
    }

    double mean(String key) {
      double[] v = finite(key);
      if (v.length == 0) {
        return Double.NaN;
      }
      double s = 0;
      for (double x : v) {
        s += x;
      }
      return s / v.length;
    }

    double[] finite(String key) {
      double[] v = values.get(key);
      return v == null
          ? new double[0]
          : java.util.Arrays.stream(v).filter(Double::isFinite).toArray();
    }
  }

  /** A parsed numeric load point. */
  private record Load(String parameter, double value, Point point) {}

  /**
   * The capacity answer, or empty when the points are not a grid: fewer than two load points, or a
   * point that is not {@code parameter=number} of one parameter (a trace replay).
   */
  public static Optional<CapacityDoc> analyze(List<Point> points, List<Slo> slos) {
    List<Load> grid = new ArrayList<>();
    for (Point p : points) {
      Load l = parse(p);
      if (l == null || (!grid.isEmpty() && !grid.get(0).parameter().equals(l.parameter()))) {
        return Optional.empty();
      }
      grid.add(l);
    }
    if (grid.size() < 2) {
      return Optional.empty();
    }
    grid.sort(Comparator.comparingDouble(Load::value));
    String parameter = grid.get(0).parameter();

    List<CapacityDoc.Step> steps = new ArrayList<>();
    String knee = null;
    for (int i = 0; i + 1 < grid.size(); i++) {
      Load a = grid.get(i);
      Load b = grid.get(i + 1);
      double loadRatio = b.value() / a.value();
      double tA = a.point().mean(THROUGHPUT);
      double tB = b.point().mean(THROUGHPUT);
      double dA = a.point().mean(LATENCY);
      double dB = b.point().mean(LATENCY);
      double tRatio = tB / tA;
      double dRatio = dB / dA;
      boolean outpaces = Double.isFinite(tRatio) && Double.isFinite(dRatio) && dRatio > tRatio;
      if (outpaces && knee == null) {
        knee = a.point().loadPoint();
      }
      steps.add(
          new CapacityDoc.Step(
              a.point().loadPoint(),
              b.point().loadPoint(),
              num(loadRatio),
              num(tRatio),
              num(dRatio),
              num(tRatio / loadRatio),
              tB > tA ? num((dB - dA) / (tB - tA)) : null,
              outpaces));
    }
    Load top = grid.get(grid.size() - 1);
    String extendTo = knee == null ? parameter + "=" + plain(top.value() * EXTEND_FACTOR) : null;
    CapacityDoc.Feasible feasible = slos.isEmpty() ? null : highestFeasible(grid, slos);
    String statement = statement(grid, steps, knee, extendTo, slos, feasible);
    return Optional.of(
        new CapacityDoc(
            parameter,
            THROUGHPUT,
            LATENCY,
            KNEE_RULE,
            List.copyOf(steps),
            knee,
            knee != null,
            extendTo,
            feasible,
            statement));
  }

  private static CapacityDoc.@Nullable Feasible highestFeasible(List<Load> grid, List<Slo> slos) {
    for (int i = grid.size() - 1; i >= 0; i--) {
      Point p = grid.get(i).point();
      boolean all = true;
      for (Slo s : slos) {
        double m = p.mean(s.key());
        all &= Double.isFinite(m) && s.met(m);
      }
      if (!all) {
        continue;
      }
      List<CapacityDoc.SloMargin> margins = new ArrayList<>();
      boolean certain = true;
      for (Slo s : slos) {
        double[] v = p.finite(s.key());
        double[] ci = interval(v);
        String status;
        if (v.length < 2) {
          status = "met_single_run";
        } else {
          // the end of the interval on the SLO's bad side
          double worst = s.operator().equals("<=") ? ci[1] : ci[0];
          status = s.met(worst) ? "met" : "met_interval_crosses";
        }
        certain &= status.equals("met");
        margins.add(new CapacityDoc.SloMargin(s.label(), estimate(v), status));
      }
      return new CapacityDoc.Feasible(
          p.loadPoint(),
          estimate(p.finite(THROUGHPUT)),
          List.copyOf(margins),
          certain,
          i + 1 < grid.size() ? grid.get(i + 1).point().loadPoint() : null);
    }
    return null;
  }

  private static String statement(
      List<Load> grid,
      List<CapacityDoc.Step> steps,
      @Nullable String knee,
      @Nullable String extendTo,
      List<Slo> slos,
      CapacityDoc.@Nullable Feasible feasible) {
    StringBuilder sb = new StringBuilder();
    Load first = grid.get(0);
    Load last = grid.get(grid.size() - 1);
    double tRatio = last.point().mean(THROUGHPUT) / first.point().mean(THROUGHPUT);
    double dRatio = last.point().mean(LATENCY) / first.point().mean(LATENCY);
    sb.append("throughput x")
        .append(fmt(tRatio))
        .append(" for x")
        .append(fmt(last.value() / first.value()))
        .append(" the load (")
        .append(first.point().loadPoint())
        .append(" to ")
        .append(last.point().loadPoint())
        .append("), TTFT p99 x")
        .append(fmt(dRatio))
        .append("; scaling efficiency per step ");
    List<String> eff = new ArrayList<>();
    for (CapacityDoc.Step s : steps) {
      eff.add(s.scalingEfficiency() == null ? "n/a" : fmt(s.scalingEfficiency().doubleValue()));
    }
    sb.append(String.join(", ", eff)).append("; ");
    if (knee != null) {
      CapacityDoc.Step at =
          steps.stream().filter(CapacityDoc.Step::latencyOutpacesThroughput).findFirst().get();
      sb.append("knee at ")
          .append(knee)
          .append(" (from it to ")
          .append(at.to())
          .append(" TTFT p99 x")
          .append(fmt(d(at.latencyRatio())))
          .append(" for throughput x")
          .append(fmt(d(at.throughputRatio())))
          .append(")");
    } else {
      sb.append("no knee: the sweep did not saturate: extend to ").append(extendTo);
    }
    sb.append("; ");
    if (slos.isEmpty()) {
      sb.append("no SLO given (--slo or the plan's objectives): no SLO-feasible point");
    } else if (feasible == null) {
      sb.append("no load point meets every SLO");
    } else {
      CapacityDoc.Estimate t = feasible.throughput();
      sb.append("highest SLO-feasible point ")
          .append(feasible.loadPoint())
          .append(" (")
          .append(fmt(d(t.mean())))
          .append(" tok/s");
      if (t.ciLow() != null && t.ciHigh() != null) {
        sb.append(", 95% CI ")
            .append(fmt(t.ciLow().doubleValue()))
            .append("..")
            .append(fmt(t.ciHigh().doubleValue()));
      } else {
        sb.append(", ").append(t.runs()).append(" run: no interval");
      }
      sb.append(feasible.certain() ? ", every SLO met by its whole interval" : "");
      for (CapacityDoc.SloMargin m : feasible.slos()) {
        if (m.status().equals("met_interval_crosses")) {
          sb.append(", ").append(m.slo()).append(": its interval crosses the limit");
        }
      }
      sb.append(")");
      sb.append(
          feasible.nextPoint() == null
              ? "; every point of the sweep meets the SLOs"
              : "; " + feasible.nextPoint() + " misses an SLO");
    }
    return sb.toString();
  }

  /** The mean and its 95% Student-t interval ({NaN, NaN} bounds below two values). */
  static double[] interval(double[] v) {
    if (v.length < 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double mean = 0;
    for (double x : v) {
      mean += x;
    }
    mean /= v.length;
    double ss = 0;
    for (double x : v) {
      ss += (x - mean) * (x - mean);
    }
    double se = Math.sqrt(ss / (v.length - 1) / v.length);
    double t = TDistribution.of(v.length - 1.0).inverseCumulativeProbability(0.975);
    return new double[] {mean - t * se, mean + t * se};
  }

  private static CapacityDoc.Estimate estimate(double[] v) {
    double mean = v.length == 0 ? Double.NaN : java.util.Arrays.stream(v).average().orElseThrow();
    double[] ci = interval(v);
    return new CapacityDoc.Estimate(num(mean), num(ci[0]), num(ci[1]), v.length);
  }

  private static @Nullable Load parse(Point p) {
    String lp = p.loadPoint();
    int eq = lp.indexOf('=');
    if (eq <= 0) {
      return null;
    }
    try {
      double v = Double.parseDouble(lp.substring(eq + 1));
      return Double.isFinite(v) && v > 0 ? new Load(lp.substring(0, eq), v, p) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Ten significant digits, as the analysis documents write numbers; null when not finite. */
  private static @Nullable BigDecimal num(double v) {
    return Double.isFinite(v) ? new BigDecimal(v, DIGITS).stripTrailingZeros() : null;
  }

  private static double d(@Nullable BigDecimal v) {
    return v == null ? Double.NaN : v.doubleValue();
  }

  private static String fmt(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3g", v) : "n/a";
  }

  /** 16 for 16.0, 2.5 for 2.5: a load value as a load point writes it. */
  static String plain(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
