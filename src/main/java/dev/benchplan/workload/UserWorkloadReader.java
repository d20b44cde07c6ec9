package dev.benchplan.workload;

import dev.benchplan.json.SchemaValidator;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.GateTolerance;
import dev.benchplan.rules.RuleLog;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Checks a user-workload document against {@code schemas/user-workload.schema.json}, refuses
 * secrets in it, and turns it into a {@link UserWorkload}. Every problem becomes a blocker naming
 * the file, line and JSON pointer.
 */
public final class UserWorkloadReader {
  /** The bundled schema file name. */
  public static final String SCHEMA = "user-workload.schema.json";

  private static final int MAX_REPORTED = 20;

  private UserWorkloadReader() {}

  /**
   * Reads the workload; returns empty when any blocker was logged (blockers: WORKLOAD_SECRET,
   * WORKLOAD_SCHEMA, WORKLOAD_SLO_INVALID, WORKLOAD_PATH_INVALID).
   */
  public static Optional<UserWorkload> read(InputDocument doc, RuleLog log) {
    int before = log.blockers().size();
    for (SecretScanner.Finding f : SecretScanner.scan(doc.tree())) {
      log.block(
          BlockerCode.WORKLOAD_SECRET,
          "user workload "
              + doc.at(f.pointer())
              + ": looks like "
              + f.kind()
              + " (value not shown); a workload references secrets by the"
              + " name of an existing Kubernetes Secret, never by value");
    }
    // ranges first: their message names the value and the range; the schema says the same less well
    java.util.Set<String> outOfRange =
        InputRanges.check(
            doc, InputRanges.WORKLOAD, "user workload", BlockerCode.WORKLOAD_SCHEMA, log);
    if (!outOfRange.isEmpty()) {
      // an enormous number can overflow the schema validator's own arithmetic: stop here
      return Optional.empty();
    }
    List<SchemaValidator.Problem> problems =
        SchemaValidator.bundled(SCHEMA).validate(doc.tree()).stream()
            .filter(p -> !outOfRange.contains(SchemaProblemPointer.of(p)))
            .toList();
    for (int i = 0; i < Math.min(problems.size(), MAX_REPORTED); i++) {
      SchemaValidator.Problem p = problems.get(i);
      log.block(
          BlockerCode.WORKLOAD_SCHEMA,
          "user workload "
              + doc.at(SchemaProblemPointer.of(p))
              + ": "
              + p.message()
              + " (schema "
              + SCHEMA
              + ")");
    }
    if (problems.size() > MAX_REPORTED) {
      log.block(
          BlockerCode.WORKLOAD_SCHEMA,
          "user workload "
              + doc.location()
              + ": "
              + (problems.size() - MAX_REPORTED)
              + " more schema problems not listed");
    }
    if (log.blockers().size() > before) {
      return Optional.empty();
    }
    JsonNode t = doc.tree();
    List<Slo> slos = slos(doc, log);
    Path dgdPath = path(doc, "/deployment/dgd_path", log);
    List<UserWorkload.SupportingTrace> traces = new ArrayList<>();
    JsonNode listed = t.at("/artifacts/supporting_traces");
    if (listed.isArray()) {
      for (int i = 0; i < listed.size(); i++) {
        String pointer = "/artifacts/supporting_traces/" + i;
        Path p = path(doc, pointer, log);
        if (p != null) {
          traces.add(new UserWorkload.SupportingTrace(p, pointer));
        }
      }
    }
    if (log.blockers().size() > before) {
      return Optional.empty();
    }
    List<GpuAllocation> hardware = new ArrayList<>();
    for (JsonNode h : t.at("/hardware")) {
      hardware.add(
          new GpuAllocation(
              h.get("gpu_type").asString(), (int) InputRanges.requiredWhole(h, "/gpu_count")));
    }
    return Optional.of(
        new UserWorkload(
            doc,
            t.at("/profile/name").asString(),
            t.at("/profile/type").asString(),
            text(t, "/model/source"),
            text(t, "/model/revision"),
            hardware,
            text(t, "/kubernetes/kube_context"),
            text(t, "/kubernetes/namespace"),
            dgdPath,
            text(t, "/deployment/dgd_sha256"),
            text(t, "/deployment/origin"),
            traffic(t),
            slos,
            traces));
  }

