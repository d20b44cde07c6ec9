package dev.benchplan.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.export.AiperfExport;
import dev.benchplan.aiperf.export.AiperfExportReader;
import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.gate.ConstraintReader;
import dev.benchplan.gate.ConstraintResult;
import dev.benchplan.gate.ConstraintSet;
import dev.benchplan.gate.GateEvaluator;
import dev.benchplan.gate.GateOptions;
import dev.benchplan.gate.Status;
import dev.benchplan.gate.Verdict;
import dev.benchplan.json.Json;
import dev.benchplan.rules.GateTolerance;
import dev.benchplan.rules.PlanBlockedException;
import dev.benchplan.testing.PlanFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A user's own objective is gated exactly (issue 36, item 1): the plan records every gate's
 * tolerance, the verdict shows threshold, tolerance and effective threshold, and an older plan
 * without the field is judged with 10% as it was run, saying so.
 */
class PlanGateToleranceTest {
  @TempDir Path tmp;
  PlanFixture.Inputs fx;

  /** The real export's TTFT p99: 34.344268879999994 ms. */
  static final String TTFT_P99_MAX_32 =
      """
      profile: {name: Support Chat, type: chat}
      model: {source: Qwen/Qwen3-0.6B}
      traffic: {input_tokens: 512, output_tokens: 128, concurrency: [16], request_count: 1000}
      objectives:
      %s  custom_slos:
          - {metric: time_to_first_token, stat: p99, max: 32%s}
      """;

  @BeforeEach
  void setUp() {
    fx = PlanFixture.Inputs.create(tmp);
  }

  private JsonNode gates(String objectivesExtra, String sloExtra) {
    return gates(workload(objectivesExtra, sloExtra));
  }

  private Path workload(String objectivesExtra, String sloExtra) {
    return fx.workload(
        "w-" + System.nanoTime() + ".yaml", TTFT_P99_MAX_32.formatted(objectivesExtra, sloExtra));
  }

  private JsonNode gates(Path workload) {
    PlanResult r = new PlanService().plan(fx.request(workload, fx.options().build()));
    return PlanJson.sectionTree(r.plan().objectives().gates());
  }

  /** The gates as written, read back typed as run and verify read a plan's gates. */
  private static Verdict judge(JsonNode written) {
    List<BenchmarkPlan.Gate> gates =
        Json.JSON.readerForListOf(BenchmarkPlan.Gate.class).readValue(written);
    AiperfExport e = AiperfExportReader.read(ExportVariants.real());
    ConstraintSet set = ConstraintReader.fromPlanGates(gates, "plan.json");
    return GateEvaluator.evaluate(e, set, ConstraintReader.planGateOptions(gates));
  }

  @Test
  @DisplayName(
      "custom_slos p99 max 32 with no tolerance given: the gate records 0 and 34.34 ms fails (no hidden 10%)")
  void userObjectiveIsExact() {
    JsonNode gates = gates("", "");
    assertThat(gates.get(0).path("name").asString()).isEqualTo("inference-ttft-p99");
    assertThat(gates.get(0).path("tolerance").decimalValue()).isEqualByComparingTo("0");
    Verdict v = judge(gates);
    assertThat(v.verdict()).isEqualTo(Status.FAIL);
    ConstraintResult c = v.constraints().get(0);
    assertThat(c.threshold()).isEqualByComparingTo("32");
    assertThat(c.tolerance()).isEqualByComparingTo("0");
    assertThat(c.effectiveThreshold()).isEqualByComparingTo("32");
    assertThat(c.message())
        .isEqualTo(
            "inference-ttft-p99: time_to_first_token p99 34.3443 ms is above 32 (no tolerance)");
    assertThat(v.warnings()).doesNotContain(GateTolerance.LEGACY_NOTE);
  }

  @Test
  @DisplayName("objectives.gate_tolerance 0.10 is recorded on the gate and applied: 34.34 <= 35.2")
  void workloadTolerance() {
    JsonNode gates = gates("  gate_tolerance: 0.10\n", "");
    assertThat(gates.get(0).path("tolerance").decimalValue()).isEqualByComparingTo("0.10");
    Verdict v = judge(gates);
    assertThat(v.verdict()).isEqualTo(Status.PASS);
    assertThat(v.constraints().get(0).effectiveThreshold()).isEqualByComparingTo("35.2");
    assertThat(v.constraints().get(0).message()).endsWith("<= 35.2 (32 +10%)");
  }

  @Test
  @DisplayName(
      "an SLO's own tolerance overrides objectives.gate_tolerance: 0.05 -> 33.6, and 34.34 fails")
  void sloToleranceOverrides() {
    JsonNode gates = gates("  gate_tolerance: 0.10\n", ", tolerance: 0.05");
    assertThat(gates.get(0).path("tolerance").decimalValue()).isEqualByComparingTo("0.05");
    Verdict v = judge(gates);
    assertThat(v.verdict()).isEqualTo(Status.FAIL);
    assertThat(v.constraints().get(0).effectiveThreshold()).isEqualByComparingTo("33.6");
  }

  @Test
  @DisplayName(
      "a plan written before gates recorded a tolerance: judged with 0.10 as it was run, and the verdict says so")
  void legacyPlan() {
    JsonNode gates = gates("", "");
    ((ObjectNode) gates.get(0)).remove("tolerance");
    Verdict v = judge(gates);
    assertThat(v.verdict()).isEqualTo(Status.PASS);
    assertThat(v.constraints().get(0).tolerance()).isEqualByComparingTo("0.10");
    assertThat(v.constraints().get(0).effectiveThreshold()).isEqualByComparingTo("35.2");
    assertThat(v.warnings()).containsOnlyOnce(GateTolerance.LEGACY_NOTE);
    assertThat(v.document().toString()).contains("written before gates recorded one");
  }

  @Test
  @DisplayName("a plan gate's tolerance outside [0, 1) is invalid input naming the JSON pointer")
  void badPlanTolerance() {
    JsonNode gates = gates("", "");
    ((ObjectNode) gates.get(0)).put("tolerance", 1.5);
    assertThatThrownBy(() -> judge(gates))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "plan.json: /objectives/gates/0/tolerance: expected a fraction in [0,"
                + " 1) such as 0 or 0.05, got 1.5");
  }

  @Test
  @DisplayName("a workload gate_tolerance of 1 is a schema blocker naming the pointer")
  void badWorkloadTolerance() {
    Path workload = workload("  gate_tolerance: 1\n", "");
    assertThatThrownBy(() -> gates(workload))
        .isInstanceOf(PlanBlockedException.class)
        .hasMessage(
            "blocker WORKLOAD_SCHEMA: user workload "
                + workload
                + ":5 /objectives/gate_tolerance: must have an exclusive maximum value of 1"
                + " [exclusiveMaximum] (schema user-workload.schema.json) (rule:"
                + " execution/user-workload.md)");
  }

  @Test
  @DisplayName("AICR's flags and overlays keep AICR's 10% default (gate --tolerance as before)")
  void aicrKeepsTenPercent() {
    AiperfExport e = AiperfExportReader.read(ExportVariants.real());
    Verdict v =
        GateEvaluator.evaluate(
            e,
            ConstraintReader.fromFlags(null, new java.math.BigDecimal("32")),
            GateOptions.defaults());
    assertThat(v.verdict()).isEqualTo(Status.PASS);
    assertThat(v.constraints().get(0).tolerance()).isEqualByComparingTo("0.10");
    assertThat(v.warnings()).doesNotContain(GateTolerance.LEGACY_NOTE);
  }
}
