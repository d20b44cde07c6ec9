package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.plan.BenchmarkPlan;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The one load point a Job measures: a concurrency (closed loop), a request rate (open loop), or
 * none (fixed-schedule replay keeps the trace's own timing).
 */
public record LoadPoint(@Nullable Integer concurrency, @Nullable BigDecimal rate) {
  public LoadPoint {
    if (concurrency != null && rate != null) {
      throw new IllegalArgumentException("a load point is a concurrency or a rate, not both");
    }
  }

  /** No load point: the trace's timestamps set the load. */
  public static LoadPoint none() {
    return new LoadPoint(null, null);
  }

  /** The value as printed ({@code 16}, {@code 2.5}), or null for none. */
  public @Nullable String describe() {
    if (concurrency != null) {
      return concurrency.toString();
    }
    return rate == null ? null : plain(rate);
  }

  /** Every load point of the plan, in the plan's order (one, none, or the grid's). */
  public static List<LoadPoint> all(BenchmarkPlan.Experiment e) {
    return switch (e.measurementMode()) {
      case "closed_loop" -> concurrency(e).stream().map(c -> new LoadPoint(c, null)).toList();
      case "open_loop" -> requestRate(e).stream().map(r -> new LoadPoint(null, r)).toList();
      default -> List.of(none());
    };
  }

  /**
   * The folder of this point's run(s) inside the run's artifact tree when the Job measures several
   * points ({@code concurrency_16}, {@code request_rate_2.5}: AIPerf's own sweep naming, {@code
   * <param>_<value>}), or null for none.
   */
  public @Nullable String directoryName() {
    if (concurrency != null) {
      return "concurrency_" + concurrency;
    }
    return rate == null ? null : "request_rate_" + plain(rate);
  }

  /**
   * Picks the point to measure. A plan with one point needs no choice; a grid of several needs
   * {@code requested}, which must be one of them.
   */
  public static LoadPoint select(
      BenchmarkPlan.Experiment e, @Nullable String requested, String source) {
    switch (e.measurementMode()) {
      case "closed_loop" -> {
        List<Integer> points = concurrency(e);
        Integer chosen = null;
        if (requested != null) {
          for (Integer p : points) {
            if (requested.trim().equals(p.toString())) {
              chosen = p;
            }
          }
          if (chosen == null) {
            throw BenchplanException.invalid(
                ErrorLocation.option("--load-point"),
                "--load-point '"
                    + requested
                    + "': not a concurrency point of "
                    + source
                    + " /experiment/concurrency: expected one of "
                    + points);
          }
        } else if (points.size() == 1) {
          chosen = points.get(0);
        } else {
          throw gridBlocker(source, "/experiment/concurrency", points.toString());
        }
        return new LoadPoint(chosen, null);
      }
      case "open_loop" -> {
        List<BigDecimal> points = requestRate(e);
        BigDecimal chosen = null;
        String shown =
            points.stream().map(LoadPoint::plain).collect(Collectors.joining(", ", "[", "]"));
        if (requested != null) {
          BigDecimal value;
          try {
            value = new BigDecimal(requested.trim());
          } catch (NumberFormatException ex) {
            throw BenchplanException.invalid(
                ErrorLocation.option("--load-point"),
                "--load-point '" + requested + "': not a number: expected one of " + shown);
          }
          for (BigDecimal p : points) {
            if (p.compareTo(value) == 0) {
              chosen = p;
            }
          }
          if (chosen == null) {
            throw BenchplanException.invalid(
                ErrorLocation.option("--load-point"),
                "--load-point '"
                    + requested
                    + "': not a request rate of "
                    + source
                    + " /experiment/request_rate: expected one of "
                    + shown);
          }
        } else if (points.size() == 1) {
          chosen = points.get(0);
        } else {
          throw gridBlocker(source, "/experiment/request_rate", shown);
        }
        return new LoadPoint(null, chosen);
      }
      default -> {
        if (requested != null) {
          throw BenchplanException.invalid(
              ErrorLocation.option("--load-point"),
              "--load-point '"
                  + requested
                  + "': "
                  + source
                  + " /experiment/measurement_mode is fixed_schedule, which replays the trace's"
                  + " own timing: expected no --load-point");
        }
        return none();
      }
    }
  }

  private static BenchplanException gridBlocker(String source, String pointer, String points) {
    return BenchplanException.invalid(
        ErrorLocation.pointer(source, pointer),
        source
            + ": "
            + pointer
            + " holds several load points "
            + points
            + "; one Job measures one point: expected --load-point with one of them");
  }

  static String plain(BigDecimal value) {
    BigDecimal v = value.stripTrailingZeros();
    if (v.scale() < 0) {
      v = v.setScale(0);
    }
    return v.toPlainString();
  }

  /** The points of a closed-loop plan (PlanFile checks that closed_loop has them). */
  private static List<Integer> concurrency(BenchmarkPlan.Experiment e) {
    return Objects.requireNonNull(e.concurrency(), "/experiment/concurrency of a closed_loop plan");
  }

  /** The rates of an open-loop plan (PlanFile checks that open_loop has them). */
  private static List<BigDecimal> requestRate(BenchmarkPlan.Experiment e) {
    return Objects.requireNonNull(e.requestRate(), "/experiment/request_rate of an open_loop plan");
  }
}
