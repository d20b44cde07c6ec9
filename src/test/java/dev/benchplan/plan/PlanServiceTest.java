package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.workload.DeploymentRecord;
import dev.benchplan.workload.GpuAllocation;
import dev.benchplan.workload.InputDocument;
import dev.benchplan.workload.SmokeEvidence;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class PlanServiceTest {
  @TempDir Path tmp;
  PlanFixture.Inputs fx;
  final PlanService service = new PlanService();

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private PlanResult plan(String workloadYaml, Consumer<PlanOptions.Builder> opts) {
    PlanOptions.Builder b = fx.options();
    opts.accept(b);
    return service.plan(
        fx.request(fx.workload("w-" + System.nanoTime() + ".yaml", workloadYaml), b.build()));
  }

  private List<String> blockers(String workloadYaml, Consumer<PlanOptions.Builder> opts) {
    PlanBlockedException e =
        (PlanBlockedException)
            org.assertj.core.api.Assertions.catchThrowable(() -> plan(workloadYaml, opts));
    assertThat(e).as("expected blockers").isNotNull();
    assertThat(planFiles()).as("a blocked plan writes nothing").isEmpty();
    e.blockers().forEach(b -> assertThat(b.message()).contains("(rule: " + b.rule() + ")"));
    return e.codes();
  }

  private List<Path> planFiles() {
    Path dir = fx.expRoot.resolve("inputs/benchmark-plans");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JsonNode read(Path p) throws IOException {
    return PlanJson.parse(Files.readAllBytes(p));
  }

  @Test
  @DisplayName("a static workload gives a schema-valid, read-only, canonical user_static plan")
  void staticPlan() throws IOException {
    PlanResult r = plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {});
    assertThat(r.workloadSource()).isEqualTo("user_static");
    assertThat(r.seriesId()).matches("support-chat-20261130-[0-9a-f]{8}");
    assertThat(r.planPath())
        .isEqualTo(
            fx.expRoot
                .toAbsolutePath()
                .resolve("inputs/benchmark-plans/" + r.seriesId() + ".json"));
    assertThat(Sha256.ofFile(r.planPath())).isEqualTo(r.sha256());
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(r.planPath())))
        .as("read-only")
        .isEqualTo("r--r--r--");
    JsonNode plan = read(r.planPath());
    assertThat(SchemaValidator.bundled("benchmark-plan.schema.json").validate(plan)).isEmpty();
    assertThat(plan.at("/workload/synthetic/isl").asInt()).isEqualTo(512);
    assertThat(plan.at("/workload/synthetic/ignore_eos").asBoolean()).isTrue();
    assertThat(plan.at("/experiment/type").asString()).isEqualTo("static_shape");
    assertThat(plan.at("/experiment/measurement_mode").asString()).isEqualTo("closed_loop");
    assertThat(plan.at("/experiment/concurrency").toString()).isEqualTo("[16]");
    assertThat(plan.at("/experiment/request_rate").isNull()).isTrue();
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(1000);
    assertThat(plan.at("/experiment/measurement_limit_s").asInt()).isEqualTo(1800);
    assertThat(plan.at("/experiment/warmup_requests").asInt()).isEqualTo(16);
    assertThat(plan.at("/experiment/seed").asLong()).isEqualTo(100);
    assertThat(plan.at("/endpoint/streaming").asBoolean()).isTrue();
    assertThat(plan.at("/endpoint/path").asString()).isEqualTo("/v1/chat/completions");
    assertThat(plan.at("/deployment/endpoint_url").asString())
        .isEqualTo("http://vllm-agg-frontend.bench.svc.cluster.local:8000");
    assertThat(plan.at("/deployment/secrets").toString())
        .isEqualTo("[\"hf-token-secret\",\"nvcr-pull\"]");
    assertThat(plan.at("/deployment/ledger_sha256").asString()).isEqualTo(Sha256.ofFile(fx.ledger));
    assertThat(plan.at("/user_workload/sha256").asString()).hasSize(64);
    assertThat(plan.at("/created_at").asString()).isEqualTo("2026-11-30T12:00:00Z");
    assertThat(plan.at("/plan_id").asString()).startsWith(r.seriesId() + ".");
    assertThat(plan.at("/aiperf/resolution/mechanism").asString()).isEqualTo("operator_pin");
    assertThat(plan.at("/aiperf/image").asString())
        .isEqualTo("nvcr.io/nvidia/ai-dynamo/aiperf:0.13.0");
    assertThat(plan.at("/run_policy/repetitions").asInt()).isEqualTo(1);
    assertThat(plan.at("/run_policy/repeat_decision").asString()).isEqualTo("default");
    // the bytes on disk are the canonical form of the tree
    assertThat(Files.readAllBytes(r.planPath()))
        .isEqualTo(dev.benchplan.json.CanonicalJson.bytes(plan));
  }

  @Test
  @DisplayName("SLOs become gates with the contract names, goodput thresholds and sample bases")
  void objectives() throws IOException {
    JsonNode plan = read(plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {}).planPath());
    JsonNode gates = plan.at("/objectives/gates");
    List<String> names = new ArrayList<>();
    gates.forEach(g -> names.add(g.path("name").asString()));
    assertThat(names)
        .containsExactlyInAnyOrder(
            "time_to_first_token-p95", "inference-throughput", "inference-ttft-p99");
    JsonNode tput = find(gates, "inference-throughput");
    assertThat(tput.path("metric").asString()).isEqualTo("output_token_throughput");
    assertThat(tput.path("operator").asString()).isEqualTo(">=");
    // 1500 tokens/s per GPU x 2 GPUs in the ledger
    assertThat(tput.path("threshold").decimalValue()).isEqualByComparingTo("3000");
    assertThat(tput.path("unit").asString()).isEqualTo("tokens/sec");
    JsonNode ttft = find(gates, "inference-ttft-p99");
    assertThat(ttft.path("stat").asString()).isEqualTo("p99");
    assertThat(ttft.path("operator").asString()).isEqualTo("<=");
    assertThat(ttft.path("unit").asString()).isEqualTo("ms");
    // the strictest TTFT threshold is the goodput threshold
    assertThat(plan.at("/objectives/goodput/time_to_first_token").decimalValue())
        .isEqualByComparingTo("300");
    assertThat(plan.at("/objectives/pareto").asBoolean()).isFalse();
    assertThat(plan.at("/samples").size()).isEqualTo(2);
    plan.at("/samples")
        .forEach(s -> assertThat(s.path("measured_requests").asLong()).isEqualTo(1000));
    assertThat(rules(plan))
        .contains(
            "benchmarking/concurrency-grid.md",
            "benchmarking/measurement-mode.md",
            "benchmarking/measurement-limit.md",
            "benchmarking/tool-version.md",
            "benchmarking/proxy-workload-selection.md",
            "benchmarking/comparison-uncertainty.md",
            "benchmarking/series-boundaries.md",
            "execution/user-workload.md",
            "execution/deployment-ledger.md",
            "benchmarking/benchmark-isolation.md",
            "benchmarking/evidence-eligibility.md");
    plan.at("/rules_applied")
        .forEach(
            d -> {
              assertThat(d.path("decision").asString()).isNotBlank();
              assertThat(d.path("reason").asString()).isNotBlank();
            });
  }

  private static JsonNode find(JsonNode gates, String name) {
    for (JsonNode g : gates) {
      if (g.path("name").asString().equals(name)) {
        return g;
      }
    }
    throw new AssertionError("no gate " + name);
  }

  private static List<String> rules(JsonNode plan) {
    List<String> out = new ArrayList<>();
    plan.at("/rules_applied").forEach(d -> out.add(d.path("rule").asString()));
    return out;
  }

  @Test
  @DisplayName("without SLOs the plan keeps the Pareto view and gates nothing")
  void pareto() throws IOException {
    JsonNode plan =
        read(
            plan(
                    """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [4]}
        """,
                    b -> {})
                .planPath());
    assertThat(plan.at("/objectives/pareto").asBoolean()).isTrue();
    assertThat(plan.at("/objectives/gates").size()).isZero();
    assertThat(plan.at("/objectives/goodput").isNull()).isTrue();
    assertThat(plan.at("/samples").size()).isZero();
    // default request count: max(1000, 10 x concurrency)
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(1000);
  }

  @Test
  @DisplayName("several user concurrency values: a capacity grid of exactly those values")
  void userGrid() throws IOException {
    JsonNode plan =
        read(
            plan(
                    """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [3, 12, 200]}
        """,
                    b -> {})
                .planPath());
    assertThat(plan.at("/experiment/type").asString()).isEqualTo("capacity");
    assertThat(plan.at("/experiment/concurrency").toString()).isEqualTo("[3,12,200]");
    assertThat(plan.at("/experiment/grid/origin").asString()).isEqualTo("user_values");
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(2000);
  }

  @Test
  @DisplayName("a declared maximum gives a bounded powers-of-two concurrency grid")
  void powersOfTwo() throws IOException {
    JsonNode plan =
        read(
            plan(
                    """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100}
        """,
                    b -> b.maxConcurrency(64))
                .planPath());
    assertThat(plan.at("/workload/source").asString()).isEqualTo("user_static");
    assertThat(plan.at("/experiment/type").asString()).isEqualTo("capacity");
    assertThat(plan.at("/experiment/concurrency").toString()).isEqualTo("[1,2,4,8,16,32,64]");
    assertThat(plan.at("/experiment/grid/origin").asString()).isEqualTo("powers_of_two");
    assertThat(ExperimentPlanner.powersOfTwo(48)).containsExactly(1, 2, 4, 8, 16, 32, 48);
  }

  @Test
  @DisplayName("an SLO capacity question defaults to open-loop Poisson request-rate points")
  void sloCapacityOpenLoop() throws IOException {
    JsonNode plan =
        read(
            plan(
                    """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, max_request_rate: 8}
        objectives: {custom_slos: [{metric: time_to_first_token, stat: p99, max: 200}]}
        """,
                    b -> {})
                .planPath());
    assertThat(plan.at("/experiment/type").asString()).isEqualTo("capacity");
    assertThat(plan.at("/experiment/measurement_mode").asString()).isEqualTo("open_loop");
    assertThat(plan.at("/experiment/concurrency").isNull()).isTrue();
    assertThat(plan.at("/experiment/request_rate").toString()).isEqualTo("[1.0,2.0,4.0,8.0]");
    assertThat(plan.at("/experiment/arrival_pattern").asString()).isEqualTo("poisson");
    assertThat(plan.at("/experiment/duration_s").asInt()).isEqualTo(600);
    // the lowest rate x duration: 600 requests, under 1000 -> a warning, not a blocker
    assertThat(plan.at("/samples/0/measured_requests").asLong()).isEqualTo(600);
    assertThat(plan.at("/warnings").toString()).contains("inference-ttft-p99");
  }

  @Test
  @DisplayName("an SLO capacity question with max concurrency only still asks for rate points")
  void sloCapacityNeedsRates() {
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100}
        objectives: {ttft_ms_p95_max: 200}
        """,
                b -> b.maxConcurrency(8).experiment(ExperimentType.capacity)))
        .containsExactly("GRID_UNBOUNDED");
  }

  @Test
  @DisplayName("concurrency and request rate together are refused unless one axis is chosen")
  void bothAxes() throws IOException {
    String w =
        """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [4], request_rate: 2}
        """;
    assertThat(blockers(w, b -> {})).containsExactly("LOAD_AXIS_AMBIGUOUS");
    JsonNode plan = read(plan(w, b -> b.measurementMode(MeasurementMode.open_loop)).planPath());
    assertThat(plan.at("/experiment/request_rate").toString()).isEqualTo("[2.0]");
    assertThat(plan.at("/experiment/concurrency").isNull()).isTrue();
    assertThat(plan.at("/warnings").toString()).contains("traffic.concurrency [4] is not used");
  }

  @Test
  @DisplayName("a capacity experiment without load points or a declared maximum is unbounded")
  void unbounded() {
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [4]}
        """,
                b ->
                    b.experiment(ExperimentType.capacity)
                        .measurementMode(MeasurementMode.open_loop)))
        .containsExactly("GRID_UNBOUNDED");
  }

  @Test
  @DisplayName("a p99 gate on fewer than 100 measured requests is refused")
  void p99TooFewSamples() {
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [4], request_count: 64}
        objectives: {custom_slos: [{metric: time_to_first_token, stat: p99, max: 200}]}
        """,
                b -> {}))
        .containsExactly("SAMPLES_TOO_FEW");
  }

  @Test
  @DisplayName("a p99 gate on 100..999 requests is allowed with a warning")
  void p99Warning() {
    PlanResult r =
        plan(
            """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [4], request_count: 200}
        objectives: {custom_slos: [{metric: time_to_first_token, stat: p99, max: 200}]}
        """,
            b -> {});
    assertThat(r.warnings())
        .anyMatch(
            w ->
                w.contains("rests on 200 measured requests")
                    && w.contains("benchmarking/concurrency-grid.md"));
    // gated, but below the estimability rule compare and analyze apply (issue 31 item 5)
    assertThat(r.warnings())
        .anyMatch(
            w ->
                w.contains("(p99) can be gated on 200 measured requests per run but not compared")
                    && w.contains("fewer than 1000 measured requests per run inconclusive"));
  }

  @Test
  @DisplayName("a duration-bounded closed loop cannot say how many requests a p99 rests on")
  void samplesUnknown() {
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [4], duration_s: 300}
        objectives: {custom_slos: [{metric: time_to_first_token, stat: p99, max: 200}]}
        """,
                b -> {}))
        .containsExactly("SAMPLES_UNKNOWN");
  }

  @Test
  @DisplayName("durations and limits above 30 minutes are blockers")
  void thirtyMinutes() {
    String w =
        """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, request_rate: 2, duration_s: 2400}
        """;
    assertThat(blockers(w, b -> {})).containsExactly("MEASUREMENT_LIMIT_EXCEEDED");
    assertThat(blockers(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.measurementLimitS(3600)))
        .containsExactly("MEASUREMENT_LIMIT_EXCEEDED");
    // 5000 requests at 2 req/s take 2500 s
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, request_rate: 2, request_count: 5000}
        """,
                b -> {}))
        .containsExactly("MEASUREMENT_LIMIT_EXCEEDED");
  }

  @Test
  @DisplayName("a static shape longer than the served context is refused")
  void staticShapeContext() {
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 40000, output_tokens: 1000, concurrency: [1]}
        """,
                b -> {}))
        .containsExactly("STATIC_SHAPE_EXCEEDS_CONTEXT");
  }

  @Test
  @DisplayName("without trace or exact traffic, the closest Dynamo recipe becomes a proxy")
  void recipeProxy() throws IOException {
    PlanResult r =
        plan(
            """
        profile: {name: p, type: chat}
        model: {source: meta-llama/Llama-3.1-8B-Instruct}
        traffic: {input_tokens: 7000}
        """,
            b -> {});
    assertThat(r.workloadSource()).isEqualTo("recipe_proxy");
    JsonNode plan = read(r.planPath());
    assertThat(plan.at("/workload/proxy/recipe").asString()).isEqualTo("llama-3-70b/vllm/agg");
    assertThat(plan.at("/workload/proxy/rationale").asString()).contains("input length 7000");
    assertThat(plan.at("/workload/proxy/mismatches").toString())
        .contains("user input_tokens 7000 vs recipe ISL 8192")
        .contains("recipe runs on 4 GPUs, the deployment has 2")
        .contains("recipe written for RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic (same family)");
    assertThat(plan.at("/workload/synthetic/isl").asInt()).isEqualTo(8192);
    assertThat(plan.at("/workload/synthetic/osl").asInt()).isEqualTo(1024);
    // 16 per GPU x 2 GPUs
    assertThat(plan.at("/experiment/concurrency").toString()).isEqualTo("[32]");
    assertThat(r.warnings()).anyMatch(w -> w.contains("exploration, not validation"));
  }

  @Test
  @DisplayName(
      "the proxy follows the user's shape: a 150-token prompt picks gpt-oss 128/1000 over the qwen shapes")
  void recipeProxyShape() throws IOException {
    JsonNode plan =
        read(
            plan(
                    """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 150, concurrency: [8]}
        """,
                    b -> {})
                .planPath());
    assertThat(plan.at("/workload/proxy/mismatches").toString())
        .contains("traffic controls (concurrency [8]) are not used");
    assertThat(plan.at("/workload/proxy/recipe").asString()).isEqualTo("gpt-oss-120b/128-1000");
    assertThat(plan.at("/workload/proxy/mismatches").toString())
        .contains("recipe written for openai/gpt-oss-120b, the deployment serves Qwen/Qwen3-0.6B");
  }

  @Test
  @DisplayName("repetitions: one by default; more only with a rationale; the pilot is n=3 once")
  void repetitions() throws IOException {
    assertThat(blockers(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.repetitions(3)))
        .containsExactly("REPEAT_WITHOUT_RATIONALE");
    assertThat(
            blockers(
                PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.repetitions(11).repeatRationale("x")))
        .containsExactly("REPETITIONS_OUT_OF_RANGE");
    assertThat(blockers(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.pilot(true).repetitions(2)))
        .containsExactly("PILOT_CONFLICT");
    JsonNode approved =
        read(
            plan(
                    PlanFixture.Inputs.STATIC_WORKLOAD,
                    b ->
                        b.repetitions(2)
                            .repeatRationale("candidate within 2% of the SLO boundary")
                            .seriesId("rep-approved"))
                .planPath());
    assertThat(approved.at("/run_policy/repeat_decision").asString()).isEqualTo("approved");
    assertThat(approved.at("/run_policy/repeat_rationale").asString()).contains("2% of the SLO");
    JsonNode pilot =
        read(
            plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.pilot(true).seriesId("pilot-series"))
                .planPath());
    assertThat(pilot.at("/run_policy/repetitions").asInt()).isEqualTo(3);
    assertThat(pilot.at("/run_policy/repeat_decision").asString()).isEqualTo("necessary");
    assertThat(pilot.at("/run_policy/repeat_rationale").asString())
        .contains("noise-floor pilot for series pilot-series");
  }

  @Test
  @DisplayName("the pilot repeats one configuration: not a grid")
  void pilotNeedsOnePoint() {
    assertThat(
            blockers(
                """
        profile: {name: p, type: chat}
        traffic: {input_tokens: 100, output_tokens: 100, concurrency: [1, 2]}
        """,
                b -> b.pilot(true)))
        .containsExactly("PILOT_CONFLICT");
  }

  @Test
  @DisplayName("turning streaming off is refused when TTFT/ITL objectives need it")
  void streaming() {
    assertThat(blockers(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.streaming(false)))
        .containsExactly("STREAMING_REQUIRED");
  }

  @Test
  @DisplayName(
      "question, comparison references and series ID are checked; every blocker is reported")
  void questionChecks() {
    PlanOptions o = fx.options().seriesId("Bad ID!").build();
    PlanBlockedException e =
        (PlanBlockedException)
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    service.plan(
                        fx.request(
                            fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD),
                            o,
                            new Question(" ", Intent.comparison, null, List.of()),
                            PlanFixture.Inputs.NO_TRACES,
                            PlanFixture.Inputs.OFFLINE)));
    assertThat(e.codes())
        .containsExactly("QUESTION_MISSING", "COMPARISON_REFERENCE_MISSING", "SERIES_ID_INVALID");
    assertThat(e.blockers())
        .extracting(Blocker::rule)
        .containsExactly(
            "execution/benchmark-plan.md",
            "benchmarking/series-boundaries.md",
            "execution/benchmark-plan.md");
  }

  @Test
  @DisplayName("a comparison records its references")
  void comparison() throws IOException {
    PlanOptions o = fx.options().build();
    PlanResult r =
        service.plan(
            fx.request(
                fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD),
                o,
                new Question(
                    "Is the new router faster?", Intent.comparison, null, List.of("baseline-a")),
                PlanFixture.Inputs.NO_TRACES,
                PlanFixture.Inputs.OFFLINE));
    JsonNode plan = read(r.planPath());
    assertThat(plan.at("/question/intent").asString()).isEqualTo("comparison");
    assertThat(plan.at("/question/references/0").asString()).isEqualTo("baseline-a");
  }

  @Test
  @DisplayName("an existing plan is never overwritten: SERIES_EXISTS, bytes unchanged")
  void overwriteRefused() throws IOException {
    PlanResult first = plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {});
    byte[] before = Files.readAllBytes(first.planPath());
    assertThat(blockers2(() -> plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {})))
        .containsExactly("SERIES_EXISTS");
    assertThat(
            blockers2(
                () -> plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.seriesId(first.seriesId()))))
        .containsExactly("SERIES_EXISTS");
    assertThat(Files.readAllBytes(first.planPath())).isEqualTo(before);
  }

  private static List<String> blockers2(Runnable r) {
    try {
      r.run();
    } catch (PlanBlockedException e) {
      return e.codes();
    }
    throw new AssertionError("expected blockers");
  }

  @Test
  @DisplayName("two concurrent writers of one series produce exactly one file")
  void concurrentWriters() throws Exception {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    int writers = 8;
    var pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
    var start = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<String>> results = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      results.add(
          pool.submit(
              () -> {
                start.await();
                try {
                  return "ok:" + service.plan(fx.request(w, fx.options().build())).sha256();
                } catch (PlanBlockedException e) {
                  return String.join(",", e.codes());
                }
              }));
    }
    start.countDown();
    List<String> outcomes = new ArrayList<>();
    for (var f : results) {
      outcomes.add(f.get());
    }
    pool.shutdown();
    assertThat(outcomes.stream().filter(s -> s.startsWith("ok:")).count()).isEqualTo(1);
    assertThat(outcomes.stream().filter(s -> s.equals("SERIES_EXISTS")).count())
        .isEqualTo(writers - 1);
    assertThat(planFiles()).hasSize(1);
    try (Stream<Path> s = Files.list(fx.expRoot.resolve("inputs/benchmark-plans"))) {
      assertThat(s.filter(p -> p.getFileName().toString().startsWith(".")))
          .as("no temp left")
          .isEmpty();
    }
  }

  @Test
  @DisplayName("identical inputs under a fixed clock give byte-identical plans")
  void byteIdentical() throws IOException {
    Path w = fx.workload("w.yaml", PlanFixture.Inputs.STATIC_WORKLOAD);
    PlanResult a = service.plan(fx.request(w, fx.options().expRoot(tmp.resolve("a")).build()));
    PlanResult b = service.plan(fx.request(w, fx.options().expRoot(tmp.resolve("b")).build()));
    assertThat(a.planPath()).isNotEqualTo(b.planPath());
    assertThat(Files.readAllBytes(a.planPath())).isEqualTo(Files.readAllBytes(b.planPath()));
    assertThat(a.sha256()).isEqualTo(b.sha256());
    assertThat(a.seriesId()).isEqualTo(b.seriesId());
  }

  @Test
  @DisplayName(
      "reuse: the exact plan path + SHA-256 and an unchanged identity print it and write nothing")
  void reuse() throws IOException {
    PlanResult first = plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {});
    Path other = tmp.resolve("other-exp");
    PlanResult again =
        plan(
            PlanFixture.Inputs.STATIC_WORKLOAD,
            b ->
                b.expRoot(other)
                    .aiperf(dev.benchplan.aiperf.version.VersionRequest.none())
                    .reuse(new ReuseRequest(first.planPath(), first.sha256())));
    assertThat(again.reused()).isTrue();
    assertThat(again.planPath()).isEqualTo(first.planPath());
    assertThat(again.sha256()).isEqualTo(first.sha256());
    assertThat(again.seriesId()).isEqualTo(first.seriesId());
    assertThat(again.aiperfVersion()).isEqualTo("0.13.0");
    assertThat(other).doesNotExist();
    assertThat(planFiles()).hasSize(1);
  }

  @Test
  @DisplayName("reuse of a tampered plan is refused (SHA-256 mismatch)")
  void reuseTampered() throws IOException {
    PlanResult first = plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {});
    Path copy = tmp.resolve("copy.json");
    String text = Files.readString(first.planPath()).replace("\"seed\": 100", "\"seed\": 101");
    Files.writeString(copy, text);
    assertThat(
            blockers2(
                () ->
                    plan(
                        PlanFixture.Inputs.STATIC_WORKLOAD,
                        b ->
                            b.expRoot(tmp.resolve("x"))
                                .reuse(new ReuseRequest(copy, first.sha256())))))
        .containsExactly("REUSE_SHA256_MISMATCH");
    assertThat(
            blockers2(
                () ->
                    plan(
                        PlanFixture.Inputs.STATIC_WORKLOAD,
                        b ->
                            b.expRoot(tmp.resolve("x"))
                                .reuse(
                                    new ReuseRequest(tmp.resolve("nope.json"), first.sha256())))))
        .containsExactly("REUSE_PLAN_MISSING");
  }

  @Test
  @DisplayName("reuse with one frozen field changed is SERIES_BOUNDARY naming that field")
  void reuseBoundary() {
    PlanResult first = plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> {});
    PlanBlockedException e =
        (PlanBlockedException)
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    plan(
                        PlanFixture.Inputs.STATIC_WORKLOAD,
                        b ->
                            b.seed(7L)
                                .expRoot(tmp.resolve("y"))
                                .reuse(new ReuseRequest(first.planPath(), first.sha256()))));
    assertThat(e.codes()).containsExactly("SERIES_BOUNDARY");
    assertThat(e.blockers().get(0).message())
        .contains("1 frozen field(s): /experiment/seed (100 -> 7)");
    // two fields: both named
    PlanBlockedException e2 =
        (PlanBlockedException)
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    plan(
                        PlanFixture.Inputs.STATIC_WORKLOAD.replace(
                            "concurrency: [16]", "concurrency: [32]"),
                        b ->
                            b.aiperf(dev.benchplan.aiperf.version.VersionRequest.pinned("0.12.0"))
                                .reuse(new ReuseRequest(first.planPath(), first.sha256()))));
    assertThat(e2.codes()).containsExactly("SERIES_BOUNDARY");
    assertThat(e2.blockers().get(0).message())
        .contains("/experiment/concurrency")
        .contains("/experiment/warmup_requests")
        .contains("/aiperf/version");
  }

  @Test
  @DisplayName("the pilot cannot be added to a reused series")
  void pilotOncePerSeries() {
    PlanResult first = plan(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.pilot(true));
    assertThat(
            blockers2(
                () ->
                    plan(
                        PlanFixture.Inputs.STATIC_WORKLOAD,
                        b ->
                            b.pilot(true)
                                .reuse(new ReuseRequest(first.planPath(), first.sha256())))))
        .containsExactly("PILOT_ONCE_PER_LOAD_POINT");
  }

  @Test
  @DisplayName(
      "a deployment record built in code may declare in-cluster readiness instead of a smoke artifact")
  void inClusterReadiness() throws IOException {
    DeploymentRecord d =
        DeploymentRecord.inMemory(
            "validate:in-cluster",
            "bp-default",
            "ctx",
            "bp-validate-1a2b3c4d",
            "validate:dgd-manifest",
            "a".repeat(64),
            "bp-default-frontend",
            8000,
            "Qwen/Qwen3-0.6B",
            "Qwen/Qwen3-0.6B",
            List.of(new GpuAllocation("H100", 8)),
            null,
            new SmokeEvidence.InClusterReadiness(
                "benchplan validate",
                "the AIPerf Job waits until a real chat completion succeeds before measuring"),
            List.of());
    var tree = Json.JSON.createObjectNode();
    tree.putObject("profile").put("name", "validate").put("type", "chat");
    tree.putObject("traffic")
        .put("input_tokens", 128)
        .put("output_tokens", 128)
        .put("request_count", 256)
        .putArray("concurrency")
        .add(32);
    tree.putObject("objectives")
        .putArray("custom_slos")
        .add(
            Json.JSON
                .createObjectNode()
                .put("metric", "output_token_throughput")
                .put("stat", "avg")
                .put("min", 5000))
        .add(
            Json.JSON
                .createObjectNode()
                .put("metric", "time_to_first_token")
                .put("stat", "p99")
                .put("max", 200));
    // the convenience factory validate uses: production fetcher and scanner (a pin: no network)
    PlanRequest req =
        PlanRequest.of(
            InputDocument.of("validate:workload", tree, null),
            d,
            PlanFixture.Inputs.question(),
            fx.options().build(),
            PlanFixture.Inputs.CLOCK);
    PlanResult r = service.plan(req);
    JsonNode plan = read(r.planPath());
    assertThat(plan.at("/deployment/smoke_test/kind").asString()).isEqualTo("in_cluster_readiness");
    assertThat(plan.at("/deployment/smoke_test/readiness/declared_by").asString())
        .isEqualTo("benchplan validate");
    assertThat(plan.at("/deployment/smoke_test/sha256").asString())
        .isEqualTo(
            Sha256.hex(
                dev.benchplan.json.CanonicalJson.bytes(
                    plan.at("/deployment/smoke_test/readiness"))));
    assertThat(plan.at("/user_workload/path").asString()).isEqualTo("validate:workload");
    assertThat(
            find(plan.at("/objectives/gates"), "inference-throughput")
                .path("threshold")
                .decimalValue())
        .isEqualByComparingTo(new BigDecimal(5000));
    assertThat(r.warnings()).anyMatch(w -> w.contains("rests on 256 measured requests"));
  }

  @Test
  @DisplayName("workload/ledger disagreements are warnings in the plan")
  void crossChecks() {
    PlanResult r =
        plan(
            PlanFixture.Inputs.STATIC_WORKLOAD
                + """
        kubernetes: {kube_context: prod, namespace: other}
        hardware: [{gpu_type: A100, gpu_count: 8}]
        """,
            b -> {});
    assertThat(r.warnings())
        .anyMatch(w -> w.contains("kube context 'prod'"))
        .anyMatch(w -> w.contains("namespace 'other'"))
        .anyMatch(w -> w.contains("[8 x A100] differs"));
  }

  @Test
  @DisplayName("unreadable inputs are blockers naming the file")
  void unreadable() {
    PlanBlockedException e =
        (PlanBlockedException)
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    service.planFiles(
                        tmp.resolve("missing.yaml"),
                        tmp.resolve("nope.yaml"),
                        PlanFixture.Inputs.question(),
                        fx.options().build(),
                        PlanFixture.Inputs.CLOCK,
                        PlanFixture.Inputs.OFFLINE,
                        PlanFixture.Inputs.NO_TRACES));
    assertThat(e.codes()).containsExactly("WORKLOAD_UNREADABLE", "LEDGER_UNREADABLE");
    assertThat(e.blockers().get(0).message()).contains("missing.yaml: file not found");
  }

  @Test
  @DisplayName("a YAML syntax error names the line")
  void yamlSyntax() {
    Path w = fx.workload("bad.yaml", "profile:\n  name: x\n  type: [chat\nmodel: {}\n");
    assertThatThrownBy(() -> InputDocument.read(w, "user workload"))
        .hasMessage(
            "user workload "
                + w
                + ":4:6: not valid YAML: expected ',' or ']', but got : (while parsing a"
                + " flow sequence that starts at line 3, column 9)");
  }
}
