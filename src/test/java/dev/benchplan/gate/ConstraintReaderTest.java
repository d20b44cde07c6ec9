package dev.benchplan.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.plan.BenchmarkPlan;
import dev.benchplan.testing.SharedData;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConstraintReaderTest {
  static final String OVERLAY = "aicr/pr641/recipes/overlays/h100-eks-ubuntu-inference-dynamo.yaml";

  @TempDir Path tmp;

  /** The known inference-* names, and the way past them, as every unknown name is told. */
  static final String KNOWN_NAMES =
      "expected one of inference-throughput, inference-ttft-p99,"
          + " inference-throughput-per-gpu, inference-model,"
          + " inference-concurrency-per-gpu, inference-routing-mode,"
          + " inference-model-cache-storage-class, or <metric>-<stat> (e.g."
          + " time_to_first_token-p95); an overlay newer than benchplan:"
          + " --allow-unknown-constraints";

  private Path overlay(String yaml) throws Exception {
    return Files.writeString(tmp.resolve("overlay-" + System.nanoTime() + ".yaml"), yaml);
  }

  private static String seed(String... entries) {
    StringBuilder sb =
        new StringBuilder(
            "validation:\n  performance:\n    checks: [inference-perf]\n    constraints:\n");
    for (String e : entries) {
      sb.append("      - ").append(e).append('\n');
    }
    return sb.toString();
  }

  @Test
  @DisplayName("the real AICR RecipeMetadata overlay gives throughput >= 5000 and TTFT p99 <= 200")
  void realOverlay() {
    Path file = SharedData.require(OVERLAY);
    ConstraintSet set = ConstraintReader.fromOverlay(file);
    assertThat(set.constraints()).hasSize(2);
    Constraint tp = set.constraints().get(0);
    assertThat(tp.name()).isEqualTo("inference-throughput");
    assertThat(tp.metric()).isEqualTo("output_token_throughput");
    assertThat(tp.stat()).isEqualTo("avg");
    assertThat(tp.operator()).isEqualTo(Operator.GE);
    assertThat(tp.threshold()).isEqualByComparingTo("5000");
    assertThat(tp.unit().text()).isEqualTo("tokens/sec");
    assertThat(tp.origin()).isEqualTo(file + ": /spec/validation/performance/constraints/0");
    Constraint ttft = set.constraints().get(1);
    assertThat(ttft.metric()).isEqualTo("time_to_first_token");
    assertThat(ttft.stat()).isEqualTo("p99");
    assertThat(ttft.operator()).isEqualTo(Operator.LE);
    assertThat(ttft.threshold()).isEqualByComparingTo("200");
    assertThat(ttft.unit().text()).isEqualTo("ms");
    // the deployment-phase constraints of the same file are not performance constraints
    assertThat(set.constraints()).noneMatch(c -> c.name().startsWith("Deployment"));
  }

  @Test
  @DisplayName("the seed's top-level validation.performance.constraints form is read the same way")
  void topLevelForm() throws Exception {
    ConstraintSet set =
        ConstraintReader.fromOverlay(
            overlay(
                seed(
                    "{name: inference-throughput, value: \">= 5000\"}",
                    "{name: inference-ttft-p99, value: \"<=200\"}")));
    assertThat(set.constraints())
        .extracting(Constraint::name)
        .containsExactly("inference-throughput", "inference-ttft-p99");
    assertThat(set.constraints().get(1).threshold()).isEqualByComparingTo("200");
    assertThat(set.constraints().get(0).origin())
        .endsWith(": /validation/performance/constraints/0");
  }

  @ParameterizedTest(name = "{0} {1}")
  @DisplayName("throughput takes only >=, TTFT p99 only <= (exit 2, as AICR rejects them)")
  @CsvSource({
    "inference-throughput, '<= 5000', >=, <=",
    "inference-throughput, '> 5000', >=, >",
    "inference-throughput, '== 5000', >=, ==",
    "inference-ttft-p99, '>= 200', <=, >=",
    "inference-ttft-p99, '< 200', <=, <",
  })
  void wrongOperators(String name, String value, String only, String got) throws Exception {
    Path file = overlay(seed("{name: " + name + ", value: \"" + value + "\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(file))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            file
                + ": /validation/performance/constraints/0: "
                + name
                + " takes only "
                + only
                + " (as AICR requires), got "
                + got);
  }

  @ParameterizedTest(name = "value {0}")
  @DisplayName("expressions without an operator or a number are invalid, naming the pointer")
  @CsvSource({"'5000'", "'>= '", "'>= fast'", "'>= 5,000'", "'=> 5000'"})
  void badExpressions(String value) throws Exception {
    Path file = overlay(seed("{name: inference-throughput, value: \"" + value + "\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(file))
        .hasMessage(
            file
                + ": /validation/performance/constraints/0/value: cannot parse '"
                + value
                + "': expected an operator and a number, e.g. \">= 5000\" or \"<= 200\"");
  }

  @Test
  @DisplayName(
      "a value with a unit is converted-comparable; an unknown or mismatched unit is invalid")
  void expressionUnits() throws Exception {
    ConstraintSet set =
        ConstraintReader.fromOverlay(
            overlay(seed("{name: inference-ttft-p99, value: \"<= 0.2 s\"}")));
    assertThat(set.constraints().get(0).unit().text()).isEqualTo("s");
    Path unknown = overlay(seed("{name: inference-ttft-p99, value: \"<= 200 fortnights\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(unknown))
        .hasMessage(
            unknown
                + ": /validation/performance/constraints/0/value: unknown unit"
                + " 'fortnights' in '<= 200 fortnights': expected e.g. ms, s, tokens/sec");
    Path mismatch = overlay(seed("{name: inference-ttft-p99, value: \"<= 200 tokens/sec\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(mismatch))
        .hasMessage(
            mismatch
                + ": /validation/performance/constraints/0: inference-ttft-p99 is"
                + " measured in ms, not in tokens/sec");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @DisplayName(
      "an unknown inference-* name (a typo of a gate) is exit 2 naming the known names and the"
          + " pointer; the gates that remain are not run on")
  @ValueSource(strings = {"inference-ttft-p95", "inference-throughpt", "inference-TTFT-p99"})
  void unknownInferenceNameRefused(String name) throws Exception {
    Path file =
        overlay(
            seed(
                "{name: inference-throughput, value: \">= 5000\"}",
                "{name: nccl-all-reduce-bw, value: \">= 400\"}",
                "{name: " + name + ", value: \"<= 200\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(file))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            file
                + ": /validation/performance/constraints/2/name: unknown inference"
                + " constraint name '"
                + name
                + "': "
                + KNOWN_NAMES)
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    ConstraintSet allowed = ConstraintReader.fromOverlay(file, true);
    assertThat(allowed.constraints())
        .extracting(Constraint::name)
        .containsExactly(ConstraintReader.THROUGHPUT);
    assertThat(allowed.ignored()).hasSize(2).anyMatch(s -> s.startsWith(name + " (unknown"));
  }

  @Test
  @DisplayName(
      "AICR settings and other checks' constraints are ignored and recorded; an unknown inference-* name"
          + " too when allowed")
  void namesOutsideTheGate() throws Exception {
    ConstraintSet set =
        ConstraintReader.fromOverlay(
            overlay(
                seed(
                    "{name: inference-model, value: Qwen/Qwen3-8B}",
                    "{name: inference-concurrency-per-gpu, value: \"256\"}",
                    "{name: nccl-all-reduce-bw, value: \">= 400\"}",
                    "{name: inter_token_latency-p95, value: \"<= 25\"}")));
    assertThat(set.constraints())
        .extracting(Constraint::name)
        .containsExactly("inter_token_latency-p95");
    assertThat(set.constraints().get(0).unit()).isNull();
    assertThat(set.ignored())
        .hasSize(3)
        .anyMatch(s -> s.startsWith("inference-model"))
        .anyMatch(s -> s.startsWith("nccl-all-reduce-bw"));

    Path typo = overlay(seed("{name: inference-throughpt, value: \">= 5000\"}"));
    assertThat(ConstraintReader.fromOverlay(typo, true).ignored())
        .containsExactly(
            "inference-throughpt (unknown inference constraint name: ignored,"
                + " --allow-unknown-constraints)");
    assertThat(ConstraintReader.fromOverlay(typo, true).constraints()).isEmpty();
    Path dup =
        overlay(
            seed(
                "{name: inference-ttft-p99, value: \"<= 1\"}",
                "{name: inference-ttft-p99, value: \"<= 2\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(dup))
        .hasMessage(
            dup
                + ": /validation/performance/constraints/1/name: constraint"
                + " 'inference-ttft-p99' is listed twice");
    Path stat = overlay(seed("{name: time_to_first_token-p42, value: \"<= 1\"}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(stat))
        .hasMessage(
            stat
                + ": /validation/performance/constraints/0: time_to_first_token-p42:"
                + " AIPerf writes no statistic 'p42': expected one of [avg, min, max, p1,"
                + " p5, p10, p25, p50, p75, p90, p95, p99, std, count, sum]");
  }

  @Test
  @DisplayName("an overlay without constraints skips; a file that is not an overlay is invalid")
  void noConstraints() throws Exception {
    ConstraintSet none =
        ConstraintReader.fromOverlay(overlay("validation:\n  deployment:\n    checks: [x]\n"));
    assertThat(none.isEmpty()).isTrue();
    assertThat(none.source()).contains("no /validation/performance/constraints");
    Path dgd =
        overlay(
            "apiVersion: nvidia.com/v1alpha1\nkind: DynamoGraphDeployment\nspec:\n  services: {}\n");
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(dgd))
        .hasMessage(
            dgd
                + ": /: not an AICR overlay: expected"
                + " spec.validation.performance.constraints (RecipeMetadata) or"
                + " validation.performance.constraints");
    Path notList = overlay("validation:\n  performance:\n    constraints: {a: b}\n");
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(notList))
        .hasMessage(
            notList
                + ": /validation/performance/constraints: expected a list of {name,"
                + " value}, found an object");
    Path badYaml = overlay("validation:\n  performance: [\n");
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(badYaml))
        .hasMessage(
            "constraints overlay "
                + badYaml
                + ":3:1: not valid YAML: expected the node content, but found '...'"
                + " (while parsing a flow node that starts at line 3, column 1)");
    Path numberValue = overlay(seed("{name: inference-throughput, value: 5000}"));
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(numberValue))
        .hasMessage(
            numberValue
                + ": /validation/performance/constraints/0/value: expected an expression"
                + " such as \">= 5000\" (a string), found the number 5000");
  }

  @Test
  @DisplayName("flags give AICR's two constraints; a negative threshold is invalid")
  void flags() {
    ConstraintSet set = ConstraintReader.fromFlags(new BigDecimal("5000"), new BigDecimal("200"));
    assertThat(set.constraints())
        .extracting(Constraint::operator)
        .containsExactly(Operator.GE, Operator.LE);
    assertThat(set.source()).isEqualTo("flags");
    assertThat(ConstraintReader.fromFlags(null, null).isEmpty()).isTrue();
    assertThatThrownBy(() -> ConstraintReader.fromFlags(new BigDecimal("-1"), null))
        .hasMessage("--min-throughput: expected a non-negative number, got -1");
  }

  @Test
  @DisplayName(
      "plan objectives.gates are read with their units; inconsistent AICR gates are invalid")
  void planGates() {
    List<BenchmarkPlan.Gate> gates = new ArrayList<>();
    gates.add(
        gate("inference-throughput", "output_token_throughput", "avg", ">=", "5000", "tokens/sec"));
    gates.add(gate("inference-ttft-p99", "time_to_first_token", "p99", "<=", "2000", "ms"));
    gates.add(gate("inter_token_latency-p95", "inter_token_latency", "p95", "<=", "25", "ms"));
    ConstraintSet set = ConstraintReader.fromPlanGates(gates, "/p/plan.json");
    assertThat(set.constraints()).hasSize(3);
    assertThat(set.constraints().get(2).unit().text()).isEqualTo("ms");
    assertThat(set.constraints().get(2).origin()).isEqualTo("/p/plan.json: /objectives/gates/2");

    gates.set(
        0,
        gate("inference-throughput", "output_token_throughput", "p50", ">=", "5000", "tokens/sec"));
    assertThatThrownBy(() -> ConstraintReader.fromPlanGates(gates, "/p/plan.json"))
        .hasMessage(
            "/p/plan.json: /objectives/gates/0: gate 'inference-throughput' must"
                + " measure output_token_throughput avg, not output_token_throughput p50");
    gates.set(
        0, gate("inference-throughput", "output_token_throughput", "avg", ">=", "5000", "parsecs"));
    assertThatThrownBy(() -> ConstraintReader.fromPlanGates(gates, "/p/plan.json"))
        .hasMessage(
            "/p/plan.json: /objectives/gates/0/unit: unknown unit 'parsecs':"
                + " expected e.g. ms, s, tokens/sec, requests/sec");
    gates.set(
        0,
        gate("inference-throughput", "output_token_throughput", "avg", "<=", "5000", "tokens/sec"));
    assertThatThrownBy(() -> ConstraintReader.fromPlanGates(gates, "/p/plan.json"))
        .hasMessage(
            "/p/plan.json: /objectives/gates/0: inference-throughput takes only >="
                + " (as AICR requires), got <=");
    assertThat(ConstraintReader.fromPlanGates(List.of(), "p").isEmpty()).isTrue();
  }

  /** A plan gate as the plan file holds it (typed), without a tolerance. */
  private static BenchmarkPlan.Gate gate(
      String name, String metric, String stat, String op, String threshold, String unit) {
    return new BenchmarkPlan.Gate(
        name, metric, stat, op, new BigDecimal(threshold), unit, "workload", null);
  }

  @Test
  @DisplayName(
      "a plan's error_rate gate (the workload's error_rate_max) becomes the maximum error rate")
  void planErrorRateGate() {
    List<BenchmarkPlan.Gate> gates = new ArrayList<>();
    gates.add(
        gate("inference-throughput", "output_token_throughput", "avg", ">=", "5000", "tokens/sec"));
    gates.add(gate("error_rate-avg", "error_rate", "avg", "<=", "0.005", "ratio"));
    ConstraintSet set = ConstraintReader.fromPlanGates(gates, "/p/plan.json");
    assertThat(set.constraints())
        .extracting(Constraint::name)
        .containsExactly("inference-throughput");
    assertThat(ConstraintReader.planGateOptions(gates).maxErrorRate())
        .isEqualByComparingTo("0.005");
    assertThat(ConstraintReader.planGateOptions(gates).tolerance()).isEqualByComparingTo("0.10");
    gates.remove(1);
    assertThat(ConstraintReader.planGateOptions(gates).maxErrorRate())
        .isEqualByComparingTo(GateOptions.DEFAULT_MAX_ERROR_RATE);
  }

  @Test
  @DisplayName(
      "a threshold beyond the range of a double (1e999) is invalid input, from a flag or an overlay")
  void infiniteThreshold() throws Exception {
    assertThatThrownBy(() -> ConstraintReader.fromFlags(new BigDecimal("1e999"), null))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            "--min-throughput: expected a finite number, got 1E+999 (beyond the range of a double)");
    Path overlay =
        Files.writeString(
            tmp.resolve("inf.yaml"),
            "validation: {performance: {checks: [inference-perf], constraints: [{name: inference-throughput, value: \">= 1e999\"}]}}");
    assertThatThrownBy(() -> ConstraintReader.fromOverlay(overlay))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2))
        .hasMessage(
            overlay
                + ": /validation/performance/constraints/0/value: '>= 1e999': expected a"
                + " finite number, got 1E+999 (beyond the range of a double)");
  }
}
