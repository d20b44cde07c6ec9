package dev.benchplan.analysis.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.Locale;
import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.svg.SVGGraphics2D;

/**
 * What every plot shares: the size, one colour per load point, one dash per group (a side of a
 * comparison, or a series), the legend at the right (grouped, never over the data area), and the
 * SVG with the data area it drew recorded on the root element ({@code data-plot-area="x y w h"}).
 */
final class PlotCanvas {
  static final int WIDTH = 760;
  static final int HEIGHT = 460;

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

  private static final float[][] DASHES = {null, {6f, 4f}, {2f, 3f}, {8f, 3f, 2f, 3f}};

  private PlotCanvas() {}

  /** The colour of the i-th load point (in numeric order). */
  static Color colour(int i) {
    if (i < PALETTE.length) {
      return PALETTE[i];
    }
    return Color.getHSBColor((i * 0.618034f) % 1f, 0.65f, 0.75f);
  }

  /** The line of the g-th group: solid, dashed, dotted, dash-dot, then again. */
  static Stroke stroke(int g, float width) {
    float[] dash = DASHES[g % DASHES.length];
    return dash == null
        ? new BasicStroke(width)
        : new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dash, 0f);
  }

  /** A legend entry drawn as a short line in a colour and dash. */
  static LegendItem line(String label, Color c, Stroke s) {
    LegendItem li = new LegendItem(label, null, null, null, new Line2D.Double(-9, 0, 9, 0), s, c);
    li.setShapeVisible(false);
    li.setLineVisible(true);
    return li;
  }

  /** A legend entry drawn as a marker. */
  static LegendItem marker(String label, Color c, boolean filled) {
    Shape dot = new Ellipse2D.Double(-4, -4, 8, 8);
    LegendItem li =
        filled
            ? new LegendItem(label, c)
            : new LegendItem(
                label,
                null,
                null,
                null,
                true,
                dot,
                false,
                c,
                true,
                c,
                new BasicStroke(1.2f),
                false,
                new Line2D.Double(),
                new BasicStroke(),
                c);
    li.setShape(dot);
    return li;
  }

  /** White background, light grid, the title's font, the legend at the right from {@code items}. */
  static void style(JFreeChart chart, LegendItemCollection items) {
    chart.setBackgroundPaint(Color.WHITE);
    chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdddddd));
    plot.setRangeGridlinePaint(new Color(0xdddddd));
    plot.setFixedLegendItems(items);
    LegendTitle legend = chart.getLegend();
    if (legend != null) {
      legend.setPosition(RectangleEdge.RIGHT);
      legend.setItemFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      legend.setBorder(0, 0, 0, 0);
    }
  }

  /** The chart as SVG, its data area recorded on the root element. */
  static String svg(JFreeChart chart) {
    SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
    g2.setDefsKeyPrefix("bp"); // the default prefix is time-based: fixed for byte-identical output
    g2.setGeomDoubleConverter(SvgNumbers::geometry);
    g2.setTransformDoubleConverter(SvgNumbers::transform);
    ChartRenderingInfo info = new ChartRenderingInfo();
    chart.draw(g2, new Rectangle(0, 0, WIDTH, HEIGHT), info);
    Rectangle2D a = info.getPlotInfo().getDataArea();
    String area =
        String.format(
            Locale.ROOT,
            " data-plot-area=\"%.1f %.1f %.1f %.1f\"",
            a.getX(),
            a.getY(),
            a.getWidth(),
            a.getHeight());
    String svg = g2.getSVGElement();
    int at = svg.indexOf("<svg") + 4;
    return svg.substring(0, at) + area + svg.substring(at);
  }
}