  private static Traffic traffic(JsonNode t) {
    JsonNode rate = t.at("/traffic/request_rate");
    List<BigDecimal> rates = null;
    if (rate.isNumber()) {
      rates = List.of(rate.decimalValue());
    } else if (rate.isArray()) {
      rates = new ArrayList<>();
      for (JsonNode r : rate) {
        rates.add(r.decimalValue());
      }
    }
    List<Integer> concurrency = null;
    JsonNode c = t.at("/traffic/concurrency");
    if (c.isArray()) {
      concurrency = new ArrayList<>();
      for (JsonNode v : c) {
        concurrency.add((int) InputRanges.requiredWhole(v, ""));
      }
    }
    JsonNode maxRate = t.at("/traffic/max_request_rate");
    return new Traffic(
        integer(t, "/traffic/input_tokens"),
        integer(t, "/traffic/output_tokens"),
        integer(t, "/traffic/input_tokens_stddev"),
        integer(t, "/traffic/output_tokens_stddev"),
        rates,
        concurrency,
        text(t, "/traffic/arrival_pattern"),
        longValue(t, "/traffic/request_count"),
        longValue(t, "/traffic/duration_s"),
        integer(t, "/traffic/max_concurrency"),
        maxRate.isNumber() ? maxRate.decimalValue() : null);
  }

  private static List<Slo> slos(InputDocument doc, RuleLog log) {
    JsonNode o = doc.tree().at("/objectives");
    List<Slo> out = new ArrayList<>();
    // the schema holds it in [0, 1); absent: the user's objectives are gated exactly
    BigDecimal tol =
        o.path("gate_tolerance").isNumber()
            ? o.get("gate_tolerance").decimalValue()
            : GateTolerance.OBJECTIVE_DEFAULT;
    fixed(o, "ttft_ms_p95_max", "time_to_first_token", "p95", "<=", "ms", tol, out);
    fixed(o, "itl_ms_p95_max", "inter_token_latency", "p95", "<=", "ms", tol, out);
    fixed(o, "request_latency_ms_p95_max", "request_latency", "p95", "<=", "ms", tol, out);
    fixed(
        o,
        "output_tput_per_gpu_min",
        MetricCatalog.OUTPUT_TPUT_PER_GPU,
        "avg",
        ">=",
        "tokens/sec/gpu",
        tol,
        out);
    // the error-rate limit is the gate's maximum error rate, always applied exactly
    fixed(
        o,
        "error_rate_max",
        MetricCatalog.ERROR_RATE,
        "avg",
        "<=",
        "ratio",
        GateTolerance.OBJECTIVE_DEFAULT,
        out);
    JsonNode custom = o.path("custom_slos");
    for (int i = 0; i < custom.size(); i++) {
      JsonNode s = custom.get(i);
      String pointer = "/objectives/custom_slos/" + i;
      String metric = s.get("metric").asString();
      String known = MetricCatalog.unitOf(metric);
      String unit = s.hasNonNull("unit") ? s.get("unit").asString() : known;
      if (unit == null) {
        log.block(
            BlockerCode.WORKLOAD_SLO_INVALID,
            "user workload "
                + doc.at(pointer)
                + ": metric '"
                + metric
                + "' is not one benchplan knows; give its unit in 'unit'");
        continue;
      }
      if (known != null && !known.equals(unit)) {
        log.block(
            BlockerCode.WORKLOAD_SLO_INVALID,
            "user workload "
                + doc.at(pointer + "/unit")
                + ": AIPerf reports "
                + metric
                + " in "
                + known
                + ", so the threshold must be in "
                + known
                + ", not '"
                + unit
                + "'");
        continue;
      }
      boolean max = s.has("max");
      out.add(
          new Slo(
              metric,
              s.get("stat").asString(),
              max ? "<=" : ">=",
              s.get(max ? "max" : "min").decimalValue(),
              unit,
              pointer + (max ? "/max" : "/min"),
              s.path("tolerance").isNumber() ? s.get("tolerance").decimalValue() : tol));
    }
    return out;
  }

  private static void fixed(
      JsonNode objectives,
      String field,
      String metric,
      String stat,
      String operator,
      String unit,
      BigDecimal tolerance,
      List<Slo> out) {
    JsonNode v = objectives.path(field);
    if (v.isNumber()) {
      out.add(
          new Slo(
              metric, stat, operator, v.decimalValue(), unit, "/objectives/" + field, tolerance));
    }
  }

  private static @Nullable Path path(InputDocument doc, String pointer, RuleLog log) {
    JsonNode v = doc.tree().at(pointer);
    if (!v.isString()) {
      return null;
    }
    try {
      return doc.resolve(v.asString());
    } catch (IllegalArgumentException e) {
      log.block(
          BlockerCode.WORKLOAD_PATH_INVALID,
          "user workload " + doc.at(pointer) + ": " + e.getMessage());
      return null;
    }
  }

  static @Nullable String text(JsonNode t, String pointer) {
    JsonNode v = t.at(pointer);
    return v.isString() ? v.asString() : null;
  }

  // whole numbers written as 60.0 or 1e3 are integers to JSON Schema: read them exactly
  private static @Nullable Integer integer(JsonNode t, String pointer) {
    Long v = InputRanges.wholeValue(t, pointer);
    return v == null ? null : Math.toIntExact(v);
  }

  private static @Nullable Long longValue(JsonNode t, String pointer) {
    return InputRanges.wholeValue(t, pointer);
  }
}
