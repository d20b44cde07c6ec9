package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reports stay readable at a realistic size: a generated 4 candidates x 8 load points x 5
 * repetitions (analyze), 8 load points x 5 repetitions per side (compare) and the real sweep, each
 * rendered to report.html and screenshotted in chromium. In every SVG the data area is at least
 * half the figure's height and holds a data path; load points appear in numeric order.
 */
class ReportReadabilityTest {
  static final int[] LOADS = {64, 1, 16, 2, 128, 4, 32, 8}; // written out of numeric order

  static final Pattern SVG = Pattern.compile("<svg[^>]*>.*?</svg>", Pattern.DOTALL);
  static final Pattern AREA =
      Pattern.compile("data-plot-area=\"([0-9.]+) ([0-9.]+) ([0-9.]+) ([0-9.]+)\"");
  static final Pattern HEIGHT = Pattern.compile("<svg[^>]*? height=[\"']([0-9.]+)");

  @TempDir Path tmp;

  /** A run of candidate c at load l, repetition k: throughput linear to 32, then flat. */
  private Path run(Path root, int c, int l, int k) throws Exception {
    double tput = 100.0 * Math.min(l, 32) * (1 - 0.05 * c) * (1 + 0.01 * (k - 2));
    double ttft = 40 * (l <= 32 ? 1 + 0.02 * l : l / 16.0) * (1 + 0.1 * c) * (1 + 0.01 * (2 - k));
    return new GeneratedRun()
        .isl(1000 + 100 * c)
        .concurrency(l)
        .throughput(tput)
        .ttft(ttft)
        .requests(60)
        .seed(1000L * c + 10L * l + k)
        .write(root.resolve("cand" + c + "/concurrency" + l + "/rep" + k));
  }

  @Test
  @DisplayName(
      "analyze, 4 candidates x 8 load points x 5 repetitions: readable plots, numeric order")
  void analyzeLarge() throws Exception {
    List<String> args = new ArrayList<>(List.of("analyze"));
    for (int c = 0; c < 4; c++) {
      for (int l : LOADS) {
        for (int k = 0; k < 5; k++) {
          args.add(run(tmp.resolve("grid"), c, l, k).toString());
        }
      }
    }
    // plain AIPerf folders record no candidate: each build is named, its runs pooled per point
    for (int c = 0; c < 4; c++) {
      args.add("--label");
      args.add("cand" + c + "=" + tmp.resolve("grid/cand" + c));
    }
    args.addAll(
        List.of(
            "--slo",
            "time_to_first_token.p99<=150",
            "--exp-root",
            tmp.resolve("exp").toString(),
            "--report-dir",
            tmp.resolve("out").toString()));
    CommandHarness.run(args.toArray(String[]::new)).expectOk();
    String html = Files.readString(tmp.resolve("out/report.html"));
    assertReadable(html, 4);
    assertNumericOrder(html.substring(html.indexOf("<h2>Audit")), "concurrency=");
    assertNumericOrder(
        Files.readString(tmp.resolve("out/performance_analysis.md")), "| concurrency=");
    screenshot(tmp.resolve("out/report.html"), "analyze-4x8x5");
  }

