package dev.benchplan.analysis.compare;

import java.util.ArrayList;
import java.util.List;

/** Pareto frontiers of a grid: which points no other point beats on both axes. */
public final class Pareto {
  private Pareto() {}

  /**
   * One point.
   *
   * @param label e.g. the load point
   * @param x the first objective
   * @param y the second objective
   */
  public record Point(String label, double x, double y) {}

  /**
   * Marks each point on or off the frontier.
   *
   * @param points the points (non-finite coordinates are never on the frontier)
   * @param xHigher larger x is better
   * @param yHigher larger y is better
   * @return for each point, whether it is on the frontier
   */
  @SuppressWarnings(
      "ReferenceEquality") // skips the point itself, not a distinct point with equal values
  public static List<Boolean> frontier(List<Point> points, boolean xHigher, boolean yHigher) {
    List<Boolean> on = new ArrayList<>();
    for (Point p : points) {
      boolean dominated = !Double.isFinite(p.x()) || !Double.isFinite(p.y());
      for (Point q : points) {
        if (q == p || dominated || !Double.isFinite(q.x()) || !Double.isFinite(q.y())) {
          continue;
        }
        double dx = xHigher ? q.x() - p.x() : p.x() - q.x();
        double dy = yHigher ? q.y() - p.y() : p.y() - q.y();
        if (dx >= 0 && dy >= 0 && (dx > 0 || dy > 0)) {
          dominated = true;
        }
      }
      on.add(!dominated);
    }
    return on;
  }
}
