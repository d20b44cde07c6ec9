package dev.benchplan.validate;

import dev.benchplan.json.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Builds the verdict JSON of one validate run, part by part, as the steps go. */
final class VerdictDocument {
  private final ObjectNode doc = Json.JSON.createObjectNode();
  private final ArrayNode steps;

  VerdictDocument(ValidateRun run, Instant startedAt) {
    doc.put("schema_version", "1");
    doc.put("check", ValidateReports.TEST_NAME);
    doc.putNull("verdict");
    doc.putNull("exit_code");
    doc.putNull("reason");
    doc.putNull("failed_step");
    doc.put("run_id", run.runId());
    doc.put("started_at", startedAt.toString());
    doc.putNull("finished_at");
    steps = doc.putArray("steps");
  }

  ObjectNode node() {
    return doc;
  }

  void step(ValidateStep s, String status, Duration elapsed, Duration bound, String detail) {
    ObjectNode o = steps.addObject();
    o.put("step", s.id());
    o.put("status", status);
    o.put("elapsed_s", elapsed.toMillis() / 1000.0);
    if (bound == null) {
      o.putNull("bound_s");
    } else {
      o.put("bound_s", bound.toSeconds());
    }
    if (detail == null) {
      o.putNull("detail");
    } else {
      o.put("detail", detail);
    }
  }

  void cluster(String description) {
    doc.put("cluster", description);
  }

  /**
   * The constraints: the gate's results when the benchmark ran (every constraint it judged), else
   * the requested constraints marked {@code not_run}.
   */
  void constraints(PerformanceRequest req, List<ConstraintResult> results) {
    ObjectNode src = doc.putObject("constraints_source");
    src.put("source", req.source());
    ArrayNode checks = src.putArray("checks");
    req.checks().forEach(checks::add);
    ArrayNode arr = doc.putArray("constraints");
    if (!results.isEmpty()) {
      for (ConstraintResult r : results) {
        ObjectNode o = arr.addObject();
        o.put("name", r.name());
        o.put("operator", r.operator());
        o.put("threshold", r.threshold());
        o.put("tolerance", r.tolerance());
        o.put("effective_threshold", round(r.effectiveThreshold()));
        if (r.measured() == null) {
          o.putNull("measured");
        } else {
          o.put("measured", r.measured());
        }
        o.put("unit", r.unit());
        o.put("status", r.status());
      }
      return;
    }
    for (PerformanceConstraint c : req.constraints()) {
      ObjectNode o = arr.addObject();
      o.put("name", c.name());
      o.put("operator", c.operator());
      o.put("threshold", c.threshold());
      o.put("tolerance", c.tolerance());
      o.put("effective_threshold", round(c.effectiveThreshold()));
      o.putNull("measured");
      o.put("unit", c.unit());
      o.put("status", "not_run");
    }
  }

  void measured(Double throughput, Double ttftP99) {
    ObjectNode m = doc.putObject("measured");
    if (throughput == null) {
      m.putNull("output_token_throughput");
    } else {
      m.put("output_token_throughput", throughput);
    }
    m.put("output_token_throughput_unit", "tokens/sec");
    if (ttftP99 == null) {
      m.putNull("time_to_first_token_p99");
    } else {
      m.put("time_to_first_token_p99", ttftP99);
    }
    m.put("time_to_first_token_p99_unit", "ms");
  }

  void discovery(String scope, List<DgdCandidate> seen, String decision, String reason) {
    ObjectNode d = doc.putObject("discovery");
    d.put("scope", scope);
    d.put("decision", decision);
    d.put("reason", reason);
    ArrayNode arr = d.putArray("seen");
    for (DgdCandidate c : seen) {
      ObjectNode o = arr.addObject();
      o.put("namespace", c.dgd().namespace());
      o.put("dgd", c.dgd().name());
      o.put("state", c.dgd().state());
      o.put("service", c.frontend() == null ? null : c.frontend().service().name());
      if (c.frontend() == null) {
        o.putNull("port");
      } else {
        o.put("port", c.frontend().port());
      }
      ArrayNode models = o.putArray("models");
      c.dgd().servedModels().forEach(models::add);
      o.put("usable", c.usable());
      ArrayNode problems = o.putArray("problems");
      c.problems().forEach(problems::add);
    }
  }