  @Test
  @DisplayName("compare, 8 load points x 5 repetitions per side: readable plots, numeric order")
  void compareLarge() throws Exception {
    List<String> args = new ArrayList<>(List.of("compare"));
    for (int l : LOADS) {
      for (int k = 0; k < 5; k++) {
        args.add("--reference");
        args.add(run(tmp.resolve("ref"), 0, l, k).toString());
        args.add("--candidate");
        Path cand =
            new GeneratedRun()
                .concurrency(l)
                .throughput(100.0 * Math.min(l, 32) * 0.97 * (1 + 0.01 * (k - 2)))
                .ttft(40 * (l <= 32 ? 1 + 0.02 * l : l / 16.0) * 1.05)
                .requests(60)
                .seed(7000L + 10L * l + k)
                .write(tmp.resolve("cand/concurrency" + l + "/rep" + k));
        args.add(cand.toString());
      }
    }
    args.addAll(List.of("--report-dir", tmp.resolve("out").toString()));
    var r = CommandHarness.run(args.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
    String html = Files.readString(tmp.resolve("out/report.html"));
    assertReadable(html, 4);
    assertNumericOrder(html, "concurrency=");
    assertNumericOrder(r.out(), "concurrency=");
    assertNumericOrder(Files.readString(tmp.resolve("out/summary.md")), "concurrency=");
    screenshot(tmp.resolve("out/report.html"), "compare-8x5");
  }

  @Test
  @DisplayName("the real 3-point sweep: readable plots, numeric order, the capacity answer shown")
  void realSweep() throws Exception {
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    CommandHarness.run(
            "analyze",
            sweep.resolve("concurrency4").toString(),
            sweep.resolve("concurrency1").toString(),
            sweep.resolve("concurrency2").toString(),
            "--label",
            "qwen3-sweep=" + sweep,
            "--slo",
            "time_to_first_token.p99<=60",
            "--exp-root",
            tmp.resolve("exp").toString(),
            "--report-dir",
            tmp.resolve("out").toString())
        .expectOk();
    String html = Files.readString(tmp.resolve("out/report.html"));
    assertReadable(html, 4);
    assertNumericOrder(html.substring(html.indexOf("<h2>Audit")), "concurrency=");
    assertThat(html).contains("extend to concurrency=16").contains("highest SLO-feasible");
    screenshot(tmp.resolve("out/report.html"), "analyze-real-sweep");
  }

  /** Every SVG: a data area of at least half the figure's height holding a data path. */
  static void assertReadable(String html, int atLeast) {
    Matcher m = SVG.matcher(html);
    int n = 0;
    while (m.find()) {
      String svg = m.group();
      Matcher a = AREA.matcher(svg);
      Matcher h = HEIGHT.matcher(svg);
      assertThat(a.find()).as("data-plot-area of SVG %d", n).isTrue();
      assertThat(h.find()).as("height of SVG %d: %s", n, svg.substring(0, 400)).isTrue();
      double top = Double.parseDouble(a.group(2));
      double areaHeight = Double.parseDouble(a.group(4));
      double left = Double.parseDouble(a.group(1));
      double areaWidth = Double.parseDouble(a.group(3));
      assertThat(areaHeight)
          .as("data area height of SVG %d", n)
          .isGreaterThanOrEqualTo(Double.parseDouble(h.group(1)) / 2);
      assertThat(dataPaths(svg, left, top, areaWidth, areaHeight))
          .as("data paths inside the data area of SVG %d", n)
          .isPositive();
      n++;
    }
    assertThat(n).as("SVG plots in the report").isGreaterThanOrEqualTo(atLeast);
  }

  static final Pattern PATH = Pattern.compile("<path ([^>]*)>");
  static final Pattern D = Pattern.compile("(?:^|\\s)d=[\"']M\\s*([0-9.-]+)[,\\s]+([0-9.-]+)");

  /** Paths (lines, markers) that start inside the data area: grid and axes are lines, not paths. */
  static int dataPaths(String svg, double x, double y, double w, double h) {
    int count = 0;
    // clip paths in <defs> are not drawn
    Matcher p = PATH.matcher(svg.replaceAll("(?s)<defs>.*?</defs>", ""));
    while (p.find()) {
      Matcher d = D.matcher(p.group(1));
      if (!d.find()) {
        continue;
      }
      double px = Double.parseDouble(d.group(1));
      double py = Double.parseDouble(d.group(2));
      if (px > x && px < x + w && py > y && py < y + h) {
        count++;
      }
    }
    return count;
  }

  /** The load points, as they first appear after {@code prefix}, are in numeric order. */
  static void assertNumericOrder(String text, String prefix) {
    Matcher m = Pattern.compile(Pattern.quote(prefix) + "([0-9.]+)").matcher(text);
    List<Double> seen = new ArrayList<>();
    while (m.find()) {
      double v = Double.parseDouble(m.group(1));
      if (!seen.contains(v)) {
        seen.add(v);
      }
    }
    assertThat(seen).hasSizeGreaterThanOrEqualTo(3).isSorted();
  }

  /**
   * The page in chromium: rendered, not blank, nothing fetched. With BENCHPLAN_REPORT_SHOTS=DIR the
   * screenshot is kept there as NAME.png (how docs/readme's picture is made).
   */
  private void screenshot(Path html, String name) throws Exception {
    Path chromium = ReportBrowserTest.chromium();
    ReportBrowserTest b = new ReportBrowserTest();
    b.tmp = tmp;
    Path png = tmp.resolve(name + ".png");
    List<String> urls = b.open(chromium, html, png, tmp.resolve(name + "-net.json"));
    assertThat(ReportBrowserTest.inkShare(png)).isGreaterThan(0.02);
    assertThat(urls).allMatch(u -> u.startsWith("file:") || u.startsWith("data:"));
    String keep = System.getenv("BENCHPLAN_REPORT_SHOTS");
    if (keep != null) {
      Files.copy(
          png,
          Path.of(keep).resolve(name + ".png"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
