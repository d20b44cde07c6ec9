package dev.benchplan.analysis.report;

import dev.benchplan.aiperf.export.MetricSummary;
import dev.benchplan.analysis.audit.AuditCheck;
import dev.benchplan.analysis.evidence.RunEvidence;
import dev.benchplan.analysis.input.RecordScanner;
import dev.benchplan.analysis.stats.BootstrapPercentiles;
import dev.benchplan.analysis.stats.PercentileEstimate;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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

  /** The run block every document carries. */
  public static ObjectNode run(RunEvidence r) {
    ObjectNode o = Nodes.object();
    o.put("label", r.source().label());
    o.put("dir", r.source().dir().toString());
    o.put(
        "run_id",
        r.source().runRecord() == null
            ? null
            : r.source().runRecord().path("run_id").asString(null));
    o.put("series_id", r.seriesId());
    o.put("load_point", r.loadPoint());
    if (r.source().trial() == null) {
      o.putNull("trial");
    } else {
      o.put("trial", r.source().trial());
    }
    return o;
  }

  /** A run as an analysis or comparison lists it: its run block, audit status and input files. */
  public static ObjectNode inputEntry(RunEvidence r) {
    ObjectNode o = Nodes.object();
    o.set("run", run(r));
    o.put("audit_status", r.audit().status());
    o.set("files", inputs(r));
    return o;
  }

  /** Input files with path and SHA-256: summary, records, run.json and plan where present. */
  public static ArrayNode inputs(RunEvidence r) {
    ArrayNode a = Nodes.F.arrayNode();
    if (r.summarySha256() != null) {
      a.add(role("summary", r.source().summaryFile().toString(), r.summarySha256()));
    }
    if (r.scan() != null) {
      a.add(role("records", r.scan().file(), r.scan().sha256()));
    }
    if (r.source().runJson() != null) {
      a.add(
          role(
              "run_json",
              r.source().runJson().toString(),
              dev.benchplan.json.Sha256.ofFile(r.source().runJson())));
    }
    if (r.plan() != null && r.plan().path() != null) {
      a.add(
          role(
              "plan",
              r.plan().path(),
              r.plan().actualSha256() == null
                  ? r.plan().recordedSha256()
                  : r.plan().actualSha256()));
    }
    return a;
  }

  private static ObjectNode role(String role, String path, String sha) {
    ObjectNode o = Nodes.file(path, sha);
    o.put("role", role);
    return o;
  }

  /** benchmark_audit.json. */
  public static ObjectNode audit(RunEvidence r) {
    ObjectNode o = Nodes.object();
    o.put("schema_version", SCHEMA_VERSION);
    o.put("kind", "benchmark_audit");
    o.set("run", run(r));
    o.set("inputs", inputs(r));
    o.put("series_id", r.seriesId());
    if (r.plan() == null) {
      o.putNull("plan");
      o.putNull("question");
    } else {
      o.set("plan", Nodes.file(r.plan().path(), r.plan().actualSha256()));
      o.put(
          "question",
          r.plan().plan() == null
              ? null
              : r.plan().plan().path("question").path("text").asString(null));
    }
    ObjectNode id = o.putObject("workload_identity");
    r.identity().forEach(id::put);
    o.put("status", r.audit().status());
    o.put("next_action", r.audit().nextAction());
    ObjectNode req = o.putObject("requests");
    long expected =
        r.inputConfig() == null
            ? -1
            : r.inputConfig().path("loadgen").path("request_count").asLong(-1);
    if (expected < 0) {
      req.putNull("expected");
    } else {
      req.put("expected", expected);
    }
    req.put(
        "successful_summary",
        r.export() == null
            ? null
            : r.export().requestCount().map(BigDecimal::longValue).orElse(null));
    req.put(
        "failed_summary", r.export() == null ? null : r.export().errorRequestCount().longValue());
    if (r.scan() != null) {
      ObjectNode rec = req.putObject("records");
      rec.put("warmup", r.scan().warmup());
      rec.put("attempted", r.scan().profiling());
      rec.put("successful", r.scan().successes());
      rec.put("failed", r.scan().errors());
      rec.put("cancelled", r.scan().cancelled());
      ObjectNode kinds = rec.putObject("errors_by_kind");
      r.scan().errorKinds().forEach(kinds::put);
    } else {
      req.putNull("records");
    }
    ArrayNode checks = o.putArray("checks");
    for (AuditCheck c : r.audit().checks()) {
      ObjectNode cn = checks.addObject();
      cn.put("id", c.id());
      cn.put("status", c.status());
      cn.put("detail", c.detail());
    }
    o.set("recoveries", Nodes.strings(r.audit().recoveries()));
    o.set("blockers", Nodes.strings(r.audit().blockers()));
    ObjectNode versions = o.putObject("versions");
    versions.put("parser", "benchplan AiperfExportReader + RecordScanner");
    versions.put("aiperf", r.identity().get("aiperf_version"));
    versions.put("export_layout", r.export() == null ? null : r.export().layout().jsonName());
    return o;
  }

  /**
   * benchmark_summary.json: every metric with units, throughput per GPU and per user, recomputed
   * percentiles.
   */
  public static ObjectNode summary(RunEvidence r) {
    ObjectNode o = Nodes.object();
    o.put("schema_version", SCHEMA_VERSION);
    o.put("kind", "benchmark_summary");
    o.set("run", run(r));
    o.set("inputs", inputs(r));
    o.put("audit_status", r.audit().status());
    o.put(
        "summary_source",
        r.export() == null
            ? "none"
            : r.audit().recoveries().isEmpty() ? "aiperf" : "rebuilt_from_records");
    ObjectNode metrics = o.putObject("metrics");
    if (r.export() != null) {
      for (Map.Entry<String, MetricSummary> e : new TreeMap<>(r.export().metrics()).entrySet()) {
        ObjectNode m = metrics.putObject(e.getKey());
        m.put("unit", e.getValue().unit());
        ObjectNode stats = m.putObject("stats");
        e.getValue().stats().forEach(stats::put);
      }
    }
    ObjectNode gpu = o.putObject("gpu_count");
    if (r.gpus().value() == null) {
      gpu.putNull("value");
    } else {
      gpu.put("value", r.gpus().value());
    }
    gpu.put("source", r.gpus().source());
    ObjectNode tp = o.putObject("throughput");
    double out = r.stat("output_token_throughput", "avg").orElse(Double.NaN);
    Nodes.num(tp, "output_tokens_per_sec", out);
    Nodes.num(tp, "requests_per_sec", r.stat("request_throughput", "avg").orElse(Double.NaN));
    Nodes.num(
        tp,
        "output_tokens_per_sec_per_gpu",
        r.gpus().value() == null ? Double.NaN : out / r.gpus().value());
    Nodes.num(
        tp,
        "output_tokens_per_sec_per_user",
        r.stat("output_token_throughput_per_user", "avg").orElse(Double.NaN));
    tp.put(
        "per_user_source",
        "output_token_throughput_per_user avg (AIPerf: output tokens / (latency - TTFT) per request)");
    o.set("recomputed_percentiles", percentiles(r));
    return o;
  }

  /** The method block of recomputed percentiles. */
  public static ObjectNode percentileMethod() {
    ObjectNode m = Nodes.object();
    m.put(
        "estimator",
        "linear interpolation between order statistics (Hyndman-Fan type 7, numpy's default, as AIPerf)");
    m.put("interval", "percentile bootstrap");
    Nodes.num(m, "confidence", BootstrapPercentiles.CONFIDENCE);
    m.put("resamples", BootstrapPercentiles.RESAMPLES);
    m.put("seed", BootstrapPercentiles.SEED);
    m.put(
        "random_generator",
        "java.util.SplittableRandom; per metric stream = seed xor metric index x golden gamma");
    m.put(
        "resampling",
        "exact order-statistic resampling: the k-th smallest of n uniform draws is ceil(n x Beta(k, n-k+1))"
            + " (same distribution as n draws with replacement)");
    m.put(
        "minimum_samples_rule",
        "a percentile p needs at least "
            + BootstrapPercentiles.TAIL_MINIMUM
            + " requests beyond it (n x min(p, 1-p) >= 10): p50 20, p90 100, p95 200, p99 1000 (Dynamo's decision API"
            + " refuses p99 below 1,000); fewer is not estimable");
    m.put(
        "plan_rule_minimum",
        "benchmark-plan /samples: a gated percentile rests on at least 100 measured requests");
    m.put(
        "sample",
        "successful profiling-phase requests in profile_export.jsonl (warmup, failed and cancelled excluded)");
    return m;
  }

  private static ObjectNode percentiles(RunEvidence r) {
    ObjectNode o = Nodes.object();
    o.set("method", percentileMethod());
    ObjectNode metrics = o.putObject("metrics");
    if (r.scan() == null) {
      o.put("note", "no per-request records: nothing recomputed");
      return o;
    }
    long reported =
        r.export() == null ? -1 : r.export().requestCount().map(BigDecimal::longValue).orElse(-1L);
    if (reported >= 0 && r.scan().successes() < reported) {
      o.put(
          "note",
          "the records hold "
              + r.scan().successes()
              + " of "
              + reported
              + " successful requests: these percentiles describe those only");
    } else {
      o.putNull("note");
    }
    for (String tag : RECOMPUTED) {
      double[] sorted = r.scan().values(tag).sortedFinite();
      if (sorted.length == 0) {
        continue;
      }
      ObjectNode m = metrics.putObject(tag);
      m.put("unit", unit(tag));
      m.put("samples", sorted.length);
      ArrayNode ps = m.putArray("percentiles");
      long stream = RecordScanner.TRACKED.indexOf(tag);
      for (double p : PERCENTILES) {
        PercentileEstimate e = BootstrapPercentiles.estimate(sorted, p, stream);
        ObjectNode pn = ps.addObject();
        pn.put("p", (int) p);
        Nodes.num(pn, "value", e.value());
        Nodes.num(pn, "ci_low", e.ciLow());
        Nodes.num(pn, "ci_high", e.ciHigh());
        pn.put("samples", e.samples());
        pn.put("minimum_samples", e.minimumSamples());
        pn.put("estimable", e.estimable());
      }
    }
    return o;
  }

  static String unit(String tag) {
    return tag.equals("output_token_throughput_per_user") ? "tokens/sec/user" : "ms";
  }
}
