package dev.benchplan.analysis.report;

import dev.benchplan.analysis.compare.Pareto;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.commons.statistics.distribution.TDistribution;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.XYPointerAnnotation;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jspecify.annotations.Nullable;

/**
 * A Pareto plot: throughput against a latency or interactivity metric, one colour per candidate (a
 * series, or a side of a comparison), each load point a marker labelled with its load value and 95%
 * interval bars where it has repetitions, frontier points filled and joined along the frontier (in
 * throughput order), off-frontier points hollow, SLO lines, and the highest SLO-feasible point
 * pointed at. Both axes start at zero: a zoomed axis makes noise look like signal.
 */
final class ParetoPlot {
  private ParetoPlot() {}

  /**
   * One load point of a candidate: its run values on both axes.
   *
   * @param loadPoint e.g. {@code concurrency=4}
   * @param xs the throughput per run
   * @param ys the other metric per run
   */
  @SuppressWarnings("ArrayRecordComponent") // plot input only: never compared, hashed or kept
  record Point(String loadPoint, double[] xs, double[] ys) {}

  /** One candidate's points (in numeric load order) and its highest SLO-feasible point, if any. */
  record Candidate(String name, List<Point> points, @Nullable String highestFeasible) {}

  /** A threshold line: on the y axis, or on the x axis when {@code onX}. */
  record Line(String label, double value, boolean onX) {}

