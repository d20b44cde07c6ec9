package dev.benchplan.plan;

import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a series freezes (agent-docs/rules/benchmarking/series-boundaries.md), as JSON pointers into
 * a plan: request content and shape, schedule, load policy, endpoint, served model, tokenizer,
 * warmup, SLOs and gates, repetition policy, seed, AIPerf version and load-generator engine.
 * Endpoint address, namespace, Job identity and artifact wiring are not frozen: they are what a
 * reused series may change.
 */
public final class SeriesIdentity {
  /** The frozen fields. */
  public static final List<String> POINTERS =
      List.of(
          "/workload/source",
          "/workload/trace/sha256",
          "/workload/trace/window",
          "/workload/synthetic",
          "/workload/proxy/recipe",
          "/workload/transformations",
          "/experiment/type",
          "/experiment/measurement_mode",
          "/experiment/concurrency",
          "/experiment/request_rate",
          "/experiment/arrival_pattern",
          "/experiment/request_count",
          "/experiment/warmup_requests",
          "/experiment/duration_s",
          "/experiment/measurement_limit_s",
          "/experiment/request_timeout_s",
          "/experiment/seed",
          "/endpoint/type",
          "/endpoint/path",
          "/endpoint/streaming",
          "/deployment/served_model",
          "/deployment/tokenizer",
          "/objectives/gates",
          "/objectives/goodput",
          "/objectives/pareto",
          "/run_policy/repetitions",
          "/run_policy/repeat_decision",
          "/aiperf/version",
          "/load_generator/engine");

  /** The engine of plans written before load_generator existed: they render as a plain Job. */
  private static final String ENGINE = "/load_generator/engine";

  private SeriesIdentity() {}

  /** The frozen fields of a plan, as {pointer: value} (missing values as null). */
  public static ObjectNode of(JsonNode plan) {
    ObjectNode out = Json.JSON.createObjectNode();
    for (String p : POINTERS) {
      JsonNode v = at(plan, p);
      out.set(p, v.isMissingNode() ? out.nullNode() : v);
    }
    return out;
  }

  /** SHA-256 (hex) of the canonical JSON of {@link #of}: the series identity hash. */
  public static String sha256(JsonNode plan) {
    return dev.benchplan.json.Sha256.hex(CanonicalJson.bytes(of(plan)));
  }

  /** The frozen fields whose canonical values differ between two plans, in pointer order. */
  public static List<String> differences(JsonNode existing, JsonNode candidate) {
    List<String> out = new ArrayList<>();
    for (String p : POINTERS) {
      if (!Arrays.equals(canonical(at(existing, p)), canonical(at(candidate, p)))) {
        out.add(p);
      }
    }
    return out;
  }

  /** One-line "existing -> requested" for a differing field, for messages. */
  static String describe(JsonNode existing, JsonNode candidate, String pointer) {
    return pointer
        + " ("
        + compact(at(existing, pointer))
        + " -> "
        + compact(at(candidate, pointer))
        + ")";
  }

  /** The value at a frozen pointer; a plan without load_generator ran as a plain Job. */
  private static JsonNode at(JsonNode plan, String pointer) {
    JsonNode v = plan.at(pointer);
    return v.isMissingNode() && pointer.equals(ENGINE)
        ? Json.JSON.getNodeFactory().stringNode(BenchmarkPlan.LoadGenerator.JOB)
        : v;
  }

  private static String compact(JsonNode n) {
    String s = n.isMissingNode() ? "absent" : n.toString();
    return s.length() > 80 ? s.substring(0, 77) + "..." : s;
  }

  private static byte[] canonical(JsonNode n) {
    return CanonicalJson.bytes(n.isMissingNode() ? Json.JSON.nullNode() : n);
  }
}
