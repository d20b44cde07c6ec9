package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import dev.benchplan.testing.SharedData;
import dev.benchplan.workload.ScannerTraceInspector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * user_trace plans with the real trace scanner, on the project's trace and real Mooncake traces.
 */
class PlanTraceTest {
  static final Path EXAMPLE_TRACE = Path.of("examples/traces/example_trace.jsonl").toAbsolutePath();
  static final String TRACE_WORKLOAD =
      """
      profile: {name: Agent Replay, type: agentic}
      objectives:
        custom_slos:
          - {metric: time_to_first_token, stat: p95, max: 2000}
          - {metric: inter_token_latency, stat: p95, max: 25}
      """;

  /** The trace workload with a raised error-rate limit and its rationale. */
  static final String TOLERANT_WORKLOAD =
      """
      profile: {name: Agent Replay, type: agentic}
      objectives:
        error_rate_max: 0.08
        error_rate_max_rationale: the over-context rows are known rejects; we measure the rest
        custom_slos:
          - {metric: time_to_first_token, stat: p95, max: 2000}
          - {metric: inter_token_latency, stat: p95, max: 25}
      """;

  @TempDir Path tmp;
  PlanFixture.Inputs fx;
  final PlanService service = new PlanService();

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private PlanResult plan(String workload, Consumer<PlanOptions.Builder> opts) {
    PlanOptions.Builder b = fx.options();
    opts.accept(b);
    return service.plan(
        fx.request(
            fx.workload("w-" + System.nanoTime() + ".yaml", workload),
            b.build(),
            PlanFixture.Inputs.question(),
            new ScannerTraceInspector(),
            PlanFixture.Inputs.OFFLINE));
  }

  private List<String> blocked(String workload, Consumer<PlanOptions.Builder> opts) {
    try {
      plan(workload, opts);
    } catch (PlanBlockedException e) {
      assertThat(fx.expRoot).doesNotExist();
      return e.codes();
    }
    throw new AssertionError("expected blockers");
  }

  private PlanBlockedException blockedException(String workload, Consumer<PlanOptions.Builder> o) {
    try {
      plan(workload, o);
    } catch (PlanBlockedException e) {
      return e;
    }
    throw new AssertionError("expected blockers");
  }

  private static JsonNode read(Path p) throws IOException {
    return PlanJson.parse(Files.readAllBytes(p));
  }

  @Test
  @DisplayName(
      "a trace listed in the workload (relative to it) -> user_trace, fixed schedule, full report")
  void exampleTrace() throws IOException {
    Files.createDirectories(tmp.resolve("traces"));
    Files.copy(EXAMPLE_TRACE, tmp.resolve("traces/t.jsonl"));
    PlanResult r =
        plan(TRACE_WORKLOAD + "artifacts: {supporting_traces: [traces/t.jsonl]}\n", b -> {});
    assertThat(r.workloadSource()).isEqualTo("user_trace");
    JsonNode plan = read(r.planPath());
    assertThat(SchemaValidator.bundled("benchmark-plan.schema.json").validate(plan)).isEmpty();
    JsonNode trace = plan.at("/workload/trace");
    // recorded relative to the experiment root (location independence), resolving to the file
    assertThat(trace.path("path").asString()).doesNotStartWith("/");
    assertThat(PlanPaths.resolve(PlanPaths.expRootOf(r.planPath()), trace.path("path").asString()))
        .isEqualTo(tmp.resolve("traces/t.jsonl").toAbsolutePath().normalize());
    assertThat(trace.path("sha256").asString()).isEqualTo(Sha256.ofFile(EXAMPLE_TRACE));
    assertThat(trace.path("rows").asLong()).isEqualTo(200);
    assertThat(trace.at("/timestamp_ms/span").asLong()).isEqualTo(587972);
    assertThat(trace.at("/input_length/p99").isNumber()).isTrue();
    assertThat(trace.at("/hash_ids/unique_blocks").asLong()).isEqualTo(453);
    assertThat(trace.at("/context/limit").asLong()).isEqualTo(40960);
    assertThat(trace.path("window").isNull()).isTrue();
    assertThat(plan.at("/workload/trace_origin").asString())
        .isEqualTo("/artifacts/supporting_traces/0");
    assertThat(plan.at("/experiment/type").asString()).isEqualTo("trace_fidelity");
    assertThat(plan.at("/experiment/measurement_mode").asString()).isEqualTo("fixed_schedule");
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(200);
    assertThat(plan.at("/experiment/concurrency").isNull()).isTrue();
    assertThat(plan.at("/experiment/duration_s").isNull()).isTrue();
    assertThat(plan.at("/experiment/limit_control").asString()).isEqualTo("trace_span");
    assertThat(plan.at("/experiment/request_timeout_s").asInt()).isEqualTo(600);
    assertThat(plan.at("/experiment/warmup_requests").asInt()).isZero();
    assertThat(plan.at("/workload/synthetic").isMissingNode()).isTrue();
    assertThat(plan.at("/objectives/goodput/time_to_first_token").decimalValue())
        .isEqualByComparingTo("2000");
    // p95 on 200 requests: 10 beyond -> no warning, recorded
    assertThat(plan.at("/samples/0/measured_requests").asLong()).isEqualTo(200);
  }

