package dev.benchplan.analysis.input;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.ExportLayout;
import dev.benchplan.aiperf.export.MetricSummary;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Quantile;
import org.apache.commons.statistics.descriptive.Statistic;

/**
 * Rebuilds a summary from complete per-request records when AIPerf's own summary is missing or
 * unparseable (the audit's {@code valid_with_recovery}): per-request metrics with avg, min, max,
 * std and percentiles, the request count, and request and output-token throughput over the span
 * from the first request start to the last request end.
 */
public final class SummaryRebuilder {
  private static final Quantile HF7 =
      Quantile.withDefaults().with(Quantile.EstimationMethod.HF7).withCopy(true);
  private static final double[] PS = {0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99};
  private static final String[] PNAMES = {
    "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"
  };

  private SummaryRebuilder() {}

  /** The rebuilt summary, named after the records file. */
  public static AiperfExport rebuild(RecordScan scan, Path recordsFile) {
    Map<String, MetricSummary> metrics = new LinkedHashMap<>();
    for (String tag : RecordScanner.TRACKED) {
      double[] v = scan.values(tag).sortedFinite();
      if (v.length == 0) {
        continue;
      }
      DoubleStatistics s =
          DoubleStatistics.of(
              java.util.EnumSet.of(
                  Statistic.MEAN, Statistic.MIN, Statistic.MAX, Statistic.STANDARD_DEVIATION),
              v);
      Map<String, BigDecimal> stats = new LinkedHashMap<>();
      stats.put("avg", dec(s.getAsDouble(Statistic.MEAN)));
      stats.put("min", dec(s.getAsDouble(Statistic.MIN)));
      stats.put("max", dec(s.getAsDouble(Statistic.MAX)));
      if (v.length > 1) {
        stats.put("std", dec(s.getAsDouble(Statistic.STANDARD_DEVIATION)));
      }
      double[] q = HF7.evaluate(v, PS);
      for (int i = 0; i < PS.length; i++) {
        stats.put(PNAMES[i], dec(q[i]));
      }
      metrics.put(tag, new MetricSummary(tag, unit(tag), stats, "records:" + tag));
    }
    long ok = scan.successes();
    metrics.put(
        "request_count",
        new MetricSummary(
            "request_count",
            "requests",
            Map.of("avg", BigDecimal.valueOf(ok)),
            "records:request_count"));
    if (scan.errors() > 0) {
      metrics.put(
          "error_request_count",
          new MetricSummary(
              "error_request_count",
              "requests",
              Map.of("avg", BigDecimal.valueOf(scan.errors())),
              "records:error_request_count"));
    }
    if (scan.minStartNs() != null
        && scan.maxEndNs() != null
        && scan.maxEndNs() > scan.minStartNs()) {
      double seconds = (scan.maxEndNs() - scan.minStartNs()) / 1e9;
      double osl = 0;
      DoubleList o = scan.values("output_sequence_length");
      for (int i = 0; i < o.size(); i++) {
        osl += Double.isFinite(o.get(i)) ? o.get(i) : 0;
      }
      metrics.put(
          "benchmark_duration",
          new MetricSummary(
              "benchmark_duration",
              "sec",
              Map.of("avg", dec(seconds)),
              "records:benchmark_duration"));
      metrics.put(
          "request_throughput",
          new MetricSummary(
              "request_throughput",
              "requests/sec",
              Map.of("avg", dec(ok / seconds)),
              "records:request_throughput"));
      metrics.put(
          "output_token_throughput",
          new MetricSummary(
              "output_token_throughput",
              "tokens/sec",
              Map.of("avg", dec(osl / seconds)),
              "records:output_token_throughput"));
    }
    return new AiperfExport(
        recordsFile,
        scan.sha256(),
        ExportLayout.TOP_LEVEL,
        null,
        null,
        false,
        List.of(),
        metrics,
        null,
        null,
        Map.of());
  }

  static String unit(String tag) {
    return switch (tag) {
      case "output_token_throughput_per_user" -> "tokens/sec/user";
      case "output_sequence_length", "input_sequence_length" -> "tokens";
      default -> "ms";
    };
  }

  private static BigDecimal dec(double d) {
    return new BigDecimal(d, MathContext.DECIMAL64);
  }
}
