package dev.benchplan.render;

import dev.benchplan.error.BenchplanException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The facts of a series plan that render uses, read from the plan's JSON (the contract is
 * schemas/benchmark-plan.schema.json; the plan has already passed it). Cross-field rules the
 * schema cannot state are checked here and reported with the JSON pointer of the field.
 */
public record RenderPlan(
    String planId,
    String seriesId,
    Deployment deployment,
    Workload workload,
    Experiment experiment,
    ApiEndpoint endpoint,
    Map<String, BigDecimal> goodput,
    String aiperfVersion,
    String aiperfImage) {

  /** Where the model is served. */
  public record Deployment(
      String namespace,
      String dgdName,
      String endpointUrl,
      String servedModel,
      String tokenizer,
      List<String> secrets) {
    public Deployment {
      secrets = List.copyOf(secrets);
    }
  }

  /** The workload source and its data. */
  public record Workload(String source, Trace trace, Synthetic synthetic) {}

  /**
   * The selected trace as recorded at plan time.
   *
   * @param path as written in the plan (absolute, or relative to the plan file's folder)
   * @param window the inclusive replay window, or null for the whole trace
   */
  public record Trace(String path, String sha256, long bytes, long rows, Window window) {}

  /** An inclusive replay window in trace milliseconds. */
  public record Window(long startMs, long endMs, long rows) {}

  /** Synthetic request shape. */
  public record Synthetic(int isl, int osl, int islStddev, int oslStddev, boolean ignoreEos) {}

  /** The experiment: load points, mode and bounds. */
  public record Experiment(
      String type,
      String measurementMode,
      List<Integer> concurrency,
      List<BigDecimal> requestRate,
      String arrivalPattern,
      Integer requestCount,
      int warmupRequests,
      Integer durationS,
      int measurementLimitS,
      Integer requestTimeoutS,
      long seed) {
    public Experiment {
      concurrency = concurrency == null ? null : List.copyOf(concurrency);
      requestRate = requestRate == null ? null : List.copyOf(requestRate);
    }
  }

  /** The API the benchmark calls. */
  public record ApiEndpoint(String type, String path, boolean streaming) {}

  public RenderPlan {
    goodput = goodput == null ? Map.of() : java.util.Collections.unmodifiableMap(goodput);
  }

  /**
   * Reads the plan facts from a plan that passed its schema.
   *
   * @param source the plan file, named in every error
   */
  public static RenderPlan fromJson(JsonNode plan, String source) {
    JsonNode d = plan.path("deployment");
    List<String> secrets = new ArrayList<>();
    d.path("secrets").forEach(s -> secrets.add(s.asString()));
    Deployment deployment =
        new Deployment(
            d.path("namespace").asString(),
            d.path("dgd_name").asString(),
            endpointUrl(d.path("endpoint_url").asString(), source),
            d.path("served_model").asString(),
            d.path("tokenizer").asString(),
            secrets);

    JsonNode w = plan.path("workload");
    Trace trace = null;
    JsonNode t = w.path("trace");
    if (t.isObject()) {
      JsonNode win = t.path("window");
      Window window =
          win.isObject()
              ? new Window(
                  win.path("start_ms").asLong(),
                  win.path("end_ms").asLong(),
                  win.path("rows").asLong())
              : null;
      if (window != null && window.endMs() < window.startMs()) {
        throw BenchplanException.invalid(
            source + ": /workload/trace/window: end_ms " + window.endMs()
                + " is before start_ms " + window.startMs() + ": expected start_ms <= end_ms");
      }
      trace =
          new Trace(
              t.path("path").asString(),
              t.path("sha256").asString(),
              t.path("bytes").asLong(),
              t.path("rows").asLong(),
              window);
    }
    Synthetic synthetic = null;
    JsonNode s = w.path("synthetic");
    if (s.isObject()) {
      synthetic =
          new Synthetic(
              s.path("isl").asInt(),
              s.path("osl").asInt(),
              s.path("isl_stddev").asInt(),
              s.path("osl_stddev").asInt(),
              s.path("ignore_eos").asBoolean());
    }
    Workload workload = new Workload(w.path("source").asString(), trace, synthetic);

    JsonNode e = plan.path("experiment");
    List<Integer> concurrency = null;
    if (e.path("concurrency").isArray()) {
      concurrency = new ArrayList<>();
      for (JsonNode c : e.path("concurrency")) {
        concurrency.add(c.asInt());
      }
    }
    List<BigDecimal> rates = null;
    if (e.path("request_rate").isArray()) {
      rates = new ArrayList<>();
      for (JsonNode r : e.path("request_rate")) {
        rates.add(r.decimalValue());
      }
    }
    Experiment experiment =
        new Experiment(
            e.path("type").asString(),
            e.path("measurement_mode").asString(),
            concurrency,
            rates,
            nullableText(e.path("arrival_pattern")),
            nullableInt(e.path("request_count")),
            e.path("warmup_requests").asInt(),
            nullableInt(e.path("duration_s")),
            e.path("measurement_limit_s").asInt(),
            nullableInt(e.path("request_timeout_s")),
            e.path("seed").asLong());

    JsonNode ep = plan.path("endpoint");
    ApiEndpoint endpoint =
        new ApiEndpoint(
            ep.path("type").asString(), ep.path("path").asString(), ep.path("streaming").asBoolean());

    Map<String, BigDecimal> goodput = new LinkedHashMap<>();
    JsonNode g = plan.path("objectives").path("goodput");
    if (g.isObject()) {
      for (String tag : g.propertyNames()) {
        goodput.put(tag, g.get(tag).decimalValue());
      }
    }
    RenderPlan result =
        new RenderPlan(
            plan.path("plan_id").asString(),
            plan.path("series_id").asString(),
            deployment,
            workload,
            experiment,
            endpoint,
            goodput,
            plan.path("aiperf").path("version").asString(),
            plan.path("aiperf").path("image").asString());
    result.checkConsistency(source);
    return result;
  }

  /** Rules between fields that the schema does not express. */
  private void checkConsistency(String source) {
    switch (experiment.measurementMode()) {
      case "closed_loop" -> {
        if (experiment.concurrency() == null) {
          throw BenchplanException.invalid(
              source + ": /experiment/concurrency: null, but measurement_mode is closed_loop:"
                  + " expected a list of concurrency points");
        }
      }
      case "open_loop" -> {
        if (experiment.requestRate() == null) {
          throw BenchplanException.invalid(
              source + ": /experiment/request_rate: null, but measurement_mode is open_loop:"
                  + " expected a list of request rates");
        }
      }
      case "fixed_schedule" -> {
        if (workload.trace() == null) {
          throw BenchplanException.invalid(
              source + ": /workload/trace: absent, but measurement_mode is fixed_schedule:"
                  + " expected the trace to replay (workload.source user_trace)");
        }
        if (experiment.concurrency() != null || experiment.requestRate() != null) {
          throw BenchplanException.invalid(
              source + ": /experiment: fixed_schedule replays trace timestamps:"
                  + " expected concurrency and request_rate to be null");
        }
      }
      default -> throw BenchplanException.invalid(
          source + ": /experiment/measurement_mode: '" + experiment.measurementMode()
              + "': expected closed_loop, open_loop or fixed_schedule");
    }
    if (workload.trace() == null && workload.synthetic() == null) {
      throw BenchplanException.invalid(
          source + ": /workload: neither trace nor synthetic is given:"
              + " expected the prompts' source");
    }
  }

  private static String endpointUrl(String url, String source) {
    String where = source + ": /deployment/endpoint_url: '" + url + "'";
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException ex) {
      throw BenchplanException.invalid(where + " is not a URL: expected e.g. http://svc.ns:8000");
    }
    String scheme = uri.getScheme();
    if (scheme == null
        || !(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null) {
      throw BenchplanException.invalid(where + ": expected an http(s) URL with a host");
    }
    String path = uri.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/"))
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw BenchplanException.invalid(
          where + ": expected a base URL without a path, query or fragment");
    }
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static String nullableText(JsonNode n) {
    return n.isString() ? n.asString() : null;
  }

  private static Integer nullableInt(JsonNode n) {
    return n.isIntegralNumber() ? n.asInt() : null;
  }
}