  @Test
  @DisplayName(
      "the real 59-minute Mooncake conversation trace cannot replay in 30 minutes: blocker")
  void conversationTraceTooLong() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    PlanBlockedException e = blockedException(TRACE_WORKLOAD, b -> b.trace(trace));
    // both at once: the window that fixes the length must also fix the error rate
    assertThat(e.codes()).containsExactly("TRACE_EXCEEDS_LIMIT", "TRACE_ERROR_RATE_EXCEEDS_LIMIT");
    assertThat(e.blockers().get(1).message()).contains("574 of 12031 rows of the trace (4.77%)");
    assertThat(e.blockers().get(0).message())
        .contains("58.9 min (3536999 ms)")
        .contains("--trace-window START_MS:END_MS")
        .contains("never silently truncated")
        .contains("benchmarking/measurement-limit.md");
  }

  @Test
  @DisplayName(
      "the real 17-minute Mooncake synthetic trace fits: every row replayed (its 7.69%"
          + " over-context rows need a raised error-rate limit)")
  void syntheticTraceFits() throws IOException {
    Path trace = SharedData.require("mooncake/synthetic_trace.jsonl");
    assertThat(blocked(TRACE_WORKLOAD, b -> b.trace(trace)))
        .containsExactly("TRACE_ERROR_RATE_EXCEEDS_LIMIT");
    JsonNode plan = read(plan(TOLERANT_WORKLOAD, b -> b.trace(trace)).planPath());
    assertThat(plan.at("/workload/source").asString()).isEqualTo("user_trace");
    assertThat(plan.at("/workload/trace_origin").asString()).isEqualTo("--trace");
    assertThat(plan.at("/workload/trace/rows").asLong()).isEqualTo(3993);
    assertThat(plan.at("/workload/trace/sha256").asString())
        .isEqualTo("bd070915a98fc0ed264d7cfef2ce746002eb3076a695ec31ba2674c0111ec131");
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(3993);
    // 1022.025 s span -> 1023 s; timeout min(600, 1800 - 1023)
    assertThat(plan.at("/experiment/request_timeout_s").asInt()).isEqualTo(600);
    // rows over the 40,960-token context are listed, never removed
    assertThat(plan.at("/workload/trace/context/rows_over_limit").asLong()).isEqualTo(307);
    assertThat(plan.at("/workload/trace/rows").asLong()).isEqualTo(3993);
    assertThat(plan.at("/warnings").toString())
        .contains(
            "307 of 3993 rows of the trace (7.69%)"
                + " exceed the served max_context_length 40960");
  }

  @Test
  @DisplayName(
      "issue 20: the window 0:1500000 replays 4,673 rows, 265 over the context (not the"
          + " whole trace's 574): 5.67% > the run's 1% is a blocker naming the fixes")
  void windowErrorRateBlocker() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    PlanBlockedException e =
        blockedException(
            TRACE_WORKLOAD, b -> b.trace(trace).traceWindow(new TraceWindow(0, 1_500_000)));
    assertThat(e.codes()).containsExactly("TRACE_ERROR_RATE_EXCEEDS_LIMIT");
    assertThat(e.blockers().get(0).message())
        .contains(
            "265 of 4673 rows in the window 0:1500000 (5.67%) exceed the served"
                + " max_context_length 40960")
        .contains("the whole trace has 574 of 12031")
        .contains("above the run's error-rate limit 1%")
        .contains("--trace-window")
        .contains("trace inspect TRACE --window START_MS:END_MS")
        .contains("never filters")
        .contains("objectives.error_rate_max >= 0.0568")
        .contains("objectives.error_rate_max_rationale")
        .contains("benchmarking/expected-errors.md");
  }

  @Test
  @DisplayName(
      "an explicit window with a raised, justified error-rate limit: recorded as a"
          + " transformation; the window's figures beside the whole trace's; the run uses the limit")
  void explicitWindow() throws IOException {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    PlanResult r =
        plan(
            TOLERANT_WORKLOAD.replace("0.08", "0.06"),
            b -> b.trace(trace).traceWindow(new TraceWindow(0, 1_500_000)));
    JsonNode plan = read(r.planPath());
    assertThat(SchemaValidator.bundled("benchmark-plan.schema.json").validate(plan)).isEmpty();
    assertThat(plan.at("/workload/trace/window/rows").asLong()).isEqualTo(4673);
    assertThat(plan.at("/workload/trace/window/context/rows_over_limit").asLong()).isEqualTo(265);
    assertThat(plan.at("/workload/trace/context/rows_over_limit").asLong()).isEqualTo(574);
    assertThat(plan.at("/workload/trace/window/start_ms").asLong()).isZero();
    assertThat(plan.at("/workload/trace/window/end_ms").asLong()).isEqualTo(1_500_000);
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(4673);
    assertThat(plan.at("/samples/0/measured_requests").asLong()).isEqualTo(4673);
    JsonNode t = plan.at("/workload/transformations/0");
    assertThat(t.path("type").asString()).isEqualTo("replay_window");
    assertThat(t.path("rows_kept").asLong()).isEqualTo(4673);
    assertThat(t.path("rows_total").asLong()).isEqualTo(12031);
    assertThat(plan.at("/experiment/request_timeout_s").asInt()).isEqualTo(300);
    assertThat(plan.at("/rules_applied").toString())
        .contains("replay_window 0:1500000")
        .contains("objectives.error_rate_max = 0.06")
        .contains("the over-context rows are known rejects; we measure the rest")
        .contains("workload.trace expected errors: 265 of 4673 rows (5.67%)");
    assertThat(r.warnings())
        .anyMatch(
            w ->
                w.contains("265 of 4673 rows in the window 0:1500000" + " (5.67%)")
                    && w.contains("574 of 12031")
                    && w.contains("never removed"));
    // the run's gate reads the plan's error_rate gate: the raised limit
    assertThat(
            dev.benchplan.gate.ConstraintReader.planGateOptions(r.plan().objectives().gates())
                .maxErrorRate())
        .isEqualByComparingTo("0.06");
  }

  @Test
  @DisplayName(
      "a raised error-rate limit without a rationale, or one still below the predicted"
          + " rate, is a blocker")
  void raisedLimit() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    String noRationale = TOLERANT_WORKLOAD.replaceAll("(?m)^.*error_rate_max_rationale.*\n", "");
    PlanBlockedException e =
        blockedException(
            noRationale, b -> b.trace(trace).traceWindow(new TraceWindow(0, 1_500_000)));
    assertThat(e.codes()).containsExactly("ERROR_RATE_RATIONALE_MISSING");
    assertThat(e.blockers().get(0).message())
        .contains("/objectives/error_rate_max")
        .contains("8% is above the run's default 1%");
    assertThat(
            blocked(
                TOLERANT_WORKLOAD.replace("0.08", "0.05"),
                b -> b.trace(trace).traceWindow(new TraceWindow(0, 1_500_000))))
        .containsExactly("TRACE_ERROR_RATE_EXCEEDS_LIMIT");
  }

  @Test
  @DisplayName(
      "any workload: an error-rate limit above 1% needs its rationale, which the plan"
          + " records; at or below 1% none is asked")
  void rationaleForAnyWorkload() throws IOException {
    String raised =
        PlanFixture.Inputs.STATIC_WORKLOAD.replace(
            "objectives:\n", "objectives:\n  error_rate_max: 0.05\n");
    assertThat(raised).contains("error_rate_max: 0.05");
    assertThat(blocked(raised, b -> {})).containsExactly("ERROR_RATE_RATIONALE_MISSING");
    JsonNode plan =
        read(
            plan(
                    raised.replace(
                        "error_rate_max: 0.05\n",
                        "error_rate_max: 0.05\n  error_rate_max_rationale: retries are cheap here\n"),
                    b -> {})
                .planPath());
    assertThat(plan.at("/rules_applied").toString())
        .contains("objectives.error_rate_max = 0.05")
        .contains("retries are cheap here");
    assertThat(
            plan(
                    PlanFixture.Inputs.STATIC_WORKLOAD.replace(
                        "objectives:\n", "objectives:\n  error_rate_max: 0.01\n"),
                    b -> {})
                .planPath())
        .exists();
  }

  @Test
  @DisplayName("rows over the context below the limit: a warning with the figure, rows kept")
  void overContextBelowLimit() throws IOException {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      rows.append("{\"timestamp\": ")
          .append(i * 100)
          .append(", \"input_length\": ")
          .append(i == 57 ? 50000 : 600)
          .append(", \"output_length\": 20}\n");
    }
    Path trace = Files.writeString(tmp.resolve("one-long.jsonl"), rows);
    PlanResult r = plan(TRACE_WORKLOAD, b -> b.trace(trace));
    assertThat(r.warnings())
        .anyMatch(
            w ->
                w.contains(
                        "1 of 200 rows of the trace (0.5%) exceed"
                            + " the served max_context_length 40960 (first at lines [58])")
                    && w.contains("expected error rate of 0.5% of the run's 1% limit"));
    assertThat(read(r.planPath()).at("/experiment/request_count").asLong()).isEqualTo(200);
  }

  @Test
  @DisplayName(
      "issue 15: a trace whose timestamps go backwards is not replayed on a fixed" + " schedule")
  void timestampsBackwards() throws IOException {
    Path trace =
        Files.writeString(
            tmp.resolve("backwards.jsonl"),
            """
        {"timestamp": 0, "input_length": 600, "output_length": 20}
        {"timestamp": 5000, "input_length": 600, "output_length": 20}
        {"timestamp": 3000, "input_length": 600, "output_length": 20}
        {"timestamp": 6000, "input_length": 600, "output_length": 20}
        """);
    PlanBlockedException e =
        blockedException("profile: {name: Agent Replay, type: agentic}\n", b -> b.trace(trace));
    assertThat(e.codes()).containsExactly("TRACE_TIMESTAMPS_BACKWARDS");
    assertThat(e.blockers().get(0).message())
        .contains("1 rows have a timestamp smaller than the" + " row before")
        .contains("sort_by(.timestamp)")
        .contains("measurement-mode.md");
    assertThat(fx.expRoot).doesNotExist();
  }

  @Test
  @DisplayName("a window with no rows, or one that is still too long, is a blocker")
  void windowBlockers() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    assertThat(
            blocked(
                TRACE_WORKLOAD,
                b -> b.trace(trace).traceWindow(new TraceWindow(9_000_000, 9_500_000))))
        .containsExactly("TRACE_WINDOW_EMPTY");
    assertThat(
            blocked(TRACE_WORKLOAD, b -> b.trace(trace).traceWindow(new TraceWindow(0, 2_000_000))))
        .containsExactly("TRACE_EXCEEDS_LIMIT", "TRACE_ERROR_RATE_EXCEEDS_LIMIT");
    assertThat(
            blocked(PlanFixture.Inputs.STATIC_WORKLOAD, b -> b.traceWindow(new TraceWindow(0, 10))))
        .contains("TRACE_WINDOW_INVALID");
  }

  @Test
  @DisplayName("an invalid trace (AIPerf's own sample, block rule broken on line 3) is a blocker")
  void invalidTrace() {
    Path trace = SharedData.require("aiperf/production_trace.jsonl");
    PlanBlockedException e = blockedException(TRACE_WORKLOAD, b -> b.trace(trace));
    assertThat(e.codes()).containsExactly("TRACE_INVALID");
    assertThat(e.blockers().get(0).message())
        .contains("line 3 hash_ids")
        .contains("never silently dropped");
  }

  @Test
  @DisplayName(
      "a missing trace, two listed traces, or a trace with another experiment are blockers")
  void traceBlockers() throws IOException {
    assertThat(blocked(TRACE_WORKLOAD + "artifacts: {supporting_traces: [nope.jsonl]}\n", b -> {}))
        .containsExactly("TRACE_MISSING");
    assertThat(
            blocked(
                TRACE_WORKLOAD + "artifacts: {supporting_traces: [a.jsonl, b.jsonl]}\n", b -> {}))
        .containsExactly("TRACE_AMBIGUOUS");
    assertThat(
            blocked(
                TRACE_WORKLOAD, b -> b.trace(EXAMPLE_TRACE).experiment(ExperimentType.capacity)))
        .containsExactly("EXPERIMENT_SOURCE_MISMATCH");
    assertThat(
            blocked(
                PlanFixture.Inputs.STATIC_WORKLOAD,
                b -> b.experiment(ExperimentType.trace_fidelity)))
        .containsExactly("EXPERIMENT_SOURCE_MISMATCH");
    // --trace wins over two listed traces
    assertThat(
            plan(
                    TRACE_WORKLOAD + "artifacts: {supporting_traces: [a.jsonl, b.jsonl]}\n",
                    b -> b.trace(EXAMPLE_TRACE))
                .workloadSource())
        .isEqualTo("user_trace");
  }

  @Test
  @DisplayName("a trace whose rows lack timestamps cannot be replayed on its schedule")
  void noTimestamps() throws IOException {
    Path trace = tmp.resolve("untimed.jsonl");
    Files.writeString(
        trace,
        """
        {"input_length": 600, "output_length": 20, "hash_ids": [1, 2]}
        {"input_length": 100, "output_length": 20, "hash_ids": [3]}
        """);
    assertThat(blocked(TRACE_WORKLOAD, b -> b.trace(trace))).containsExactly("TRACE_NO_TIMESTAMPS");
  }

  @Test
  @DisplayName(
      "rows over the served context are listed and kept: 10% blocks at the 1% default,"
          + " and is a warning under a justified 10% limit")
  void rowsOverContext() throws IOException {
    fx.writeLedger(
        Sha256.ofFile(fx.deployDir.resolve("dgd.yaml")),
        Sha256.ofFile(fx.deployDir.resolve("smoke_test_artifact.json")),
        true);
    Path ledger = fx.ledger;
    Files.writeString(
        ledger,
        Files.readString(ledger).replace("max_context_length: 40960", "max_context_length: 6000"));
    assertThat(blocked(TRACE_WORKLOAD, b -> b.trace(EXAMPLE_TRACE)))
        .containsExactly("TRACE_ERROR_RATE_EXCEEDS_LIMIT");
    PlanResult r = plan(TOLERANT_WORKLOAD.replace("0.08", "0.1"), b -> b.trace(EXAMPLE_TRACE));
    JsonNode plan = read(r.planPath());
    assertThat(plan.at("/workload/trace/context/rows_over_limit").asLong()).isEqualTo(20);
    assertThat(plan.at("/workload/trace/context/first_over_limit_lines").size()).isPositive();
    assertThat(plan.at("/experiment/request_count").asLong()).isEqualTo(200);
    assertThat(r.warnings())
        .anyMatch(
            w ->
                w.contains(
                        "20 of 200 rows of the trace (10%) exceed"
                            + " the served max_context_length 6000")
                    && w.contains("never removed"));
  }

  @Test
  @DisplayName("reuse of a trace series with another window is a series boundary")
  void traceReuseBoundary() {
    Path trace = SharedData.require("mooncake/conversation_trace.jsonl");
    PlanResult first =
        plan(TOLERANT_WORKLOAD, b -> b.trace(trace).traceWindow(new TraceWindow(0, 1_500_000)));
    PlanBlockedException e =
        blockedException(
            TOLERANT_WORKLOAD,
            b ->
                b.trace(trace)
                    .traceWindow(new TraceWindow(0, 1_400_000))
                    .reuse(new ReuseRequest(first.planPath(), first.sha256())));
    assertThat(e.codes()).containsExactly("SERIES_BOUNDARY");
    assertThat(e.blockers().get(0).message())
        .contains("/workload/trace/window")
        .contains("/workload/transformations")
        .contains("/experiment/request_count");
  }
}