  void deployment(GpuNodeChoice choice, DefaultDeployment d) {
    ObjectNode o = doc.putObject("deployment");
    o.put("node", choice.node().name());
    o.put("free_gpus", choice.workers());
    o.put("workers", d.workers());
    o.put("namespace", d.namespace());
    o.put("dgd", d.name());
    o.put("api_version", d.apiVersion());
    o.put("model", d.model());
    o.put("image", d.image());
    ArrayNode considered = o.putArray("nodes_considered");
    choice.considered().forEach(considered::add);
    ArrayNode tol = o.putArray("tolerated_taints");
    d.taints().forEach(t -> tol.add(t.key() + (t.value() == null ? "" : "=" + t.value())
        + (t.effect() == null ? "" : ":" + t.effect())));
  }

  void target(FrontendTarget t) {
    ObjectNode o = doc.putObject("target");
    o.put("origin", t.origin());
    o.put("namespace", t.namespace());
    o.put("dgd", t.dgdName());
    o.put("dgd_uid", t.dgdUid());
    o.put("api_version", t.apiVersion());
    o.put("service", t.service());
    o.put("port", t.port());
    o.put("matched_by", t.matchedBy());
    o.put("endpoint_url", t.endpointUrl());
    o.put("model", t.model());
    o.put("model_source", t.modelSource());
    o.put("workers", t.workers());
    o.put("node", t.node());
  }

  void benchmark(BenchmarkShape s, BenchmarkRunner.PlannedBenchmark plan,
      BenchmarkRunner.RenderedBenchmark rendered, String runDir) {
    ObjectNode o = doc.putObject("benchmark");
    o.put("workers", s.workers());
    o.put("concurrency_per_worker", s.concurrencyPerWorker());
    o.put("concurrency", s.concurrency());
    o.put("request_count", s.requestCount());
    o.put("warmup_requests", s.warmupRequests());
    o.put("isl", s.isl());
    o.put("osl", s.osl());
    o.put("isl_stddev", 0);
    o.put("osl_stddev", 0);
    o.put("ignore_eos", true);
    o.put("streaming", true);
    o.put("endpoint_type", "chat");
    o.put("measurement_limit_s", BenchmarkShape.MEASUREMENT_LIMIT_S);
    if (plan != null) {
      o.put("aiperf_version", plan.aiperfVersion());
      o.put("aiperf_resolution", plan.aiperfResolution());
      o.put("series_id", plan.seriesId());
      o.put("plan_path", plan.planPath().toAbsolutePath().toString());
      o.put("plan_sha256", plan.planSha256());
    }
    if (rendered != null) {
      o.put("deploy_root", rendered.deployRoot().toAbsolutePath().toString());
      o.put("perf_yaml", rendered.perfYaml().toAbsolutePath().toString());
      o.put("perf_yaml_sha256", rendered.perfYamlSha256());
      o.put("job", rendered.namespace() + "/" + rendered.jobName());
      o.put("render_run_id", rendered.runId());
    }
    if (runDir != null) {
      o.put("run_dir", runDir);
    }
  }

  void cleanup(boolean kept, List<CreatedObject> created, CleanupReport report) {
    ObjectNode o = doc.putObject("cleanup");
    o.put("kept", kept);
    ArrayNode c = o.putArray("created");
    created.forEach(x -> c.add(x.describe()));
    if (report != null) {
      ArrayNode deleted = o.putArray("deleted");
      report.deleted().forEach(deleted::add);
      ArrayNode gone = o.putArray("already_gone");
      report.alreadyGone().forEach(gone::add);
      ArrayNode skipped = o.putArray("left_alone");
      report.skipped().forEach(skipped::add);
      ArrayNode problems = o.putArray("problems");
      report.problems().forEach(problems::add);
    }
  }

  void finish(String verdict, int exitCode, String reason, ValidateStep failedStep, Instant finishedAt) {
    doc.put("verdict", verdict);
    doc.put("exit_code", exitCode);
    doc.put("reason", reason);
    if (failedStep == null) {
      doc.putNull("failed_step");
    } else {
      doc.put("failed_step", failedStep.id());
    }
    doc.put("finished_at", finishedAt.toString());
  }

  private static double round(double d) {
    return Math.round(d * 1e6) / 1e6;
  }
}
