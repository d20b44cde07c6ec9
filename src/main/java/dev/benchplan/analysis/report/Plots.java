package dev.benchplan.analysis.report;

import dev.benchplan.analysis.compare.LoadPointOrder;
import dev.benchplan.analysis.compare.Slo;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.PlanInfo;
import java.awt.BasicStroke;
import java.awt.Color;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.XYBoxAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jspecify.annotations.Nullable;

/**
 * The plots of the reports, drawn with JFreeChart onto JFreeSVG's SVG canvas: Pareto frontiers
 * ({@link ParetoPlot}), TTFT and ITL CDFs from the per-request records (one colour per load point,
 * one dash per series or side), and, in a comparison, each run's throughput against its own load
 * point's reference band. Load points are in numeric order everywhere; legends are grouped and sit
 * right of the data area ({@link PlotCanvas}). SVG ids use a fixed prefix, so the same inputs give
 * the same bytes.
 */
public final class Plots {
  /** Points drawn per CDF at most (quantiles evenly spaced in probability). */
  static final int CDF_POINTS = 200;

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
    ParetoPlot.draw(
        "warm-up",
        "x",
        "y",
        false,
        List.of(
            new ParetoPlot.Candidate(
                "w",
                List.of(
                    new ParetoPlot.Point("c=1", new double[] {1, 2}, new double[] {1, 2}),
                    new ParetoPlot.Point("c=2", new double[] {3}, new double[] {2})),
                "c=1")),
        List.of(new ParetoPlot.Line("slo", 2, false)));
  }

  /** A named group of runs (a side of a comparison, or one series). */
  public record Group(String name, List<RunEvidence> runs) {}

  /** The runs by load point, in numeric order. */
  static Map<String, List<RunEvidence>> byLoadPoint(List<RunEvidence> runs) {
    Map<String, List<RunEvidence>> m = new TreeMap<>(LoadPointOrder.NUMERIC);
    for (RunEvidence r : runs) {
      m.computeIfAbsent(r.loadPoint(), k -> new ArrayList<>()).add(r);
    }
    return m;
  }

  /**
   * The TTFT and ITL CDFs of an analysis's runs (name to SVG), one dash per series: they need only
   * the per-request records, so analyze draws them while it computes the analysis, and {@link
   * #paretos} after it.
   */
  public static Map<String, String> runCdfs(List<RunEvidence> runs) {
    Map<String, List<RunEvidence>> bySeries = new LinkedHashMap<>();
    for (RunEvidence r : runs) {
      bySeries.computeIfAbsent(r.seriesId(), k -> new ArrayList<>()).add(r);
    }
    List<Group> groups = new ArrayList<>();
    bySeries.forEach((id, rs) -> groups.add(new Group("series " + id, rs)));
    return cdfs(groups);
  }

  /**
   * The Pareto plots of an analysis (throughput against TTFT p99 and against tokens/s/user), the
   * series overlaid.
   */
  public static Map<String, String> paretos(AnalysisDoc analysis) {
    Map<String, String> out = new LinkedHashMap<>();
    String xMetric = "output_token_throughput.avg";
    for (SeriesDoc s : analysis.series()) {
      SeriesDoc.Frontiers f = s.pareto().frontiers();
      if (f != null) {
        xMetric = f.throughputMetric();
      }
    }
    List<ParetoPlot.Candidate> ttft = new ArrayList<>();
    List<ParetoPlot.Candidate> inter = new ArrayList<>();
    Set<ParetoPlot.Line> ttftLines = new LinkedHashSet<>();
    Set<ParetoPlot.Line> interLines = new LinkedHashSet<>();
    for (SeriesDoc s : analysis.series()) {
      List<ParetoPlot.Point> a = new ArrayList<>();
      List<ParetoPlot.Point> b = new ArrayList<>();
      List<SeriesDoc.LoadPoint> lps = new ArrayList<>(s.loadPoints());
      lps.sort(Comparator.comparing(SeriesDoc.LoadPoint::loadPoint, LoadPointOrder.NUMERIC));
      for (SeriesDoc.LoadPoint lp : lps) {
        double[] x = values(lp, xMetric);
        a.add(new ParetoPlot.Point(lp.loadPoint(), x, values(lp, "time_to_first_token.p99")));
        b.add(
            new ParetoPlot.Point(
                lp.loadPoint(), x, values(lp, "output_token_throughput_per_user.avg")));
      }
      SeriesDoc.Frontiers f = s.pareto().frontiers();
      String best = f == null ? null : f.highestSloFeasiblePoint();
      String name = analysis.series().size() == 1 ? "series" : s.seriesId();
      ttft.add(new ParetoPlot.Candidate(name, a, best));
      inter.add(new ParetoPlot.Candidate(name, b, best));
      for (SeriesDoc.SloDef slo : s.slos()) {
        line(slo.metric() + "." + slo.stat(), slo.operator(), slo.threshold(), xMetric)
            .ifPresent(l -> (l.onX() || isTtft(slo) ? ttftLines : interLines).add(l));
        if (slo.threshold() != null && "output_token_throughput".equals(slo.metric())) {
          line(slo.metric() + "." + slo.stat(), slo.operator(), slo.threshold(), xMetric)
              .ifPresent(interLines::add);
        }
      }
    }
    String xLabel = axis(xMetric);
    out.put(
        "pareto_ttft_p99.svg",
        ParetoPlot.draw(
            "Throughput against TTFT p99 (lower right is better)",
            xLabel,
            "time to first token, p99 (ms)",
            false,
            ttft,
            List.copyOf(ttftLines)));
    out.put(
        "pareto_interactivity.svg",
        ParetoPlot.draw(
            "Throughput against interactivity (upper right is better)",
            xLabel,
            "output tokens per second per user (tok/s/user)",
            true,
            inter,
            List.copyOf(interLines)));
    return out;
  }

  private static boolean isTtft(SeriesDoc.SloDef slo) {
    return slo.metric().equals("time_to_first_token") && slo.stat().equals("p99");
  }

  /** An SLO as a line on a Pareto plot, when it is on one of its axes. */
  private static java.util.Optional<ParetoPlot.Line> line(
      String key, String operator, @Nullable BigDecimal threshold, String xMetric) {
    if (threshold == null) {
      return java.util.Optional.empty();
    }
    String label =
        "SLO " + key + " " + operator + " " + threshold.stripTrailingZeros().toPlainString();
    double v = threshold.doubleValue();
    if (key.equals("time_to_first_token.p99")
        || key.equals("output_token_throughput_per_user.avg")) {
      return java.util.Optional.of(new ParetoPlot.Line(label, v, false));
    }
    if (key.equals(xMetric)) {
      return java.util.Optional.of(new ParetoPlot.Line(label, v, true));
    }
    return java.util.Optional.empty();
  }

  /** A metric id as an axis names it: in words, with its unit. */
  static String axis(String metric) {
    return switch (metric) {
      case "output_token_throughput_per_gpu" -> "output tokens per second per GPU (tok/s/GPU)";
      case "output_token_throughput.avg" -> "output tokens per second (tok/s)";
      default -> metric;
    };
  }

  private static double[] values(SeriesDoc.LoadPoint lp, String metric) {
    SeriesDoc.MetricMean m = lp.metrics().get(metric);
    if (m == null) {
      return new double[0];
    }
    return m.values().stream().mapToDouble(v -> v == null ? Double.NaN : v.doubleValue()).toArray();
  }

  /**
   * The plots of a comparison: name to SVG.
   *
   * @param noiseCv the series noise floor's CV of output throughput, or NaN: the band of a load
   *     point whose reference has one run
   */
  public static Map<String, String> forComparison(
      Group reference, Group candidate, double noiseCv) {
    Map<String, String> out = new LinkedHashMap<>();
    List<ParetoPlot.Candidate> cands = new ArrayList<>();
    for (Group g : List.of(reference, candidate)) {
      List<ParetoPlot.Point> pts = new ArrayList<>();
      byLoadPoint(g.runs())
          .forEach(
              (lp, rs) ->
                  pts.add(
                      new ParetoPlot.Point(
                          lp,
                          stat(rs, "output_token_throughput", "avg"),
                          stat(rs, "time_to_first_token", "p99"))));
      cands.add(new ParetoPlot.Candidate(g.name(), pts, null));
    }
    List<ParetoPlot.Line> lines = new ArrayList<>();
    PlanInfo plan = RunEvidence.firstReadPlan(reference.runs());
    if (plan != null && plan.plan() != null) {
      for (Slo s : Slo.fromPlan(plan.plan())) {
        line(
                s.key(),
                s.operator(),
                BigDecimal.valueOf(s.threshold()),
                "output_token_throughput.avg")
            .filter(l -> l.onX() || s.key().equals("time_to_first_token.p99"))
            .ifPresent(lines::add);
      }
    }
    out.put(
        "pareto_ttft_p99.svg",
        ParetoPlot.draw(
            "Reference and candidate: throughput against TTFT p99 (lower right is better)",
            axis("output_token_throughput.avg"),
            "time to first token, p99 (ms)",
            false,
            cands,
            lines));
    out.put("throughput.svg", throughputPerRun(reference, candidate, noiseCv));
    out.putAll(cdfs(List.of(reference, candidate)));
    return out;
  }

  private static double[] stat(List<RunEvidence> runs, String metric, String stat) {
    return runs.stream().mapToDouble(r -> r.stat(metric, stat).orElse(Double.NaN)).toArray();
  }

  /**
   * Each run's output throughput as a percentage of the reference mean at its own load point, with
   * that point's band (+- 2 standard deviations of the reference runs there, else of the noise
   * floor's CV): load points of very different throughput share one readable axis.
   */
  static String throughputPerRun(Group reference, Group candidate, double noiseCv) {
    Map<String, List<RunEvidence>> ref = byLoadPoint(reference.runs());
    Map<String, List<RunEvidence>> cand = byLoadPoint(candidate.runs());
    Set<String> points = new java.util.TreeSet<>(LoadPointOrder.NUMERIC);
    points.addAll(ref.keySet());
    points.addAll(cand.keySet());
    List<String> names = new ArrayList<>(points);
    XYSeriesCollection data = new XYSeriesCollection();
    XYSeries r = new XYSeries(reference.name(), false, true);
    XYSeries c = new XYSeries(candidate.name(), false, true);
    List<XYBoxAnnotation> bands = new ArrayList<>();
    double lo = -5;
    double hi = 5;
    for (int i = 0; i < names.size(); i++) {
      double[] rv =
          stat(ref.getOrDefault(names.get(i), List.of()), "output_token_throughput", "avg");
      double mean = ParetoPlot.mean(rv);
      if (!Double.isFinite(mean) || mean == 0) {
        continue;
      }
      double sd = sd(rv, mean);
      double bandPct = 2 * (Double.isFinite(sd) ? sd / mean * 100 : noiseCv * 100);
      if (Double.isFinite(bandPct)) {
        bands.add(
            new XYBoxAnnotation(
                i - 0.4,
                -bandPct,
                i + 0.4,
                bandPct,
                new BasicStroke(0f),
                null,
                new Color(0x1f, 0x77, 0xb4, 45)));
        hi = Math.max(hi, bandPct);
        lo = Math.min(lo, -bandPct);
      }
      for (Object[] side :
          new Object[][] {
            {r, rv, -0.15},
            {
              c,
              stat(cand.getOrDefault(names.get(i), List.of()), "output_token_throughput", "avg"),
              0.15
            }
          }) {
        double[] v = (double[]) side[1];
        for (int k = 0; k < v.length; k++) {
          if (Double.isFinite(v[k])) {
            double pct = (v[k] / mean - 1) * 100;
            double x = i + (double) side[2] + (k - (v.length - 1) / 2.0) * 0.03;
            ((XYSeries) side[0]).add(x, pct);
            hi = Math.max(hi, pct);
            lo = Math.min(lo, pct);
          }
        }
      }
    }
    data.addSeries(r);
    data.addSeries(c);
    SymbolAxis x =
        new SymbolAxis("load point", names.stream().map(ParetoPlot::value).toArray(String[]::new));
    if (!names.isEmpty()) {
      int eq = names.get(0).indexOf('=');
      x.setLabel(eq > 0 ? "load point (" + names.get(0).substring(0, eq) + ")" : "load point");
    }
    x.setGridBandsVisible(false);
    JFreeChart chart =
        ChartFactory.createScatterPlot(
            "Output throughput per run against the reference at its load point",
            "load point",
            "output throughput, % of the reference mean at the point",
            data,
            PlotOrientation.VERTICAL,
            true,
            false,
            false);
    XYPlot plot = chart.getXYPlot();
    plot.setDomainAxis(x);
    x.setRange(-0.6, Math.max(0.6, names.size() - 0.4));
    XYLineAndShapeRenderer rr = new XYLineAndShapeRenderer(false, true);
    rr.setSeriesPaint(0, PlotCanvas.colour(0));
    rr.setSeriesPaint(1, PlotCanvas.colour(1));
    rr.setSeriesShape(0, org.jfree.chart.util.ShapeUtils.createDiamond(4.5f));
    rr.setSeriesShape(1, org.jfree.chart.util.ShapeUtils.createUpTriangle(4.5f));
    plot.setRenderer(rr);
    for (XYBoxAnnotation b : bands) {
      plot.addAnnotation(b);
    }
    ValueMarker zero = new ValueMarker(0, new Color(0x888888), new BasicStroke(1f));
    plot.addRangeMarker(zero);
    ((NumberAxis) plot.getRangeAxis()).setRange(lo - (hi - lo) * 0.08, hi + (hi - lo) * 0.08);
    LegendItemCollection legend = new LegendItemCollection();
    legend.add(PlotCanvas.marker(reference.name() + " run", PlotCanvas.colour(0), true));
    legend.add(PlotCanvas.marker(candidate.name() + " run", PlotCanvas.colour(1), true));
    legend.add(
        new org.jfree.chart.LegendItem(
            "reference mean +- 2 sd at the point (noise floor CV with one run)",
            new Color(0x1f, 0x77, 0xb4, 45)));
    PlotCanvas.style(chart, legend);
    return PlotCanvas.svg(chart);
  }

  private static double sd(double[] v, double mean) {
    int n = 0;
    double ss = 0;
    for (double x : v) {
      if (Double.isFinite(x)) {
        ss += (x - mean) * (x - mean);
        n++;
      }
    }
    return n < 2 ? Double.NaN : Math.sqrt(ss / (n - 1));
  }

  private static Map<String, String> cdfs(List<Group> groups) {
    Map<String, String> out = new LinkedHashMap<>();
    List<RunEvidence> all = new ArrayList<>();
    groups.forEach(g -> all.addAll(g.runs()));
    List<String> points = new ArrayList<>(byLoadPoint(all).keySet());
    for (String[] m :
        new String[][] {
          {"time_to_first_token", "ttft_cdf.svg", "time to first token (ms)"},
          {"inter_token_latency", "itl_cdf.svg", "inter-token latency (ms)"}
        }) {
      XYSeriesCollection c = new XYSeriesCollection();
      XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
      r.setDrawSeriesLineAsPath(true);
      for (int g = 0; g < groups.size(); g++) {
        Group group = groups.get(g);
        for (Map.Entry<String, List<RunEvidence>> e : byLoadPoint(group.runs()).entrySet()) {
          for (RunEvidence run : e.getValue()) {
            if (run.scan() == null) {
              continue;
            }
            double[] v = run.scan().values(m[0]).sortedFinite();
            if (v.length == 0) {
              continue;
            }
            // keyed by index: labels repeat across load points (rep0, rep1, ...)
            XYSeries s = new XYSeries(c.getSeriesCount(), false, true);
            int step = Math.max(1, v.length / CDF_POINTS);
            for (int i = 0; i < v.length; i += step) {
              s.add(v[i], (i + 1) / (double) v.length);
            }
            s.add(v[v.length - 1], 1.0);
            int idx = c.getSeriesCount();
            c.addSeries(s);
            r.setSeriesPaint(idx, PlotCanvas.colour(points.indexOf(e.getKey())));
            r.setSeriesStroke(idx, PlotCanvas.stroke(g, 1.3f));
          }
        }
      }
      LegendItemCollection legend = new LegendItemCollection();
      for (int i = 0; i < points.size(); i++) {
        int n = 0;
        for (RunEvidence run : all) {
          n += run.loadPoint().equals(points.get(i)) ? 1 : 0;
        }
        legend.add(
            PlotCanvas.line(
                points.get(i) + " (" + n + (n == 1 ? " run)" : " runs)"),
                PlotCanvas.colour(i),
                new BasicStroke(2f)));
      }
      if (groups.size() > 1) {
        for (int g = 0; g < groups.size(); g++) {
          legend.add(
              PlotCanvas.line(
                  groups.get(g).name(), new Color(0x444444), PlotCanvas.stroke(g, 1.5f)));
        }
      }
      JFreeChart chart =
          ChartFactory.createXYLineChart(
              "CDF of " + m[2] + " per run, from the per-request records",
              m[2],
              "fraction of requests at or below",
              c,
              PlotOrientation.VERTICAL,
              true,
              false,
              false);
      XYPlot plot = chart.getXYPlot();
      plot.setRenderer(r);
      ((NumberAxis) plot.getRangeAxis()).setRange(0, 1.02);
      NumberAxis xa = (NumberAxis) plot.getDomainAxis();
      xa.setAutoRangeIncludesZero(true);
      PlotCanvas.style(chart, legend);
      out.put(m[1], PlotCanvas.svg(chart));
    }
    return out;
  }

  static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f%%", v);
  }
}
