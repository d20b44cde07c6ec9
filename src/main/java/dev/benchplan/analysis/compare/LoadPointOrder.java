package dev.benchplan.analysis.compare;

import java.util.Comparator;

/**
 * The one order of load points in every table, plot and list: numeric (1, 4, 16, 64), not by name.
 */
public final class LoadPointOrder {
  private LoadPointOrder() {}

  /** Numeric order of {@code parameter=value} load points (others last, by name). */
  public static final Comparator<String> NUMERIC =
      Comparator.comparingDouble(LoadPointOrder::value).thenComparing(Comparator.naturalOrder());

  static double value(String loadPoint) {
    int eq = loadPoint.indexOf('=');
    try {
      return eq < 0 ? Double.MAX_VALUE : Double.parseDouble(loadPoint.substring(eq + 1));
    } catch (NumberFormatException e) {
      return Double.MAX_VALUE;
    }
  }
}
