package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.benchplan.json.SchemaValidator;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.workload.ScannerTraceInspector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The steady-state rule (agent-docs/rules/benchmarking/steady-state.md) and the load_generator
 * section, through the real planner: every written plan is checked against the plan schema.
 */
class SteadyStatePlanTest {
  @TempDir Path tmp;
  PlanFixture.Inputs fx;
  final PlanService service = new PlanService();

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private static String workload(String traffic) {
    return """
        profile: {name: Steady, type: chat}
        model: {source: Qwen/Qwen3-0.6B}
        traffic:
        %s
        """
        .formatted(traffic.indent(2).stripTrailing());
  }

  private JsonNode plan(String workloadYaml, Consumer<PlanOptions.Builder> opts)
      throws IOException {
    PlanOptions.Builder b = fx.options();
    opts.accept(b);
    PlanResult r =
        service.plan(
            fx.request(
                fx.workload("w-" + System.nanoTime() + ".yaml", workloadYaml),
                b.build(),
                PlanFixture.Inputs.question(),
                new ScannerTraceInspector(),
                PlanFixture.Inputs.OFFLINE));
    JsonNode plan = PlanJson.parse(Files.readAllBytes(r.planPath()));
    assertThat(SchemaValidator.bundled("benchmark-plan.schema.json").validate(plan))
        .as("the written plan validates against schemas/benchmark-plan.schema.json")
        .isEmpty();
    return plan;
  }

  private List<Blocker> blockers(String workloadYaml, Consumer<PlanOptions.Builder> opts) {
    PlanBlockedException e =
        catchThrowableOfType(PlanBlockedException.class, () -> plan(workloadYaml, opts));
    assertThat(e).as("expected blockers").isNotNull();
    return e.blockers();
  }

  private static List<String> rules(JsonNode plan) {
    List<String> out = new ArrayList<>();
    plan.path("rules_applied")
        .forEach(
            d ->
                out.add(
                    d.path("rule").asString()
                        + " | "
                        + d.path("decision").asString()
                        + " | "
                        + d.path("reason").asString()));
    return out;
  }

  private static JsonNode point(JsonNode plan, int i) {
    return plan.at("/load_generator/points/" + i);
  }

