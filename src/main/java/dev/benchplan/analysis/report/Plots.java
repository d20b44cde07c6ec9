package dev.benchplan.analysis.report;

import dev.benchplan.analysis.evidence.RunEvidence;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jspecify.annotations.Nullable;

/**
 * The plots of the reports, drawn with JFreeChart onto JFreeSVG's SVG canvas: Pareto frontiers,
 * TTFT and ITL CDFs from the per-request records, and throughput per run with the noise band. SVG
 * ids use a fixed prefix, so the same inputs give the same bytes.
 */
public final class Plots {
  static final int WIDTH = 720;
  static final int HEIGHT = 420;

  /** Points drawn per CDF at most (quantiles evenly spaced in probability). */
  static final int CDF_POINTS = 200;

  private static final Color[] PALETTE = {
    new Color(0x1f77b4),
    new Color(0xd62728),
    new Color(0x2ca02c),
    new Color(0xff7f0e),
    new Color(0x9467bd),
    new Color(0x8c564b),
    new Color(0x17becf),
    new Color(0x7f7f7f)
  };

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true"); // charts are drawn off-screen only
    }
  }

  private Plots() {}

  /**
   * Draws a small chart and throws it away: loads and initialises JFreeChart, JFreeSVG and AWT's
   * fonts ahead of the real plots (on another thread while the records are read).
   */
  public static void warmUp() {
    XYSeries s = new XYSeries("warm-up", false);
    s.add(1, 1);
    s.add(2, 3);
    XYSeriesCollection data = new XYSeriesCollection();
    data.addSeries(s);
    xy("warm-up", "x", "y", data, true, new double[] {1, 2});
  }

  /** A named group of runs (a side of a comparison, or one series). */
  public record Group(String name, List<RunEvidence> runs) {}

  /**
   * The TTFT and ITL CDFs of an analysis's runs (name to SVG): they need only the per-request
   * records, so analyze draws them while it computes the analysis, and {@link #paretos} after it.
   */
  public static Map<String, String> runCdfs(List<RunEvidence> runs) {
    return cdfs(List.of(new Group("run", runs)));
  }

  /** The Pareto plots of an analysis (throughput against TTFT p99 and against interactivity). */
  public static Map<String, String> paretos(AnalysisDoc analysis) {
    Map<String, String> out = new LinkedHashMap<>();
    XYSeriesCollection pareto = new XYSeriesCollection();
    XYSeriesCollection inter = new XYSeriesCollection();
    String xMetric = "output_token_throughput.avg";
    for (SeriesDoc s : analysis.series()) {
      String id = s.seriesId();
      XYSeries p = new XYSeries(id + " (TTFT p99)", false);
      XYSeries q = new XYSeries(id + " (tokens/s/user)", false);
      SeriesDoc.Frontiers par = s.pareto().frontiers();
      if (s.pareto().grid() && par != null) {
        xMetric = par.throughputMetric();
        addPoints(p, par.throughputVsTtftP99());
        addPoints(q, par.throughputVsInteractivity());
      } else {
        for (SeriesDoc.LoadPoint lp : s.loadPoints()) {
          double x = mean(lp, xMetric);
          add(p, x, mean(lp, "time_to_first_token.p99"));
          add(q, x, mean(lp, "output_token_throughput_per_user.avg"));
        }
      }
      pareto.addSeries(p);
      inter.addSeries(q);
    }
    out.put(
        "pareto_ttft_p99.svg",
        xy(
            "Throughput vs TTFT p99 (frontier: up-left is worse)",
            xMetric,
            "TTFT p99 (ms)",
            pareto,
            true,
            null));
    out.put(
        "pareto_interactivity.svg",
        xy("Throughput vs interactivity", xMetric, "tokens/sec/user", inter, true, null));
    return out;
  }

  /** The plots of a comparison: name to SVG. */
  public static Map<String, String> forComparison(
      Group reference, Group candidate, double @Nullable [] band) {
    Map<String, String> out = new LinkedHashMap<>();
    XYSeriesCollection pareto = new XYSeriesCollection();
    XYSeriesCollection tput = new XYSeriesCollection();
    for (Group g : List.of(reference, candidate)) {
      XYSeries p = new XYSeries(g.name(), false);
      XYSeries t = new XYSeries(g.name(), false);
      int i = 1;
      for (RunEvidence r : g.runs()) {
        add(
            p,
            r.stat("output_token_throughput", "avg").orElse(Double.NaN),
            r.stat("time_to_first_token", "p99").orElse(Double.NaN));
        add(t, i++, r.stat("output_token_throughput", "avg").orElse(Double.NaN));
      }
      pareto.addSeries(p);
      tput.addSeries(t);
    }
    out.put(
        "pareto_ttft_p99.svg",
        xy(
            "Reference and candidate: throughput vs TTFT p99",
            "output tokens/sec",
            "TTFT p99 (ms)",
            pareto,
            false,
            null));
    out.put(
        "throughput.svg",
        xy(
            "Output throughput per run" + (band == null ? "" : " (band: reference mean +- noise)"),
            "run",
            "output tokens/sec",
            tput,
            false,
            band));
    out.putAll(cdfs(List.of(reference, candidate)));
    return out;
  }

  private static Map<String, String> cdfs(List<Group> groups) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String[] m :
        new String[][] {
          {"time_to_first_token", "ttft_cdf.svg", "TTFT (ms)"},
          {"inter_token_latency", "itl_cdf.svg", "inter-token latency (ms)"}
        }) {
      XYSeriesCollection c = new XYSeriesCollection();
      for (Group g : groups) {
        for (RunEvidence r : g.runs()) {
          if (r.scan() == null) {
            continue;
          }
          double[] v = r.scan().values(m[0]).sortedFinite();
          if (v.length == 0) {
            continue;
          }
          String name = (groups.size() > 1 ? g.name() + ": " : "") + r.source().label();
          XYSeries s = new XYSeries(name, false);
          int step = Math.max(1, v.length / CDF_POINTS);
          for (int i = 0; i < v.length; i += step) {
            s.add(v[i], (i + 1) / (double) v.length);
          }
          s.add(v[v.length - 1], 1.0);
          c.addSeries(s);
        }
      }
      out.put(
          m[1],
          xy(
              "CDF of " + m[2] + " from the per-request records",
              m[2],
              "fraction of requests",
              c,
              false,
              null));
    }
    return out;
  }

  private static void addPoints(XYSeries s, List<SeriesDoc.FrontierPoint> points) {
    for (SeriesDoc.FrontierPoint p : points) {
      add(s, d(p.x()), d(p.y()));
    }
  }

  /** A metric's mean at a load point, or NaN. */
  private static double mean(SeriesDoc.LoadPoint lp, String metric) {
    SeriesDoc.MetricMean m = lp.metrics().get(metric);
    return m == null ? Double.NaN : d(m.mean());
  }

  private static double d(@Nullable BigDecimal v) {
    return v == null ? Double.NaN : v.doubleValue();
  }

  private static void add(XYSeries s, double x, double y) {
    if (Double.isFinite(x) && Double.isFinite(y)) {
      s.add(x, y);
    }
  }

  /**
   * At least 10% of the largest magnitude: identical values get a readable axis, not 1e-9 ticks.
   */
  private static double minimumSize(XYSeriesCollection data, boolean domain) {
    double max = 0;
    for (int i = 0; i < data.getSeriesCount(); i++) {
      for (int j = 0; j < data.getItemCount(i); j++) {
        max = Math.max(max, Math.abs(domain ? data.getXValue(i, j) : data.getYValue(i, j)));
      }
    }
    return max > 0 ? max * 0.1 : 1.0;
  }

  static String xy(
      String title,
      String xLabel,
      String yLabel,
      XYSeriesCollection data,
      boolean lines,
      double @Nullable [] band) {
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
    chart.setBackgroundPaint(Color.WHITE);
    chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdddddd));
    plot.setRangeGridlinePaint(new Color(0xdddddd));
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      r.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
      r.setSeriesStroke(i, new BasicStroke(1.5f));
      boolean longSeries = data.getSeries(i).getItemCount() > 20;
      r.setSeriesLinesVisible(i, lines || longSeries);
      // a long series (a CDF) is its line alone, drawn as one path: a marker per point made each
      // CDF of six 100-request runs 620 KB of SVG
      r.setSeriesShapesVisible(i, !longSeries);
    }
    r.setDrawSeriesLineAsPath(true);
    plot.setRenderer(r);
    if (band != null && band.length == 2 && Double.isFinite(band[0]) && Double.isFinite(band[1])) {
      IntervalMarker m = new IntervalMarker(band[0], band[1]);
      m.setPaint(new Color(0x1f, 0x77, 0xb4, 40));
      plot.addRangeMarker(m);
    }
    if (plot.getDomainAxis() instanceof org.jfree.chart.axis.NumberAxis na) {
      na.setAutoRangeIncludesZero(false);
      na.setAutoRangeMinimumSize(minimumSize(data, true));
      if (xLabel.equals("run")) {
        na.setStandardTickUnits(org.jfree.chart.axis.NumberAxis.createIntegerTickUnits());
      }
    }
    if (plot.getRangeAxis() instanceof org.jfree.chart.axis.NumberAxis na) {
      na.setAutoRangeIncludesZero(false);
      na.setAutoRangeMinimumSize(minimumSize(data, false));
    }
    SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
    g2.setDefsKeyPrefix("bp"); // the default prefix is time-based: fixed for byte-identical output
    g2.setGeomDoubleConverter(SvgNumbers::geometry);
    g2.setTransformDoubleConverter(SvgNumbers::transform);
    chart.draw(g2, new Rectangle(0, 0, WIDTH, HEIGHT));
    return g2.getSVGElement();
  }
}
