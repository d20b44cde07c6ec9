package dev.benchplan.analysis.report;

import dev.benchplan.aiperf.export.AiperfInputConfig;
import dev.benchplan.aiperf.export.MetricSummary;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.RecordScan;
import dev.benchplan.analysis.input.RecordScanner;
import dev.benchplan.analysis.stats.BootstrapPercentiles;
import dev.benchplan.analysis.stats.PercentileEstimate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The per-run documents: {@code benchmark_audit.json} and {@code benchmark_summary.json}. */
public final class RunDocuments {
  public static final String SCHEMA_VERSION = "1";

  /** Percentiles recomputed from the per-request records. */
  public static final List<Double> PERCENTILES = List.of(50.0, 90.0, 95.0, 99.0);

  /** Metrics whose percentiles are recomputed. */
  public static final List<String> RECOMPUTED =
      List.of(
          "time_to_first_token",
          "inter_token_latency",
          "request_latency",
          "time_to_second_token",
          "output_token_throughput_per_user");

  private RunDocuments() {}

  /** benchmark_audit.json. */
  public static AuditDoc audit(RunEvidence r) {
    FileDoc plan = null;
    String question = null;
    if (r.plan() != null) {
      plan = new FileDoc(r.plan().path(), r.plan().actualSha256());
      question = r.plan().question();
    }
    Long configured = AiperfInputConfig.read(r.inputConfig()).requestCount();
    long expected = configured == null ? -1 : configured;
    AuditDoc.Records records = null;
    if (r.scan() != null) {
      records =
          new AuditDoc.Records(
              r.scan().warmup(),
              r.scan().profiling(),
              r.scan().successes(),
              r.scan().errors(),
              r.scan().cancelled(),
              new LinkedHashMap<>(r.scan().errorKinds()));
    }
    AuditDoc.Requests requests =
        new AuditDoc.Requests(
            expected < 0 ? null : expected,
            r.export() == null
                ? null
                : r.export().requestCount().map(BigDecimal::longValue).orElse(null),
            r.export() == null ? null : r.export().errorRequestCount().longValue(),
            records);
    List<AuditDoc.Check> checks =
        r.audit().checks().stream()
            .map(c -> new AuditDoc.Check(c.id(), c.status(), c.detail()))
            .toList();
    return new AuditDoc(
        SCHEMA_VERSION,
        "benchmark_audit",
        RunBlock.of(r),
        RunBlock.inputs(r),
        r.seriesId(),
        plan,
        question,
        new LinkedHashMap<>(r.identity()),
        r.audit().status(),
        r.audit().nextAction(),
        requests,
        checks,
        r.audit().recoveries(),
        r.audit().blockers(),
        new AuditDoc.Versions(
            "benchplan AiperfExportReader + RecordScanner",
            r.identity().get("aiperf_version"),
            r.export() == null ? null : r.export().layout().jsonName()));
  }

  /**
   * benchmark_summary.json: every metric with units, throughput per GPU and per user, recomputed
   * percentiles.
   */
  public static SummaryDoc summary(RunEvidence r) {
    Map<String, SummaryDoc.Metric> metrics = new TreeMap<>();
    if (r.export() != null) {
      for (Map.Entry<String, MetricSummary> e : r.export().metrics().entrySet()) {
        metrics.put(
            e.getKey(),
            new SummaryDoc.Metric(e.getValue().unit(), new TreeMap<>(e.getValue().stats())));
      }
    }
    double out = r.stat("output_token_throughput", "avg").orElse(Double.NaN);
    SummaryDoc.Throughput throughput =
        new SummaryDoc.Throughput(
            Measured.of(out),
            Measured.of(r.stat("request_throughput", "avg").orElse(Double.NaN)),
            Measured.of(r.gpus().value() == null ? Double.NaN : out / r.gpus().value()),
            Measured.of(r.stat("output_token_throughput_per_user", "avg").orElse(Double.NaN)),
            "output_token_throughput_per_user avg (AIPerf: output tokens / (latency - TTFT) per"
                + " request)");
    return new SummaryDoc(
        SCHEMA_VERSION,
        "benchmark_summary",
        RunBlock.of(r),
        RunBlock.inputs(r),
        r.audit().status(),
        r.export() == null
            ? "none"
            : r.audit().recoveries().isEmpty() ? "aiperf" : "rebuilt_from_records",
        metrics,
        new SummaryDoc.GpuCountDoc(r.gpus().value(), r.gpus().source()),
        throughput,
        percentiles(r));
  }

  /** The method block of recomputed percentiles. */
  public static SummaryDoc.PercentileMethod percentileMethod() {
    return new SummaryDoc.PercentileMethod(
        "linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default, as"
            + " AIPerf)",
        "percentile bootstrap",
        Measured.of(BootstrapPercentiles.CONFIDENCE),
        BootstrapPercentiles.RESAMPLES,
        BootstrapPercentiles.SEED,
        "java.util.SplittableRandom; per metric stream = seed xor metric index x golden gamma",
        "exact order-statistic resampling: the k-th smallest of n uniform draws is ceil(n x Beta(k,"
            + " n-k+1)) (same distribution as n draws with replacement)",
        "a percentile p needs at least "
            + BootstrapPercentiles.TAIL_MINIMUM
            + " requests beyond it (n x min(p, 1-p) >= 10): p50 20, p90 100, p95 200, p99 1000"
            + " (Dynamo's decision API refuses p99 below 1,000); fewer is not estimable",
        "benchmark-plan /samples: a gated percentile rests on at least 100 measured requests",
        "successful profiling-phase requests in profile_export.jsonl (warmup, failed and cancelled"
            + " excluded)");
  }

  private static SummaryDoc.Percentiles percentiles(RunEvidence r) {
    RecordScan scan = r.scan();
    if (scan == null) {
      return new SummaryDoc.Percentiles(
          percentileMethod(), Map.of(), "no per-request records: nothing recomputed");
    }
    long reported =
        r.export() == null ? -1 : r.export().requestCount().map(BigDecimal::longValue).orElse(-1L);
    String note =
        reported >= 0 && scan.successes() < reported
            ? "the records hold "
                + scan.successes()
                + " of "
                + reported
                + " successful requests: these percentiles describe those only"
            : null;
    Map<String, SummaryDoc.PercentileMetric> metrics = new LinkedHashMap<>();
    for (String tag : RECOMPUTED) {
      double[] sorted = scan.values(tag).sortedFinite();
      if (sorted.length == 0) {
        continue;
      }
      List<SummaryDoc.Percentile> ps = new ArrayList<>();
      long stream = RecordScanner.TRACKED.indexOf(tag);
      for (double p : PERCENTILES) {
        PercentileEstimate e = BootstrapPercentiles.estimate(sorted, p, stream);
        ps.add(
            new SummaryDoc.Percentile(
                (int) p,
                Measured.of(e.value()),
                Measured.of(e.ciLow()),
                Measured.of(e.ciHigh()),
                e.samples(),
                e.minimumSamples(),
                e.estimable()));
      }
      metrics.put(tag, new SummaryDoc.PercentileMetric(unit(tag), sorted.length, List.copyOf(ps)));
    }
    return new SummaryDoc.Percentiles(percentileMethod(), metrics, note);
  }

  static String unit(String tag) {
    return tag.equals("output_token_throughput_per_user") ? "tokens/sec/user" : "ms";
  }
}