  static String draw(
      String title,
      String xLabel,
      String yLabel,
      boolean yHigherIsBetter,
      List<Candidate> candidates,
      List<Line> lines) {
    XYIntervalSeriesCollection marks = new XYIntervalSeriesCollection();
    XYSeriesCollection frontiers = new XYSeriesCollection();
    XYErrorRenderer markRenderer = new XYErrorRenderer();
    markRenderer.setDefaultLinesVisible(false);
    markRenderer.setCapLength(5);
    markRenderer.setErrorStroke(new BasicStroke(1f));
    XYLineAndShapeRenderer frontierRenderer = new XYLineAndShapeRenderer(true, false);
    frontierRenderer.setDrawSeriesLineAsPath(true);
    LegendItemCollection legend = new LegendItemCollection();
    List<XYTextAnnotation> labels = new ArrayList<>();
    List<XYPointerAnnotation> feasible = new ArrayList<>();
    int series = 0;
    for (int c = 0; c < candidates.size(); c++) {
      Candidate cand = candidates.get(c);
      Color colour = PlotCanvas.colour(c);
      List<Pareto.Point> means = new ArrayList<>();
      for (Point p : cand.points()) {
        means.add(new Pareto.Point(p.loadPoint(), mean(p.xs()), mean(p.ys())));
      }
      List<Boolean> on = Pareto.frontier(means, true, yHigherIsBetter);
      XYIntervalSeries onS = new XYIntervalSeries(2 * c, false, true);
      XYIntervalSeries offS = new XYIntervalSeries(2 * c + 1, false, true);
      XYSeries line = new XYSeries(c, false, true);
      List<Pareto.Point> onPoints = new ArrayList<>();
      for (int i = 0; i < means.size(); i++) {
        Pareto.Point m = means.get(i);
        if (!Double.isFinite(m.x()) || !Double.isFinite(m.y())) {
          continue;
        }
        double[] xi = interval(cand.points().get(i).xs(), m.x());
        double[] yi = interval(cand.points().get(i).ys(), m.y());
        (on.get(i) ? onS : offS).add(m.x(), xi[0], xi[1], m.y(), yi[0], yi[1]);
        if (on.get(i)) {
          onPoints.add(m);
        }
        XYTextAnnotation label = new XYTextAnnotation(" " + value(m.label()), m.x(), m.y());
        label.setTextAnchor(TextAnchor.BOTTOM_LEFT);
        label.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        label.setPaint(colour.darker());
        labels.add(label);
        if (m.label().equals(cand.highestFeasible())) {
          XYPointerAnnotation a =
              new XYPointerAnnotation(
                  "highest SLO-feasible: " + m.label(), m.x(), m.y(), Math.toRadians(135));
          a.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 11));
          a.setPaint(colour.darker());
          a.setArrowPaint(colour.darker());
          a.setTextAnchor(TextAnchor.TOP_RIGHT);
          feasible.add(a);
        }
      }
      onPoints.sort(Comparator.comparingDouble(Pareto.Point::x));
      for (Pareto.Point p : onPoints) {
        line.add(p.x(), p.y());
      }
      marks.addSeries(onS);
      markRenderer.setSeriesPaint(series, colour);
      markRenderer.setSeriesShapesFilled(series, true);
      series++;
      marks.addSeries(offS);
      markRenderer.setSeriesPaint(series, colour);
      markRenderer.setSeriesShapesFilled(series, false);
      series++;
      frontiers.addSeries(line);
      frontierRenderer.setSeriesPaint(c, colour);
      frontierRenderer.setSeriesStroke(c, new BasicStroke(1.8f));
      legend.add(PlotCanvas.line(cand.name() + ": frontier", colour, new BasicStroke(1.8f)));
    }
    if (!candidates.isEmpty()) {
      Color grey = new Color(0x555555);
      legend.add(PlotCanvas.marker("on the frontier", grey, true));
      legend.add(PlotCanvas.marker("off the frontier", grey, false));
    }
    markRenderer.setDefaultShape(new java.awt.geom.Ellipse2D.Double(-4, -4, 8, 8));
    markRenderer.setAutoPopulateSeriesShape(false);
    markRenderer.setUseOutlinePaint(false);
    markRenderer.setDrawOutlines(true);

    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, xLabel, yLabel, marks, PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    plot.setRenderer(0, markRenderer);
    plot.setDataset(1, frontiers);
    plot.setRenderer(1, frontierRenderer);
    for (XYTextAnnotation l : labels) {
      plot.addAnnotation(l);
    }
    for (XYPointerAnnotation a : feasible) {
      plot.addAnnotation(a);
    }
    double maxX = 0;
    double maxY = 0;
    for (int s = 0; s < marks.getSeriesCount(); s++) {
      for (int i = 0; i < marks.getItemCount(s); i++) {
        maxX = Math.max(maxX, marks.getEndXValue(s, i));
        maxY = Math.max(maxY, marks.getEndYValue(s, i));
      }
    }
    for (Line l : lines) {
      ValueMarker m = new ValueMarker(l.value());
      m.setPaint(new Color(0xa31515));
      m.setStroke(
          new BasicStroke(
              1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
      m.setLabel(l.label());
      m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      m.setLabelPaint(new Color(0xa31515));
      if (l.onX()) {
        m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        m.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
        plot.addDomainMarker(m, Layer.BACKGROUND);
        maxX = Math.max(maxX, l.value());
      } else {
        m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        m.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        plot.addRangeMarker(m, Layer.BACKGROUND);
        maxY = Math.max(maxY, l.value());
      }
    }
    PlotCanvas.style(chart, legend);
    // from zero, with room for the labels and the SLO lines
    ((NumberAxis) plot.getDomainAxis()).setRange(0, maxX > 0 ? maxX * 1.12 : 1);
    ((NumberAxis) plot.getRangeAxis()).setRange(0, maxY > 0 ? maxY * 1.15 : 1);
    return PlotCanvas.svg(chart);
  }

  /** The value of {@code parameter=value}, or the whole label. */
  static String value(String loadPoint) {
    int eq = loadPoint.indexOf('=');
    return eq < 0 ? loadPoint : loadPoint.substring(eq + 1);
  }

  static double mean(double[] v) {
    double s = 0;
    int n = 0;
    for (double x : v) {
      if (Double.isFinite(x)) {
        s += x;
        n++;
      }
    }
    return n == 0 ? Double.NaN : s / n;
  }

  /** The 95% Student-t interval of the mean; the mean itself with fewer than two values. */
  static double[] interval(double[] v, double mean) {
    double[] f = java.util.Arrays.stream(v).filter(Double::isFinite).toArray();
    if (f.length < 2) {
      return new double[] {mean, mean};
    }
    double ss = 0;
    for (double x : f) {
      ss += (x - mean) * (x - mean);
    }
    double half =
        TDistribution.of(f.length - 1.0).inverseCumulativeProbability(0.975)
            * Math.sqrt(ss / (f.length - 1) / f.length);
    return new double[] {mean - half, mean + half};
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4g", v);
  }
}
