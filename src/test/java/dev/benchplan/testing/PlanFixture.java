package dev.benchplan.testing;

import dev.benchplan.aiperf.version.IndexFetcher;
import dev.benchplan.aiperf.version.VersionRequest;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.plan.Intent;
import dev.benchplan.plan.LoadGeneratorPlanner;
import dev.benchplan.plan.PlanOptions;
import dev.benchplan.plan.PlanRequest;
import dev.benchplan.plan.Question;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.TraceInspector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one home of every plan a test needs. Three doors, one fixture:
 *
 * <ul>
 *   <li>{@link Examples}: the bundled examples planned through the command line, as a user plans
 *       them (analysis, document and CLI tests);
 *   <li>{@link Inputs}: a deployment folder (DGD, smoke artifact, ledger with the real SHA-256s)
 *       and the requests that run the real planner on it (the planner's own tests);
 *   <li>the builder ({@link #userStatic}, {@link #recipeProxy}, {@link #userTrace}): plans in the
 *       shapes render must take that the planner does not write on purpose (every AIPerf version of
 *       the flag table, edited plans), validated against the real plan schema before they are
 *       written, with a ledger that agrees with them.
 * </ul>
 */
public final class PlanFixture {
  public static final String DEFAULT_IMAGE_REPO = "nvcr.io/nvidia/ai-dynamo/aiperf";
  private static final String ZERO_SHA = "0".repeat(64);

  private final ObjectNode plan;

  private PlanFixture(ObjectNode plan) {
    this.plan = plan;
  }

  /** A written plan: its path and SHA-256. */
  public record Written(Path path, String sha256) {}

  /** A static-shape plan (user_static, synthetic ISL/OSL), closed loop at one concurrency. */
  public static PlanFixture userStatic() {
    PlanFixture f = new PlanFixture(base());
    ObjectNode w = f.plan.putObject("workload");
    w.put("source", "user_static");
    synthetic(w, 128, 128, 0, 0, true);
    f.experiment("static_shape", "closed_loop");
    f.closedLoop(16);
    return f;
  }

  /** A recipe-proxy plan (Dynamo recipe shape), a capacity grid of concurrency points. */
  public static PlanFixture recipeProxy() {
    PlanFixture f = new PlanFixture(base());
    ObjectNode w = f.plan.putObject("workload");
    w.put("source", "recipe_proxy");
    synthetic(w, 8192, 1024, 0, 0, true);
    ObjectNode proxy = w.putObject("proxy");
    proxy.put("recipe", "llama-3-70b/vllm/agg");
    proxy.put("rationale", "closest recipe shape to the stated workload");
    proxy.putArray("mismatches").add("model differs from the recipe's");
    f.experiment("capacity", "closed_loop");
    f.closedLoop(16, 32, 64);
    return f;
  }

  /** A trace-fidelity plan replaying {@code trace} on its fixed schedule. */
  public static PlanFixture userTrace(Path trace, String pathInPlan) {
    PlanFixture f = new PlanFixture(base());
    ObjectNode w = f.plan.putObject("workload");
    w.put("source", "user_trace");
    w.set("trace", traceReport(trace, pathInPlan));
    f.experiment("trace_fidelity", "fixed_schedule");
    f.plan.withObject("/experiment").putNull("concurrency").putNull("request_rate");
    f.plan.withObject("/experiment").putNull("request_count").putNull("duration_s");
    return f;
  }

  public PlanFixture closedLoop(int... points) {
    ObjectNode e = plan.withObject("/experiment");
    e.put("measurement_mode", "closed_loop");
    ArrayNode c = e.putArray("concurrency");
    for (int p : points) {
      c.add(p);
    }
    e.putNull("request_rate");
    e.putNull("arrival_pattern");
    return this;
  }

  public PlanFixture openLoop(String pattern, double... rates) {
    ObjectNode e = plan.withObject("/experiment");
    e.put("measurement_mode", "open_loop");
    e.put("type", e.path("type").asString("static_shape"));
    e.putNull("concurrency");
    ArrayNode r = e.putArray("request_rate");
    for (double d : rates) {
      r.add(BigDecimal.valueOf(d));
    }
    e.put("arrival_pattern", pattern);
    return this;
  }

  /** run_policy: {@code n} repetitions, marked as the series' noise-floor pilot or not. */
  public PlanFixture repetitions(int n, boolean pilot) {
    ObjectNode rp = plan.withObject("/run_policy");
    rp.put("repetitions", n)
        .put("repeat_decision", pilot ? "necessary" : "approved")
        .put("repeat_rationale", pilot ? "noise-floor pilot" : "approved by the user");
    if (pilot) {
      rp.put("pilot", true);
    }
    return this;
  }

  public PlanFixture type(String type) {
    plan.withObject("/experiment").put("type", type);
    return this;
  }

  public PlanFixture requestCount(Integer n) {
    ObjectNode e = plan.withObject("/experiment");
    if (n == null) {
      e.putNull("request_count");
    } else {
      e.put("request_count", n);
    }
    return this;
  }

  public PlanFixture duration(Integer seconds) {
    ObjectNode e = plan.withObject("/experiment");
    if (seconds == null) {
      e.putNull("duration_s");
    } else {
      e.put("duration_s", seconds);
    }
    return this;
  }

  public PlanFixture warmup(int n) {
    plan.withObject("/experiment").put("warmup_requests", n);
    return this;
  }

  public PlanFixture window(long startMs, long endMs, long rows) {
    ObjectNode win = plan.withObject("/workload/trace").putObject("window");
    win.put("start_ms", startMs).put("end_ms", endMs).put("rows", rows);
    return this;
  }

  public PlanFixture aiperf(String version) {
    ObjectNode a = plan.withObject("/aiperf");
    a.put("version", version);
    a.put("image", DEFAULT_IMAGE_REPO + ":" + version);
    return this;
  }

  public PlanFixture image(String image) {
    plan.withObject("/aiperf").put("image", image);
    return this;
  }

  public PlanFixture goodput(Map<String, Double> slos) {
    ObjectNode o = plan.withObject("/objectives");
    if (slos == null) {
      o.putNull("goodput");
      o.put("pareto", true);
    } else {
      ObjectNode g = o.putObject("goodput");
      slos.forEach((k, v) -> g.put(k, BigDecimal.valueOf(v)));
      o.put("pareto", false);
    }
    return this;
  }

  public PlanFixture model(String model) {
    plan.withObject("/deployment").put("served_model", model).put("tokenizer", model);
    return this;
  }

  /**
   * The frontend address: a {@code http://SERVICE.NAMESPACE[.svc[.cluster.local]]:PORT} URL sets
   * the Service, namespace and port the ledger records (the plan's URL is derived from them, as
   * plan derives it); any other URL is written into the plan as is, and no ledger can agree with
   * it.
   */
  public PlanFixture endpointUrl(String url) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "http://([a-z0-9-]+)\\.([a-z0-9-]+)(\\.svc(\\.cluster\\.local)?)?:(\\d+)")
            .matcher(url);
    if (m.matches()) {
      plan.withObject("/deployment")
          .put("frontend_service", m.group(1))
          .put("namespace", m.group(2))
          .put("frontend_port", Integer.parseInt(m.group(5)));
      fixedUrl = null;
    } else {
      fixedUrl = url;
    }
    return this;
  }

  private String fixedUrl;

  /** Keeps the plan's deployment as written (no ledger agrees with it). */
  public PlanFixture noLedger() {
    noLedger = true;
    return this;
  }

  private boolean noLedger;

  private PlanFixture legacyEndpointUrl(String url) {
    plan.withObject("/deployment").put("endpoint_url", url);
    return this;
  }

  public PlanFixture series(String seriesId) {
    plan.put("series_id", seriesId);
    return this;
  }

  public PlanFixture secrets(String... names) {
    ArrayNode s = plan.withObject("/deployment").putArray("secrets");
    for (String n : names) {
      s.add(n);
    }
    return this;
  }

  public PlanFixture streaming(boolean on) {
    plan.withObject("/endpoint").put("streaming", on);
    return this;
  }

  public PlanFixture completions() {
    plan.withObject("/endpoint").put("type", "completions").put("path", "/v1/completions");
    return this;
  }

  /** Direct access for unusual cases. */
  public ObjectNode json() {
    return plan;
  }

  /**
   * A load_generator section (engine job, requested auto) sizing each {@code label=workers} point
   * by the load-generator formula (agent-docs/rules/benchmarking/load-generator.md).
   */
  public PlanFixture sizedPoints(String... labelEqualsWorkers) {
    ObjectNode lg = plan.putObject("load_generator");
    lg.put("engine", "job").put("requested", "auto").put("reason", "fixture");
    ArrayNode points = lg.putArray("points");
    for (String spec : labelEqualsWorkers) {
      int at = spec.lastIndexOf('=');
      int w = Integer.parseInt(spec.substring(at + 1));
      points
          .addObject()
          .put("load_point", spec.substring(0, at))
          .put("workers", w)
          .put("cpu_cores", LoadGeneratorPlanner.cpuCores(w))
          .put("memory_mib", LoadGeneratorPlanner.memoryMib(w))
          .putNull("connections_per_worker");
    }
    return this;
  }

  /** Validates against the real plan schema and writes canonical JSON to {@code file}. */
  public Written write(Path file) {
    if (!noLedger) {
      Path f = file.toAbsolutePath().normalize();
      String base = f.getFileName().toString().replaceAll("\\.json$", "");
      LedgerFixture.writeFor(plan, f.getParent().resolve("ledgers"), base);
    }
    if (fixedUrl != null) {
      legacyEndpointUrl(fixedUrl);
    }
    SchemaValidator.bundled("benchmark-plan.schema.json").requireValid(plan, "fixture " + file);
    byte[] bytes = CanonicalJson.bytes(plan);
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Written(file, Sha256.hex(bytes));
  }

  private void experiment(String type, String mode) {
    ObjectNode e = plan.putObject("experiment");
    e.put("type", type);
    e.put("measurement_mode", mode);
    e.put("request_count", 640);
    e.put("warmup_requests", 16);
    e.put("duration_s", 600);
    e.put("measurement_limit_s", 900);
    e.put("request_timeout_s", 300);
    e.put("seed", 42);
  }

  private static void synthetic(ObjectNode w, int isl, int osl, int islSd, int oslSd, boolean eos) {
    ObjectNode s = w.putObject("synthetic");
    s.put("isl", isl).put("osl", osl).put("isl_stddev", islSd).put("osl_stddev", oslSd);
    s.put("ignore_eos", eos);
  }

  /** A trace report in the shape of `trace inspect --format json`, computed from the file. */
  public static ObjectNode traceReport(Path trace, String pathInPlan) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(trace);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long rows = 0;
    long minTs = Long.MAX_VALUE;
    long maxTs = Long.MIN_VALUE;
    long minIn = Long.MAX_VALUE;
    long maxIn = 0;
    long minOut = Long.MAX_VALUE;
    long maxOut = 0;
    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode row = Json.JSON.readTree(line);
      rows++;
      long ts = row.path("timestamp").asLong();
      minTs = Math.min(minTs, ts);
      maxTs = Math.max(maxTs, ts);
      long in = row.path("input_length").asLong();
      minIn = Math.min(minIn, in);
      maxIn = Math.max(maxIn, in);
      long out = row.path("output_length").asLong();
      minOut = Math.min(minOut, out);
      maxOut = Math.max(maxOut, out);
    }
    ObjectNode t = Json.JSON.createObjectNode();
    t.put("path", pathInPlan);
    t.put("sha256", Sha256.hex(bytes));
    t.put("bytes", bytes.length);
    t.put("rows", rows);
    t.put("blank_lines", 0);
    t.putObject("timestamp_ms")
        .put("present_rows", rows)
        .put("min", minTs)
        .put("max", maxTs)
        .put("span", maxTs - minTs)
        .put("non_monotonic_rows", 0);
    t.putObject("input_length").put("min", minIn).put("max", maxIn);
    t.putObject("output_length").put("min", minOut).put("max", maxOut);
    t.putObject("hash_ids").put("block_size", 512).put("block_rule_violations", 0);
    t.putObject("context").putNull("limit").put("rows_over_limit", 0);
    t.putNull("window");
    return t;
  }

  private static ObjectNode base() {
    ObjectNode p = Json.JSON.createObjectNode();
    p.put("schema_version", "1.0");
    p.put("plan_id", "qwen3-chat-2026-11-30");
    p.put("series_id", "qwen3-chat-capacity");
    p.put("created_at", "2026-11-30T10:00:00Z");
    ObjectNode q = p.putObject("question");
    q.put("text", "How many tokens/s does the agg deployment sustain at TTFT p99 <= 200 ms?");
    q.put("intent", "characterization");
    q.putNull("target_region");
    q.putArray("references");
    ObjectNode uw = p.putObject("user_workload");
    uw.put("path", "workload.yaml").put("sha256", ZERO_SHA).putNull("profile_name");
    ObjectNode d = p.putObject("deployment");
    d.put("ledger_path", "ledger.yaml").put("ledger_sha256", ZERO_SHA);
    d.put("dgd_name", "vllm-agg");
    d.put("kube_context", "kind-bench");
    d.put("namespace", "dynamo");
    d.put("dgd_path", "agg.yaml").put("dgd_sha256", ZERO_SHA);
    d.put("frontend_service", "vllm-agg-frontend");
    d.put("frontend_port", 8000);
    d.put("endpoint_url", "http://vllm-agg-frontend.dynamo.svc.cluster.local:8000");
    d.put("served_model", "Qwen/Qwen3-0.6B");
    d.put("tokenizer", "Qwen/Qwen3-0.6B");
    d.putArray("gpus").addObject().put("gpu_type", "H100").put("gpu_count", 8);
    d.put("max_context_length", 32768);
    d.putObject("smoke_test")
        .put("path", "smoke.json")
        .put("sha256", ZERO_SHA)
        .put("success", true);
    d.putArray("secrets").add("hf-token-secret");
    ArrayNode samples = p.putArray("samples");
    samples
        .addObject()
        .put("metric", "time_to_first_token")
        .put("percentile", 99)
        .put("measured_requests", 640);
    p.putObject("run_policy")
        .put("repetitions", 1)
        .put("repeat_decision", "default")
        .putNull("repeat_rationale");
    p.putObject("endpoint")
        .put("type", "chat")
        .put("path", "/v1/chat/completions")
        .put("streaming", true);
    ObjectNode o = p.putObject("objectives");
    ArrayNode gates = o.putArray("gates");
    gates
        .addObject()
        .put("name", "inference-throughput")
        .put("metric", "output_token_throughput")
        .put("stat", "avg")
        .put("operator", ">=")
        .put("threshold", 5000)
        .put("unit", "tokens/sec");
    gates
        .addObject()
        .put("name", "inference-ttft-p99")
        .put("metric", "time_to_first_token")
        .put("stat", "p99")
        .put("operator", "<=")
        .put("threshold", 200)
        .put("unit", "ms");
    o.putNull("goodput");
    o.put("pareto", true);
    ObjectNode a = p.putObject("aiperf");
    a.put("version", "0.11.0");
    a.put("image", DEFAULT_IMAGE_REPO + ":0.11.0");
    ObjectNode res = a.putObject("resolution");
    res.put("mechanism", "operator_pin").putNull("query").putNull("output_sha256");
    res.putArray("versions_seen");
    res.put("date", "2026-11-30");
    p.putArray("rules_applied")
        .addObject()
        .put("rule", "benchmarking/warmup.md")
        .put("decision", "warmup 16 requests")
        .put("reason", "keep cold start out of the window");
    return p;
  }

  /** Versions the tests render for: every flag-table boundary and both sides of native config. */
  public static final List<String> VERSIONS =
      List.of(
          "0.1.1", "0.2.0", "0.3.0", "0.6.0.post1", "0.7.0", "0.8.0", "0.10.0", "0.11.0", "0.13.0");

  /**
   * A deployment folder written by the test (DGD, smoke artifact, ledger with the real SHA-256s)
   * and the requests that run the real planner ({@code PlanService}) against it.
   */
  public static final class Inputs {
    public static final Clock CLOCK =
        Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

    /** A fetcher for tests that must not reach any index. */
    public static final IndexFetcher OFFLINE =
        uri -> {
          throw new ConnectException("offline test: no index at " + uri);
        };

    /** An inspector for tests whose workload has no trace. */
    public static final TraceInspector NO_TRACES =
        (f, b, c, s, e) -> {
          throw new AssertionError("no trace expected in this test: " + f);
        };

    public static final String DGD =
        """
        apiVersion: nvidia.com/v1alpha1
        kind: DynamoGraphDeployment
        metadata:
          name: vllm-agg
        spec:
          services:
            Frontend:
              componentType: frontend
              replicas: 1
            VllmDecodeWorker:
              envFromSecret: hf-token-secret
              componentType: worker
              replicas: 1
              resources:
                limits:
                  gpu: "1"
              extraPodSpec:
                imagePullSecrets:
                  - name: nvcr-pull
        """;

    /** A successful smoke artifact as `benchplan smoke` writes it (the committed example). */
    public static final String SMOKE_OK = readExample("smoke_test_artifact.json");

    public static final String STATIC_WORKLOAD =
        """
        profile:
          name: Support Chat
          type: chat
        model:
          source: Qwen/Qwen3-0.6B
        traffic:
          input_tokens: 512
          output_tokens: 128
          concurrency: [16]
          request_count: 1000
        objectives:
          ttft_ms_p95_max: 300
          output_tput_per_gpu_min: 1500
          custom_slos:
            - {metric: time_to_first_token, stat: p99, max: 500}
        """;

    public final Path root;
    public final Path deployDir;
    public final Path ledger;
    public final Path expRoot;

    private Inputs(Path root) {
      this.root = root;
      this.deployDir = root.resolve("deploy");
      this.ledger = deployDir.resolve("ledger.yaml");
      this.expRoot = root.resolve("exp");
    }

    /** Writes a valid deployment folder (ledger + DGD + successful smoke artifact). */
    public static Inputs create(Path root) {
      Inputs f = new Inputs(root);
      f.writeDeployment(SMOKE_OK, true);
      return f;
    }

    public void writeDeployment(String smokeArtifact, boolean ledgerSuccess) {
      write(deployDir.resolve("dgd.yaml"), DGD);
      write(deployDir.resolve("smoke_test_artifact.json"), smokeArtifact);
      writeLedger(
          Sha256.ofFile(deployDir.resolve("dgd.yaml")),
          Sha256.ofFile(deployDir.resolve("smoke_test_artifact.json")),
          ledgerSuccess);
    }

    public void writeLedger(String dgdSha, String smokeSha, boolean success) {
      write(ledger, ledgerYaml(dgdSha, smokeSha, success, 2));
    }

    /**
     * A deployment ledger of vllm-agg on {@code gpuCount} H100s whose DGD and smoke artifact lie
     * beside it as dgd.yaml and smoke_test_artifact.json with these SHA-256s.
     */
    public static String ledgerYaml(String dgdSha, String smokeSha, boolean success, int gpuCount) {
      return """
          dgd_name: vllm-agg
          kube_context: kind-test
          namespace: bench
          applied_dgd: {path: dgd.yaml, sha256: %s}
          frontend: {service: vllm-agg-frontend, port: 8000}
          served_model: Qwen/Qwen3-0.6B
          tokenizer: Qwen/Qwen3-0.6B
          gpus: [{gpu_type: H100, gpu_count: %d}]
          max_context_length: 40960
          smoke_test: {artifact_path: smoke_test_artifact.json, sha256: %s, success: %s}
          secrets: [hf-token-secret]
          """
          .formatted(dgdSha, gpuCount, smokeSha, success);
    }

    /** Writes a workload file under the fixture root and returns its path. */
    public Path workload(String name, String yaml) {
      Path p = root.resolve(name);
      write(p, yaml);
      return p;
    }

    public PlanOptions.Builder options() {
      return PlanOptions.builder().expRoot(expRoot).aiperf(VersionRequest.pinned("0.13.0"));
    }

    public static Question question() {
      return new Question(
          "What output throughput does vllm-agg sustain within the support SLOs?",
          Intent.characterization,
          "16 concurrent users",
          List.of());
    }

    public PlanRequest request(Path workloadFile, PlanOptions options) {
      return request(workloadFile, options, question(), NO_TRACES, OFFLINE);
    }

    public PlanRequest request(
        Path workloadFile,
        PlanOptions options,
        Question q,
        TraceInspector inspector,
        IndexFetcher fetcher) {
      return new PlanRequest(
          InputDocument.read(workloadFile, "user workload"),
          InputDocument.read(ledger, "deployment ledger"),
          null,
          q,
          options,
          CLOCK,
          fetcher,
          inspector);
    }

    public static String readExample(String name) {
      try {
        return Files.readString(Path.of("examples", name));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    public static void write(Path p, String content) {
      try {
        Files.createDirectories(p.toAbsolutePath().getParent());
        Files.writeString(p, content, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * The bundled examples planned through the command line, as a user plans them: a workload from
   * examples/, the example ledger, AIPerf pinned to 0.13.0, an experiment root of the test's own.
   */
  public static final class Examples {
    /** The bundled examples (the tests run from the project folder). */
    public static final Path EXAMPLES = Path.of("examples").toAbsolutePath();

    /** The static example workload. */
    public static final Path STATIC = EXAMPLES.resolve("workload-static.yaml");

    private Examples() {}

    /**
     * {@code plan --workload WORKLOAD --ledger examples/deployment-ledger.yaml --question QUESTION
     * --aiperf-version 0.13.0 --exp-root EXP_ROOT}, then {@code extra}; a list the caller may
     * extend.
     */
    public static List<String> args(Path workload, String question, Path expRoot, String... extra) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "plan",
                  "--workload",
                  workload.toString(),
                  "--ledger",
                  EXAMPLES.resolve("deployment-ledger.yaml").toString(),
                  "--question",
                  question,
                  "--aiperf-version",
                  "0.13.0",
                  "--exp-root",
                  expRoot.toString()));
      args.addAll(List.of(extra));
      return args;
    }

    /** Runs {@link #args} with {@code --format json} before {@code extra}. */
    public static CommandHarness.Result json(
        Path workload, String question, Path expRoot, String... extra) {
      List<String> args = args(workload, question, expRoot, "--format", "json");
      args.addAll(List.of(extra));
      return CommandHarness.run(args.toArray(String[]::new));
    }
  }
}