  @Test
  @DisplayName(
      "concurrency 2048 with 1000 requests is STEADY_STATE_SHORT naming the field, the minimum and the fix")
  void shortBlocked() {
    List<Blocker> b =
        blockers(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        concurrency: [2048]
        request_count: 1000"""),
            o -> {});
    assertThat(b).extracting(Blocker::code).containsExactly("STEADY_STATE_SHORT");
    assertThat(b.get(0).message())
        .contains("/traffic/request_count")
        .contains("1000")
        .contains("concurrency 2048 (plans 1000, minimum 16384)")
        .contains("raise traffic.request_count to at least 16384")
        .contains("--allow-short-points")
        .endsWith("(rule: benchmarking/steady-state.md)");
    assertThat(fx.expRoot.resolve("inputs/benchmark-plans")).doesNotExist();
  }

  @Test
  @DisplayName("a warmup below C at a point is STEADY_STATE_SHORT naming --warmup-requests")
  void warmupShort() {
    List<Blocker> b =
        blockers(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        concurrency: [4, 64]
        request_count: 1000"""),
            o -> o.warmupRequests(8));
    assertThat(b).extracting(Blocker::code).containsExactly("STEADY_STATE_SHORT");
    assertThat(b.get(0).message())
        .startsWith("--warmup-requests 8 is below")
        .contains("concurrency 64 (minimum 64)")
        .doesNotContain("concurrency 4 ")
        .contains("raise --warmup-requests to at least 64");
  }

  @Test
  @DisplayName(
      "--allow-short-points writes the plan and records the exception: warning, rules_applied, per-point marker")
  void shortAccepted() throws IOException {
    JsonNode plan =
        plan(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        concurrency: [64, 2048]
        request_count: 1000"""),
            o -> o.allowShortPoints(true));
    assertThat(point(plan, 0).at("/steady_state/status").asString()).isEqualTo("meets");
    JsonNode ss = point(plan, 1).path("steady_state");
    assertThat(ss.path("status").asString()).isEqualTo("short_accepted");
    assertThat(ss.path("minimum_requests").asLong()).isEqualTo(16384);
    assertThat(ss.path("planned_requests").asLong()).isEqualTo(1000);
    assertThat(plan.path("warnings").toString())
        .contains("accepted with --allow-short-points")
        .contains("concurrency 2048");
    assertThat(rules(plan))
        .anyMatch(
            r ->
                r.startsWith(
                    "benchmarking/steady-state.md | "
                        + "load_generator.points[*].steady_state = short_accepted"));
    assertThat(
            plan.at("/provenance/invocation").isNull()
                || plan.at("/provenance/invocation").isMissingNode())
        .isTrue();
  }

  @Test
  @DisplayName("the defaults meet the rule: max(1000, 10 x C) measured and C warmup at every point")
  void defaultsMeet() throws IOException {
    JsonNode plan =
        plan(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        concurrency: [256, 1024, 4096]"""),
            o -> {});
    JsonNode points = plan.at("/load_generator/points");
    assertThat(points).hasSize(3);
    points.forEach(
        p ->
            assertThat(p.at("/steady_state/status").asString())
                .as(p.toString())
                .isEqualTo("meets"));
    assertThat(plan.at("/load_generator/engine").asString()).isEqualTo("aiperf-operator");
    assertThat(point(plan, 2).path("workers").asInt()).isEqualTo(41);
    assertThat(point(plan, 2).path("connections_per_worker").asInt()).isEqualTo(100);
    assertThat(plan.path("series_identity").toString()).contains("/load_generator/engine");
  }

  @Test
  @DisplayName(
      "where the measurement limit caps a point below 8 x C the limit wins: time_bounded with a warning, not blocked")
  void timeBounded() throws IOException {
    // smoke request: TTFT 48.9 ms + 5.52 ms/token -> an OSL of 4000 takes >= 22.1 s; 120 s admits 5
    // waves
    JsonNode plan =
        plan(
            workload(
                """
        input_tokens: 128
        output_tokens: 4000
        concurrency: [4]
        duration_s: 120"""),
            o -> o.measurementLimitS(120));
    JsonNode ss = point(plan, 0).path("steady_state");
    assertThat(ss.path("status").asString()).isEqualTo("time_bounded");
    assertThat(ss.path("minimum_requests").asLong()).isEqualTo(32);
    assertThat(ss.path("planned_requests").asLong()).isEqualTo(20);
    assertThat(plan.path("warnings").toString())
        .contains("the limit wins")
        .contains("concurrency 4 (at most 20 of 32)");
  }

  @Test
  @DisplayName(
      "a duration too short for 8 x C (within the limit) is STEADY_STATE_SHORT naming traffic.duration_s")
  void durationShort() {
    List<Blocker> b =
        blockers(
            workload(
                """
        input_tokens: 128
        output_tokens: 4000
        concurrency: [4]
        duration_s: 60"""),
            o -> {});
    assertThat(b).extracting(Blocker::code).containsExactly("STEADY_STATE_SHORT");
    assertThat(b.get(0).message())
        .contains("traffic.duration_s 60 s")
        .contains("raise traffic.duration_s to at least 178 s");
  }

  @Test
  @DisplayName(
      "open loop: 8 x rate x estimated latency; rates 10, 500, 5000 size 1, 10 and 100 workers (operator)")
  void openLoop() throws IOException {
    JsonNode plan =
        plan(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        request_rate: [10, 500, 5000]
        duration_s: 60"""),
            o -> {});
    assertThat(plan.at("/load_generator/engine").asString()).isEqualTo("aiperf-operator");
    assertThat(plan.at("/load_generator/requested").asString()).isEqualTo("auto");
    List<Integer> workers = new ArrayList<>();
    plan.at("/load_generator/points").forEach(p -> workers.add(p.path("workers").asInt()));
    assertThat(workers).containsExactly(1, 10, 100);
    // request >= 750.5 ms: 8 x 10 x 0.7505 s = 60.04 -> 61
    assertThat(point(plan, 0).at("/steady_state/minimum_requests").asLong()).isEqualTo(61);
    assertThat(point(plan, 0).at("/steady_state/planned_requests").asLong()).isEqualTo(600);
    assertThat(point(plan, 0).at("/steady_state/status").asString()).isEqualTo("meets");
    assertThat(point(plan, 0).path("load_point").asString()).isEqualTo("request_rate=10");
  }

  @Test
  @DisplayName(
      "open loop below 8 x rate x latency is STEADY_STATE_SHORT naming traffic.request_count")
  void openLoopShort() {
    List<Blocker> b =
        blockers(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        request_rate: [10]
        request_count: 20"""),
            o -> {});
    assertThat(b).extracting(Blocker::code).containsExactly("STEADY_STATE_SHORT");
    assertThat(b.get(0).message()).contains("request rate 10 (plans 20, minimum 61)");
  }

  @Test
  @DisplayName("--engine job on a load past one pod blocks with ENGINE_NEEDS_OPERATOR")
  void engineJobBlocked() {
    List<Blocker> b =
        blockers(
            workload(
                """
        input_tokens: 128
        output_tokens: 128
        concurrency: [4096]
        request_count: 40960"""),
            o -> o.engine(EngineRequest.JOB));
    assertThat(b).extracting(Blocker::code).containsExactly("ENGINE_NEEDS_OPERATOR");
    assertThat(b.get(0).message()).contains("aiperf-operator");
  }

  @Test
  @DisplayName("a fixed-schedule replay is exempt, sized by its mean arrival rate")
  void replayExempt() throws IOException {
    Files.createDirectories(tmp.resolve("traces"));
    Files.copy(PlanTraceTest.EXAMPLE_TRACE, tmp.resolve("traces/t.jsonl"));
    JsonNode plan =
        plan(
            PlanTraceTest.TRACE_WORKLOAD + "artifacts: {supporting_traces: [traces/t.jsonl]}\n",
            o -> {});
    JsonNode p = point(plan, 0);
    assertThat(p.path("load_point").asString()).isEqualTo("fixed_schedule");
    assertThat(p.at("/steady_state/status").asString()).isEqualTo("exempt");
    assertThat(p.path("workers").asInt()).isEqualTo(1);
    assertThat(plan.at("/load_generator/engine").asString()).isEqualTo("job");
    assertThat(rules(plan)).anyMatch(r -> r.contains("steady state: exempt"));
  }
}
